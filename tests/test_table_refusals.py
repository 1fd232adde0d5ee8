"""Tables that `validate` must refuse, each at the author's file and line.

Every table here was accepted once and then played something else than it says, or crashed
(an outside author's report, issue 37): a child's value replaced by an inherited option, a
bid taken from a step that did not run, a lone hand with no maker, a swap larger than the
kitty, a packet count that cost gigabytes to refuse, a scoring row asking about a seat where
no seat is meant, a step no clause states, a number no engine may report. Each test writes
the smallest table that shows the fault, as an author would, and finds the refusal at the
line that says the wrong thing.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Callable

import yaml

from reference_impl.errors import Problem
from reference_impl.resolve import resolve
from reference_impl.validate import variant_problems

CHILD_HEAD = """\
id: {id}
extends: euchre
title: A child of Euchre
summary: Euchre with one change.
sources:
  house: {{title: Our reading, kind: house}}
"""


def _child(tmp_path: Path, body: str, ident: str = "child") -> Path:
    """A child of the shipped Euchre, written as its author would (the body starts on line 7)."""
    path = tmp_path / f"{ident}.yaml"
    path.write_text(CHILD_HEAD.format(id=ident) + body, encoding="utf-8")
    return path


def _standalone(tmp_path: Path, edit: Callable[[dict], None], base: str = "euchre", ident: str = "table") -> Path:
    """A whole table (a shipped one resolved, its options gone), changed by ``edit``."""
    table = copy.deepcopy(resolve(base).table)
    table.pop("selected", None)
    table.pop("options", None)
    table["id"] = ident
    edit(table)
    path = tmp_path / f"{ident}.yaml"
    path.write_text(yaml.safe_dump(table, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line of ``path`` containing ``text``."""
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def _found(path: Path, words: str) -> list[Problem]:
    return [p for p in variant_problems(path) if words in p.message]


# -- defect 1: a child's own value under an inherited option -------------------------------------
def test_a_childs_value_that_an_inherited_options_default_replaces_is_refused_at_its_line(tmp_path):
    path = _child(tmp_path, "game:\n  target: 15\n")
    found = _found(path, "inherited option game-target")
    assert len(found) == 1, variant_problems(path)
    assert found[0].file == str(path) and found[0].line == 8 and found[0].path == "$.game.target", found
    assert "option-defaults: {game-target: 15}" in found[0].message and "drop-options: [game-target]" in found[0].message


def test_any_inherited_option_and_any_path_is_checked(tmp_path):
    # A child that writes the whole scoring (a list merged by replacement) with its own points
    # for a lone march: Euchre's range option lone-march-points writes that value by default.
    rows = copy.deepcopy(resolve("euchre").table["scoring"]["rows"])
    march = next(r for r in rows if r["id"] == "lone-march")
    march["award"][0]["points"] = 5
    path = _child(tmp_path, yaml.safe_dump({"scoring": {"rows": rows}}, sort_keys=False, width=1000))
    found = _found(path, "inherited option lone-march-points")
    line = _line_of(path, "id: lone-march") + 1
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(n for n in range(line, len(lines) + 1) if "points: 5" in lines[n - 1])
    assert len(found) == 1 and found[0].file == str(path) and found[0].line == line, found
    assert found[0].path.endswith(".award[0].points") and "option-defaults: {lone-march-points: 5}" in found[0].message


def test_the_cures_are_accepted(tmp_path):
    assert variant_problems(_child(tmp_path, "option-defaults: {game-target: 15}\n", "cured")) == []
    assert variant_problems(_child(tmp_path, "drop-options: [game-target]\ngame:\n  target: 15\n", "dropped")) == []
    assert variant_problems(_child(tmp_path, "game:\n  target: 10\n", "same")) == []


# -- defect 2: one bid id in two auctions ---------------------------------------------------------
def test_a_bid_id_repeated_in_another_auction_is_refused_at_the_second(tmp_path):
    def edit(t: dict) -> None:
        at, auction = next((i, s) for i, s in enumerate(t["hand"]) if s["kind"] == "auction")
        again = copy.deepcopy(auction)
        again["id"] = "second-auction"
        again["clause"] = auction.get("clause", auction["id"])
        again["bids"] = [dict(again["bids"][0], id="only-mine")] + again["bids"][1:2]
        t["hand"].insert(at + 1, again)
    path = _standalone(tmp_path, edit, base="bid-euchre")
    found = _found(path, "is also a bid of step")
    repeated = resolve("bid-euchre").table["hand"]
    first = next(s for s in repeated if s["kind"] == "auction")
    assert len(found) == 1, found
    assert found[0].file == str(path) and found[0].path.endswith("].bids[1].id"), found
    text = path.read_text(encoding="utf-8").splitlines()
    own = _line_of(path, "id: second-auction")
    assert found[0].line == next(n for n in range(own, len(text) + 1) if f"id: {first['bids'][1]['id']}" in text[n - 1]
                                 or f"id: '{first['bids'][1]['id']}'" in text[n - 1]), found


