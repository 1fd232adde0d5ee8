"""Who sees what: the tables' visibility entries, the seat views derived from them, and the
information-flow fuzzer that checks an engine's views."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from conformance.runner.engine_process import EngineProcess, engine_command
from conformance.fuzzing.hands import random_game
from conformance.fuzzing.leaks import SEAT_FIELDS, measure, pre_fix_views, reference_views
from conformance.fuzzing.lockstep import Reference
from conformance.fuzzing.policy import Policy
from conformance.fuzzing.views import ViewFuzzer
from conformance.runner.seat_views import card_tokens
from conformance.corpus_tools.mutation import mutant_command
from reference_impl import load_rules, new_game
from reference_impl.catalog import variant_ids
from reference_impl.selfplay import random_action
from reference_impl.validate import variant_problems
from reference_impl.yaml_source import load_file

ROOT = Path(__file__).resolve().parent.parent

HISTORY = ("discards", "passed", "received")


# -- the tables ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", variant_ids())
def test_every_table_states_who_sees_what_with_a_source(variant):
    data = load_file(ROOT / "spec" / "variants" / f"{variant}.yaml").data
    entries = data.get("visibility")
    assert entries, f"{variant} states no visibility"
    assert {e["zone"] for e in entries} >= {"hands", "tricks"}
    for entry in entries:
        assert "clause" in entry or "source" in entry, entry


BAD = """\
id: bad-vis
title: Bad
summary: A table whose visibility names what the game lacks.
extends: euchre
sources: {x: {title: X, url: "https://example.org", kind: site}}
visibility:
{entry}
"""


@pytest.mark.parametrize("entry, message", [
    ("  - {seen-by: owner, source: x}", "'zone' is a required property"),
    ("  - {zone: widdow, seen-by: owner, source: x}", "'widdow' is not one of"),
    ("  - {zone: hands, of: 5, seen-by: everyone, source: x}", "seat 5 is not a seat of 4 players"),
    ("  - {zone: hands, seen-by: {seats: [4]}, source: x}", "seat 4 is not a seat of 4 players"),
    ("  - {zone: hands, seen-by: owner, source: nowhere}", "unknown source 'nowhere'"),
    ("  - {zone: hands, seen-by: owner, clause: no-such-clause}", "no clause 'no-such-clause'"),
    ("  - {zone: upcard, of: maker, seen-by: everyone, source: x}", "it is for zone hands"),
])
def test_validate_refuses_a_visibility_entry_naming_no_zone_or_an_unknown_seat(tmp_path, entry, message):
    path = tmp_path / "bad-vis.yaml"
    path.write_text(BAD.replace("{entry}", entry), encoding="utf-8")
    problems = variant_problems(path)
    assert any(message in str(p) for p in problems), [str(p) for p in problems]


# -- the reference's views ----------------------------------------------------------------------------
@pytest.mark.parametrize("variant, options", [(v, {}) for v in variant_ids()]
                         + [("five-hundred", {"misere": "misere-and-open"})])
def test_no_reference_view_leaks_hides_or_forgets_in_random_games(variant, options):
    rules = load_rules(variant, options)
    tally = measure(rules, Policy(rules, Reference(variant, rules.resolved)), 3, seed=36, hands=6)
    assert tally.views > 0
    assert (tally.leaking, tally.hiding, tally.forgetting) == (0, 0, 0), tally.example


@pytest.mark.parametrize("variant, options", [("euchre", {}), ("call-ace", {}), ("two-hand-dummy", {}),
                                              ("five-hundred", {"misere": "misere-and-open"}), ("railroad", {}),
                                              ("ecarte", {}), ("bid-euchre", {})])
def test_the_measures_views_are_what_state_seat_answers(variant, options):
    """The leak measure derives every seat's view from one shared observation: each must be
    what ``observation(seat)`` (the reply to ``state {seat}``) is, but for the seat-number
    fields it leaves out (:data:`SEAT_FIELDS`, which name no card)."""
    rules = load_rules(variant, options)
    policy = Policy(rules, Reference(variant, rules.resolved))
    states = 0
    for game in range(3):
        for state in random_game(policy, random.Random(f"views:{game}")):
            states += 1
            for seat, view in enumerate(reference_views(state)):
                answered = state.observation(seat)
                assert all(not isinstance(answered.get(name), str) for name in SEAT_FIELDS)
                assert view == {k: v for k, v in answered.items() if k not in SEAT_FIELDS}, (variant, seat, state.phase)
    assert states > 50


def _whole_scan_leaks(state, seat, view, names):
    """The cards of ``view`` that ``seat`` cannot know, from the hand's events read afresh
    and the whole view scanned (the slow anchor of the incremental check)."""
    rules = state.rules
    start = max(i for i, e in enumerate(state.events) if e[0] == "deal")
    _, _, _, masks, upcard, _ = state.events[start]
    known = set(rules.cards_of(masks[seat])) | ({rules.card_names[upcard]} if upcard >= 0 else set())
    for event in state.events[start + 1:]:
        if event[0] == "action":
            head, _, card = event[2].partition(":")
            if head == "play" or head in ("discard", "give") and event[1] == seat:
                known.add(card)
        elif event[0] in ("take", "swap", "exchange") and event[1] == seat:
            known.update(event[3])
        elif event[0] == "call" and event[3] is not None:
            known.add(event[3])
    return set(card_tokens(view, names)) - known


@pytest.mark.parametrize("variant", ["euchre", "five-hundred", "two-hand-dummy"])
def test_the_incremental_leak_check_counts_what_scanning_every_view_whole_counts(variant):
    """On the views as they were before visibility was data (which leak at most steps), the
    leak check that scans only what changed since the seat's last view counts exactly the
    leaking views a whole scan of every view from the hand's events counts."""
    rules = load_rules(variant, {})
    names = frozenset(rules.card_names)
    policy = Policy(rules, Reference(variant, rules.resolved))
    tally = measure(rules, policy, 4, seed=7, views_of=pre_fix_views)
    whole = 0
    for game in range(4):
        for state in random_game(policy, random.Random(f"7:{game}")):
            whole += sum(1 for seat, view in enumerate(pre_fix_views(state)) if _whole_scan_leaks(state, seat, view, names))
    assert tally.leaking > 100
    assert tally.leaking == whole


