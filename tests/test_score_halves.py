"""Scores in halves (issue 37, mechanism 5): ``scoring.unit: half``.

A table that scores half of an odd bid counts every number of points in half points, so scores
stay integers everywhere (the interpreter, the protocol, the cases) and only the words shown to
players divide by two. Each expected value here is worked out from the table below (Pepper in
which a fold gives the bidders half the tricks they bid), not read from the interpreter.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
import yaml

from conformance.egn.export import ExportError, to_egn
from reference_impl.resolve import resolve, resolve_file
from reference_impl.rules import Rules
from reference_impl.state import State, new_game
from reference_impl.validate import variant_problems
from rules_site import words as W
from rules_site.notation import Notation, amount, points_amount

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3

# Pepper, scored in half points: a fold gives the bidders half the tricks they bid; every other
# number is Pepper's doubled (a trick is 2, pepper 24, the target 60).
HALF_FOLD = """\
id: pepper-half-fold
extends: pepper
title: Pepper where a fold scores half the bid
summary: Scores in half points; a fold gives the bidders half the number of tricks they bid.
sources:
  kitchen: {title: "The rules on our kitchen wall", kind: house}
scoring:
  unit: half
  rows:
    - {id: folded, when: {conceded: defenders}, award: [{to: makers, points: {bid-tricks: 1}}]}
    - {id: pepper-made, when: {bid: [pepper], made: true}, award: [{to: makers, points: 24}]}
    - {id: pepper-set, when: {bid: [pepper], made: false}, award: [{to: makers, points: -24}, {to: defenders, points: {per-trick: 2}}]}
    - {id: made, when: {made: true}, award: [{to: makers, points: {per-trick: 2}}, {to: defenders, points: {per-trick: 2}}]}
    - {id: set, when: {made: false}, award: [{to: makers, points: {bid-tricks: -2}}, {to: defenders, points: {per-trick: 2}}]}
options:
  game-target:
    title: Game target
    summary: The score that wins, in half points (60 is 30 points).
    source: kitchen
    default: 60
    range: {minimum: 2, maximum: 1000, examples: [60, 84], sets: {game.target: $value}}
clauses:
  - id: folded
    topic: scoring
    title: A fold
    text: If the defenders fold, the bidders score half the number of tricks they bid (1½ for a bid of three, 3 for pepper); the defenders score nothing.
    source: kitchen
"""


def _file(folder: Path, text: str = HALF_FOLD, name: str = "pepper-half-fold") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _fold_after(rules: Rules, bid: str) -> State:
    """North deals; East bids ``bid``, the others pass, East names spades, South folds."""
    state = new_game(rules, dealer=NORTH)
    state.deal_random(random.Random(5))
    state.apply(bid)
    for _ in range(3):
        state.apply("pass")
    state.apply("name:S")
    if state.phase == "partners-best":           # pepper: West passes a card, East lays one away
        state.apply(state.legal_actions()[0])
        state.apply(state.legal_actions()[0])
    assert state.phase == "play-or-fold" and state.current_player() == SOUTH
    state.apply("fold")
    return state


def test_a_fold_scores_half_an_odd_bid(tmp_path):
    """A bid of three folded: the bidders score 1½ points, 3 half points; the defenders none."""
    state = _fold_after(Rules(resolve_file(_file(tmp_path))), "bid:3")
    assert state.hand_points == [0, 3] and state.scores == [0, 3]
    assert all(isinstance(n, int) for n in state.scores)
    assert state.observation()["scores"] == [0, 3]            # the protocol's integers, in half points


def test_a_fold_of_pepper_scores_three_points(tmp_path):
    """Pepper is six tricks: half of it is 3 points, 6 half points."""
    state = _fold_after(Rules(resolve_file(_file(tmp_path))), "bid:pepper")
    assert state.hand_points == [0, 6]


def test_the_target_is_in_half_points(tmp_path):
    """59 half points (29½) and a fold of three (1½) reach 60, 30 points: East's side wins."""
    rules = Rules(resolve_file(_file(tmp_path)))
    assert rules.target == 60 and rules.points_per_point == 2
    state = new_game(rules, dealer=NORTH, scores=[0, 59])
    state.deal_random(random.Random(5))
    state.apply("bid:3")
    for _ in range(3):
        state.apply("pass")
    state.apply("name:S")
    state.apply("fold")
    assert state.scores == [0, 62] and state.is_terminal() and state.winner == 1