# -- defect 3: a lone hand with no maker ----------------------------------------------------------
def _line_after(path: Path, anchor: str, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    start = _line_of(path, anchor)
    return next(n for n in range(start, len(lines) + 1) if text in lines[n - 1])


def test_going_alone_where_no_step_before_makes_a_maker_is_refused(tmp_path):
    # Trumps fixed by the turn-up (no maker), then an offer to everyone to go alone: the
    # interpreter's "alone" is the maker's, so the hand would play alone for no seat.
    def edit(t: dict) -> None:
        t["hand"] = [s for s in t["hand"] if s["kind"] not in ("make-trumps", "throw-in", "name")
                     and s["id"] != "defending-alone"]
        t["hand"].insert(0, {"id": "turn-up", "kind": "set-trumps", "trumps": "upcard", "clause": "round-1"})
        alone = next(s for s in t["hand"] if s["id"] == "going-alone")
        alone["to"] = {"seats": "everyone", "from": "eldest"}
        alone.pop("when", None)
    path = _standalone(tmp_path, edit)
    found = _found(path, "effect: alone: the maker plays alone, and no step before it makes a maker")
    assert len(found) == 1, variant_problems(path)
    assert found[0].file == str(path) and found[0].line == _line_after(path, "id: going-alone", "effect: alone"), found


# -- defect 4: a swap larger than the kitty ------------------------------------------------------
def test_a_swap_larger_than_the_kitty_is_refused_at_its_count(tmp_path):
    # Euchre's kitty: 24 cards, less 4 x 5 dealt and the upcard, holds 3; going under takes 3.
    def edit(t: dict) -> None:
        next(s for s in t["hand"] if s["id"] == "going-under")["swap"]["count"] = 4
    table = resolve("euchre", {"going-under": True}).table
    assert next(s for s in table["hand"] if s["id"] == "going-under")["swap"]["count"] == 3
    path = _standalone(tmp_path, lambda t: None, ident="fits")
    assert not _found(path, "from the kitty"), "the shipped swap of 3 fits Euchre's kitty of 3"

    def with_going_under(t: dict) -> None:
        t.update(copy.deepcopy({k: v for k, v in table.items() if k not in ("selected", "options")}))
        edit(t)
    path = _standalone(tmp_path, with_going_under, ident="too-many")
    found = _found(path, "the swap takes 4 card(s) from the kitty, which holds 3")
    assert len(found) == 1 and found[0].file == str(path), variant_problems(path)
    assert found[0].line == _line_after(path, "id: going-under", "count: 4"), found


def test_an_option_that_leaves_a_smaller_kitty_is_refused_with_that_option(tmp_path):
    # A child that deals one card to a widow leaves a kitty of 2: Euchre's options that swap 3
    # (farmer's hand, going under) no longer fit, and validate tries each of them.
    path = _child(tmp_path, "deal:\n  packets:\n    - {to: players, count: 3}\n    - {to: players, count: 2}\n"
                            "    - {to: widow, count: 1}\n")
    found = _found(path, "the swap takes 3 card(s) from the kitty, which holds 2")
    assert {p.message.rsplit("(with options ", 1)[-1] for p in found} == {"farmers-hand=true)", "going-under=true)"}, found
    assert all(p.file == str(path) and p.line == 2 for p in found), found


# -- defect 5: a packet's count costs nothing to refuse ------------------------------------------
def test_a_huge_packet_is_refused_by_arithmetic(tmp_path):
    """Refusing a deal of a hundred thousand cards a seat must not build anything of its size: the
    memory the refusal takes is measured (not its time), and it stays that of a small table."""
    import tracemalloc

    path = _child(tmp_path, "deal:\n  packets:\n    - {to: players, count: 100000}\n    - {to: players, count: 2}\n")
    resolve("euchre")                    # the parent's own resolution is not the child's cost
    tracemalloc.start()
    try:
        found = _found(path, "the deal needs 400009 cards but the pack has 24")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(found) == 1 and found[0].file == str(path) and found[0].line == 8, found
    assert found[0].path == "$.deal.packets"
    assert peak < 16 * 2 ** 20, f"refusing the deal took {peak // 2 ** 20} MiB"
    assert not _found(path, "from the kitty"), "the stock of a deal that does not fit is not reported again"


# -- defect 6: a seat atom where no seat is meant ------------------------------------------------
def test_a_seat_atom_in_a_scoring_rows_when_is_refused_at_the_atom(tmp_path):
    def edit(t: dict) -> None:
        t["scoring"]["rows"][-1]["when"] = {"any": [{"maker-tricks": [0, 2]}, {"self-tricks": 1}]}
    path = _standalone(tmp_path, edit)
    found = _found(path, "self-tricks is about the seat or unit considered, and a scoring row is chosen for the hand")
    last = len(resolve("euchre").table["scoring"]["rows"]) - 1
    assert len(found) == 1 and found[0].file == str(path), variant_problems(path)
    assert found[0].path == f"$.scoring.rows[{last}].when.any[1].self-tricks"
    assert found[0].line == _line_of(path, "self-tricks: 1"), found


def test_seat_atoms_in_steps_takes_and_lead_rules_are_refused_and_in_awards_accepted(tmp_path):
    def edit(t: dict) -> None:
        step = next(s for s in t["hand"] if s["id"] == "dealer-pickup")
        step["takes"][0]["when"] = {"holds": {"of": {"ranks": ["A"]}, "at-least": 1}}
        play = next(s for s in t["hand"] if s["kind"] == "play")
        play["lead"][0]["when"] = {"not": {"score": {"at-least": 5}}}
        t["hand"][0]["when"] = {"stood": "other"}
        t["scoring"]["rows"][0]["award"][0]["when"] = {"self": "maker-side"}      # weighed for a seat: fine
    path = _standalone(tmp_path, edit)
    found = {p.path.rsplit(".", 1)[-1]: p for p in _found(path, "is about the seat or unit considered")}
    assert set(found) == {"holds", "score", "stood"}, variant_problems(path)
    assert found["holds"].line == _line_of(path, "holds:") and found["score"].line == _line_of(path, "score:")
    assert all(p.file == str(path) for p in found.values())


def test_no_scoring_row_at_run_time_names_the_table_file_and_its_rows(tmp_path):
    import random

    from reference_impl.errors import SpecError
    from reference_impl.resolve import ResolvedTable, table_problem
    from reference_impl.rules import Rules
    from reference_impl.selfplay import play_random_game

    path = _standalone(tmp_path, lambda t: None, ident="euchre")
    table = copy.deepcopy(resolve("euchre").table)
    # a table that validate would refuse, played as if it had not been: no row scores anything
    for row in table["scoring"]["rows"]:
        row["when"] = {"maker-tricks": 9}
    rules = Rules(ResolvedTable("euchre", table, "0" * 64, table["selected"], str(path)))
    try:
        play_random_game(rules, random.Random(1))
    except SpecError as exc:
        problem = exc.problems[0]
    else:
        raise AssertionError("a hand no row scores was scored")
    assert problem.file == str(path) and problem.path == "$.scoring.rows", problem
    assert problem.line == _line_of(path, "  rows:") and "no scoring row of euchre matches" in problem.message
    assert table_problem(rules.resolved, ("scoring", "rows"), "x").line == problem.line


# -- defect 9: a step no clause states -----------------------------------------------------------
def test_a_step_with_no_clause_is_refused_as_a_row_is(tmp_path):
    def edit(t: dict) -> None:
        t["hand"].insert(len(t["hand"]) - 1, {"id": "secret-step", "kind": "offer", "phase": "secret",
                                              "to": {"seats": "everyone", "from": "eldest"}, "accept": "drop",
                                              "effect": "sit-out"})
    path = _standalone(tmp_path, edit)
    found = _found(path, "step 'secret-step' has no clause stating it")
    assert len(found) == 1 and found[0].file == str(path) and found[0].line == _line_of(path, "id: secret-step"), found
    assert found[0].path.endswith("].id")

    def cited(t: dict) -> None:
        edit(t)
        t["hand"][-2]["clause"] = "deal"
    assert not _found(_standalone(tmp_path, cited, ident="cited"), "has no clause stating it")


def test_the_benny_step_of_a_table_without_a_benny_needs_no_clause(tmp_path):
    # Euchre's benny-upcard step never runs without a Benny; the option that adds one adds its clause.
    assert not resolve("euchre").table["ranking"].get("benny")
    assert not any(c["id"] == "benny-upcard" for c in resolve("euchre").table["clauses"])
    assert not _found(_standalone(tmp_path, lambda t: None), "has no clause stating it")

    def benny(t: dict) -> None:
        t["deck"]["extra"] = ["JK"]
        t["ranking"]["benny"] = "JK"
    found = _found(_standalone(tmp_path, benny, ident="benny"), "step 'benny-upcard' has no clause stating it")
    assert len(found) == 1, "with a Benny the step runs, and must be stated"


# -- defect 10: integers no engine may report ----------------------------------------------------
def test_integers_beyond_what_every_engine_carries_are_refused_at_their_line(tmp_path):
    largest = 2 ** 53 - 1              # RFC 8259's interoperable integers; the protocol's 20 digits lie above

    def edit(t: dict) -> None:
        t["scoring"]["rows"][0]["award"][0]["points"] = 2 ** 63
        t["game"]["start-score"] = -(10 ** 22)
    path = _standalone(tmp_path, edit)
    found = {p.path: p for p in _found(path, "is beyond the largest whole number an engine is sure to carry")}
    assert set(found) == {"$.scoring.rows[0].award[0].points", "$.game.start-score"}, variant_problems(path)
    assert found["$.game.start-score"].line == _line_of(path, f"start-score: -{10 ** 22}")
    assert found["$.scoring.rows[0].award[0].points"].line == _line_of(path, f"points: {2 ** 63}")
    assert all(p.file == str(path) for p in found.values())

    def at_the_limit(t: dict) -> None:
        t["game"]["target"] = largest
    assert not _found(_standalone(tmp_path, at_the_limit, ident="limit"), "beyond the largest whole number")


# -- defect 7: every inherited option's problem in one run ----------------------------------------
def test_a_child_learns_every_inherited_option_that_no_longer_fits_in_one_run(tmp_path):
    # The child removes a row and two steps that Euchre's options change: the option at its
    # default (lone-march-points=4) fails, and so do values nobody chose (stick-the-dealer=true);
    # its clause citing an unknown source is a semantic problem of its own.
    path = _child(tmp_path, "remove: [scoring.rows.lone-march, hand.round-2, hand.going-alone]\n"
                            "clauses:\n  - {id: deal, topic: deal, title: The deal, text: Five each., source: nowhere}\n")
    problems = variant_problems(path)
    messages = [p.message for p in problems]
    assert len([m for m in messages if "(option lone-march-points=" in m]) == 1, messages   # once, not once per value
    assert any("(option stick-the-dealer=true)" in m for m in messages), messages
    assert any("(option low-no-trump=true)" in m for m in messages), messages
    unknown = [p for p in problems if "unknown source 'nowhere'" in p.message]
    assert len(unknown) == 1 and unknown[0].line == 9, problems
    inherited = [p for p in problems if "(option " in p.message]
    assert all(p.file == str(path) and p.line == 2 and p.path == "$.extends" for p in inherited), inherited
    alone = next(m for m in messages if "(option going-alone=false)" in m)
    # the cure names the options that require going-alone, or dropping it alone would refuse them
    hint = alone.split("drop-options: [", 1)[1].split("]", 1)[0].split(", ")
    needing = [k for k, o in resolve("euchre").table["options"].items()
               if any("going-alone" in (c.get("requires") or {}) for c in o.get("choices", []))]
    assert hint[0] == "going-alone" and needing and set(hint[1:]) == set(needing), alone


def test_an_exchange_by_proposal_that_could_never_be_made_is_refused(tmp_path):
    # Écarté: 32 cards, 2 x 5 dealt and the upcard leave a stock of 21, and a hand holds 5.
    def edit(t: dict) -> None:
        next(s for s in t["hand"] if s["kind"] == "propose")["exchange"]["proposer-at-least"] = 6
    path = _standalone(tmp_path, edit, base="ecarte")
    found = _found(path, "the proposer must lay out 6 card(s), and the stock holds 21")
    assert len(found) == 1 and found[0].file == str(path), variant_problems(path)
    assert found[0].line == _line_of(path, "proposer-at-least: 6") and found[0].path.endswith(".exchange.proposer-at-least")
    assert not _found(_standalone(tmp_path, lambda t: None, base="ecarte", ident="as-shipped"), "the proposer must lay out")


def test_forced_contract_where_no_step_can_force_one_is_refused_at_the_atom(tmp_path):
    """Euchre by default sticks no one: `forced-contract` would be false in every hand, so a
    row written with it could never apply. Sticking the dealer (a make-trumps `stuck` seat)
    makes it a rule the table can use."""
    def edit(t: dict) -> None:
        t["scoring"]["rows"].insert(0, {"id": "forced-euchred", "when": {"made": False, "forced-contract": True},
                                        "award": [{"to": "defenders", "points": 1}]})
        t["clauses"].append({"id": "forced-euchred", "topic": "scoring", "title": "A stuck dealer euchred",
                             "text": "A stuck dealer euchred gives the defenders 1 point.", "source": "seed-001"})
    path = _standalone(tmp_path, edit)
    found = _found(path, "forced-contract: no step of this table can force a contract")
    assert len(found) == 1 and found[0].file == str(path), variant_problems(path)
    assert found[0].path == "$.scoring.rows[0].when.forced-contract"
    assert found[0].line == _line_of(path, "forced-contract: true"), found

    def stuck(t: dict) -> None:
        edit(t)
        next(s for s in t["hand"] if s["id"] == "round-2")["stuck"] = "dealer"
    accepted = _standalone(tmp_path, stuck, ident="stuck")
    assert not _found(accepted, "forced-contract"), variant_problems(accepted)