def _play_until(rules, rng, phase):
    state = new_game(rules, 0)
    state.deal_random(rng)
    while state.phase != phase:
        legal = state.legal_actions()
        state.apply("order" if "order" in legal else "pass" if "pass" in legal and state.phase != "bid-round-2" else legal[0])
    return state


def test_the_dealers_discard_is_his_alone_and_legal_only_for_the_seat_to_act():
    rules = load_rules("euchre", {})
    state = _play_until(rules, random.Random(5), "discard")
    dealer = state.to_act
    state.apply(state.legal_actions()[0])
    buried = state.events[-1][2].split(":")[1]
    for seat in range(4):
        view = state.observation(seat)
        if seat == state.to_act:
            assert view["legal"] == state.legal_actions()
        else:
            assert view["legal"] == []
        if seat == dealer:
            assert view["discards"][dealer] == [buried]
        else:
            assert view["discards"][dealer] is None
            assert buried not in str(view)


def test_the_public_part_is_the_same_for_every_seat():
    rules = load_rules("call-ace", {})
    rng = random.Random(11)
    state = new_game(rules, 0)
    state.deal_random(rng)
    while state.current_player() is not None:
        views = [state.observation(s) for s in range(rules.n)]
        public = [{k: v for k, v in view.items() if k not in ("legal", "hands", "partner") + HISTORY} for view in views]
        assert all(p == public[0] for p in public)
        state.apply(random_action(rng, state))


def test_an_open_misere_hand_lies_face_up_after_the_first_lead_and_not_before():
    rules = load_rules("five-hundred", {"misere": "misere-and-open"})
    for seed in range(400):
        rng = random.Random(seed)
        state = new_game(rules, 0)
        state.deal_random(rng)
        if "bid:open-misere" not in state.legal_actions():
            continue
        state.apply("bid:open-misere")
        while state.phase == "auction":
            state.apply("pass")
        maker = state.maker
        other = (maker + 1) % 3
        while state.phase != "play":
            state.apply(state.legal_actions()[0])
        assert state.observation(other)["hands"][maker] is None          # before the lead
        state.apply(state.legal_actions()[0])
        assert sorted(state.observation(other)["hands"][maker]) == sorted(state.observation()["hands"][maker])
        return
    pytest.fail("no deal in 400 let the first bidder bid open misère")


# -- fuzz --views ------------------------------------------------------------------------------------
def _fuzz(argv, variant="euchre", hands=25, flow_only=True, options=None, max_findings=1):
    from reference_impl.resolve import resolve
    engine = EngineProcess(argv, 10.0)
    try:
        return ViewFuzzer(engine, resolve(variant, options or {}), seed=0, hands=hands, max_findings=max_findings,
                          compare_reference=not flow_only).run()
    finally:
        engine.stop()


@pytest.mark.parametrize("variant", ["euchre", "call-ace", "two-hand-dummy"])
def test_fuzz_views_finds_nothing_in_the_reference(variant):
    result = _fuzz(engine_command("reference"), variant=variant, flow_only=False)
    assert result.leak_tests > 10 and result.forgotten_tests > 10
    assert result.findings == []


@pytest.mark.parametrize("mutant, variant, kind", [
    ("legal-shown-to-every-seat", "euchre", "leak"),
    ("buried-card-shown", "euchre", "leak"),
    ("dummy-taken-face-up", "two-hand-dummy", "leak"),
    ("widow-shown-to-every-seat", "five-hundred", "leak"),
    ("called-partner-shown-at-once", "call-ace", "leak"),    # the called card's place moves between worlds
])
def test_fuzz_views_finds_a_leaking_mutant_by_information_flow_alone(mutant, variant, kind):
    result = _fuzz(mutant_command(mutant), variant=variant, hands=60)
    assert [f.kind for f in result.findings] == [kind]


def test_fuzz_views_counts_one_defect_met_again_and_goes_on():
    # a buried card shown to all is met at many points: one finding, counted, and the run
    # plays every hand instead of stopping at the second sighting of the same defect
    result = _fuzz(mutant_command("buried-card-shown"), hands=60, max_findings=2)
    assert [(f.kind, f.field) for f in result.findings] == [("leak", "discards")]
    assert result.times_found(result.findings[0]) > 1
    assert result.hands == 60


def test_fuzz_views_finds_the_hidden_open_misere_hand():
    result = _fuzz(mutant_command("open-misere-hand-kept-hidden"), variant="five-hundred", hands=300, flow_only=False,
                   options={"misere": "misere-and-open"})
    assert result.findings and result.findings[0].field == "hands"


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="open-spiel is not installed")
def test_fuzz_views_finds_that_openspiels_dealer_forgets_his_discard():
    argv = [sys.executable, str(ROOT / "tools" / "adapters" / "openspiel_engine.py")]
    result = _fuzz(argv, variant="openspiel", hands=40, max_findings=4)
    found = {(finding.kind, finding.field) for finding in result.findings}
    assert ("forgotten", "discards") in found, "OpenSpiel's information state should forget the dealer's discard"