def test_a_table_in_points_counts_one_to_a_point():
    assert Rules(resolve("pepper")).points_per_point == 1


def test_the_authoring_guide_shows_this_table():
    """docs/authoring.md's snippet is this table, so the guide's example is the one tested here."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "authoring.md").read_text(encoding="utf-8")
    start = page.index("# file: tables/pepper-half-fold.yaml\n")
    block = page[start:page.index("```", start)]
    assert block.split("\n", 2)[2] == HALF_FOLD


# -- validate -----------------------------------------------------------------------------------------
def _line(path: Path, text: str) -> int:
    return next(n for n, row in enumerate(path.read_text().splitlines(), start=1) if text in row)


def test_the_table_is_accepted(tmp_path):
    assert variant_problems(_file(tmp_path)) == []


def test_halves_no_number_needs_are_refused(tmp_path):
    """Every number even (a fold scoring the whole bid, `bid-tricks: 2`): no score can be a half."""
    path = _file(tmp_path, HALF_FOLD.replace("points: {bid-tricks: 1}", "points: {bid-tricks: 2}"))
    found = [p for p in variant_problems(path) if "no score can come to half a point" in p.message]
    assert found and found[0].path == "$.scoring.unit" and found[0].line == _line(path, "unit: half"), found


def test_an_odd_target_in_half_points_is_refused(tmp_path):
    """A target of 61 half points would be 30½ points."""
    text = HALF_FOLD.replace("options:\n", "game:\n  target: 61\noptions:\n").replace("default: 60", "default: 61")
    text = text.replace("examples: [60, 84]", "examples: [61]")
    path = _file(tmp_path, text)
    found = [p for p in variant_problems(path) if "30.5 points" in p.message]
    assert found and found[0].path == "$.game.target" and found[0].line == _line(path, "target: 61"), found


def test_a_table_in_points_may_have_even_numbers_only(tmp_path):
    """The check is for the half unit alone: a table in points with even numbers is fine."""
    text = HALF_FOLD.replace("  unit: half\n", "").replace("points: {bid-tricks: 1}", "points: {bid-tricks: 2}")
    assert variant_problems(_file(tmp_path, text)) == []


# -- the players' words, EGN --------------------------------------------------------------------------
@pytest.mark.parametrize("n, said", [(7, "3½"), (1, "½"), (2, "1"), (0, "0"), (-3, "-1½"), (-4, "-2"), (60, "30")])
def test_half_points_as_players_say_them(n, said):
    assert amount(n, True) == said and amount(n) == str(n)


def test_points_in_words():
    assert points_amount(2, True) == "1 point" and points_amount(1, True) == "½ point"
    assert points_amount(7, True) == "3½ points" and points_amount(7) == "7 points"
    assert W.points_words({"bid-tricks": 1}, half=True) == "half the tricks bid"
    assert W.points_words({"bid-tricks": -2}, half=True) == "minus the tricks bid"
    assert W.points_words({"per-trick": 2}, half=True) == "1 a trick taken"
    assert W.points_words({"bid-tricks": 1}) == "the tricks bid"


def test_the_page_says_points_not_half_points(tmp_path, monkeypatch):
    monkeypatch.setenv("EUCHRE_SPEC_PATH", str(_file(tmp_path).parent))
    table = resolve("pepper-half-fold").table
    w = Notation(table)
    rows = {r["id"]: r for r in table["scoring"]["rows"]}
    assert W.awards_words(rows["folded"]["award"], table, w) == "the makers score half the tricks bid"
    assert W.awards_words(rows["pepper-made"]["award"], table, w) == "the makers score 12 points"
    game = W.game_words(table, w)
    assert "to reach 30 points wins" in game and "scores are kept in half points" in game


def test_egn_refuses_a_game_in_half_points(tmp_path):
    """EGN records whole points: a Euchre scored in half points is refused, saying why."""
    table = copy.deepcopy(resolve("euchre").table)
    table.pop("selected", None)
    table.pop("options", None)
    table["scoring"]["unit"] = "half"
    path = tmp_path / "euchre.yaml"
    path.write_text(yaml.safe_dump(table, sort_keys=False, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ExportError, match="half points"):
        to_egn(Rules(resolve_file(path)), 0, [])
