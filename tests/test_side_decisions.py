"""One decision for a whole side, and a concession that ends the hand (issue 37, mechanism 4).

An offer to a queue of seats may be decided by the first seat asked for its side
(``decision: first-seat``) or by every seat agreeing (``decision: unanimous``); an offer with
``effect: concede`` ends the hand at once for the accepting seat's side, scored by a row that
tests ``conceded``. Pepper's play-or-fold is the table that uses both. Each test here plays
the interpreter or validate on a table written out by hand from Pepper's, and states what the
rules say should happen.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable

import yaml

from reference_impl.resolve import resolve, resolve_file
from reference_impl.rules import Rules
from reference_impl.state import State, new_game
from reference_impl.validate import variant_problems

# North (0) deals and East (1) bids first. East's partner is West (3); the defenders are South (2)
# and North (0), asked from the maker's left: South first.
EAST, SOUTH, WEST, NORTH = 1, 2, 3, 0


def _table(edit: Callable[[dict], None] | None, folder: Path, options: dict | None = None) -> Path:
    table = copy.deepcopy(resolve("pepper", options or {}).table)
    table.pop("selected", None)
    table.pop("options", None)
    if edit:
        edit(table)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "pepper.yaml"
    path.write_text(yaml.safe_dump(table, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _step(table: dict, ident: str) -> dict[str, Any]:
    return next(step for step in table["hand"] if step["id"] == ident)


def _to_the_fold(rules: Rules) -> State:
    """North deals the sorted pack; East bids 3, the others pass, East names spades."""
    state = new_game(rules, dealer=NORTH)
    state.deal_random(__import__("random").Random(7))
    assert state.phase == "auction" and state.current_player() == EAST
    state.apply("bid:3")
    for _ in range(3):
        state.apply("pass")
    state.apply("name:S")
    return state


def test_the_first_defender_answers_for_his_side():
    """decision: first-seat: the defender on the maker's left says play, and his partner is
    never asked: the play begins, led by the maker."""
    state = _to_the_fold(Rules(resolve("pepper")))
    assert state.phase == "play-or-fold" and state.current_player() == SOUTH
    assert sorted(state.legal_actions()) == ["fold", "play"]
    state.apply("play")
    assert state.phase == "play" and state.current_player() == EAST


def test_a_fold_ends_the_hand_and_scores_the_bid():
    """A fold concedes: no card is played, the makers (East and West, unit 1) score the 3 they
    bid, the defenders nothing, and the deal passes to East."""
    state = _to_the_fold(Rules(resolve("pepper")))
    state.apply("fold")
    seen = state.observation()
    assert seen["conceded"] == "defenders" and seen["tricks"] == []
    assert seen["hand_points"] == [0, 3] and seen["scoring_row"] == "folded" and seen["scores"] == [0, 3]
    assert seen["phase"] == "deal" and seen["next_dealer"] == EAST


def test_unanimous_needs_both_defenders_to_fold():
    """decision: unanimous: South folds, North says play: the hand is played; both folding
    concedes it once, through the last defender asked."""
    rules = Rules(resolve("pepper", {"fold-decision": "unanimous"}))
    state = _to_the_fold(rules)
    state.apply("fold")
    assert state.phase == "play-or-fold" and state.current_player() == NORTH
    state.apply("play")
    assert state.phase == "play" and state.observation()["conceded"] is None
    state = _to_the_fold(rules)
    state.apply("fold")
    state.apply("fold")
    assert state.observation()["conceded"] == "defenders" and state.observation()["hand_points"] == [0, 3]
    assert [e for e in state.events if e[0] == "concede"] == [("concede", NORTH, "defenders")]


def test_the_first_to_say_play_settles_a_unanimous_decision():
    """South says play: North is not asked (one refusal settles it for the side)."""
    state = _to_the_fold(Rules(resolve("pepper", {"fold-decision": "unanimous"})))
    state.apply("play")
    assert state.phase == "play" and state.current_player() == EAST


def test_conceded_is_in_the_state_only_where_a_side_may_concede():
    assert "conceded" not in new_game(Rules(resolve("bid-euchre")), dealer=0).observation()
    assert new_game(Rules(resolve("pepper")), dealer=0).observation()["conceded"] is None


def _problems(tmp_path: Path, edit: Callable[[dict], None]) -> list:
    return variant_problems(_table(edit, tmp_path))


def test_a_concession_with_no_row_to_score_it_is_refused(tmp_path):
    def edit(t: dict) -> None:
        t["scoring"]["rows"] = [r for r in t["scoring"]["rows"] if r["id"] != "folded"]
    found = [p for p in _problems(tmp_path, edit) if "concede" in p.message]
    assert found and found[0].path == "$.scoring.rows" and found[0].line, found


def test_a_concession_before_the_bidding_is_refused(tmp_path):
    def edit(t: dict) -> None:
        fold = t["hand"].pop(next(i for i, s in enumerate(t["hand"]) if s["id"] == "play-or-fold"))
        fold["to"] = {"seats": "everyone", "from": "eldest"}
        t["hand"].insert(0, fold)
    found = [p for p in _problems(tmp_path, edit) if "a concession needs a maker" in p.message]
    assert found and found[0].path == "$.hand[0].effect" and found[0].line, found


def test_decision_on_an_offer_to_one_seat_is_refused(tmp_path):
    def edit(t: dict) -> None:
        _step(t, "play-or-fold")["to"] = "maker-left"
    found = [p for p in _problems(tmp_path, edit) if "`decision` is for an offer to a queue" in p.message]
    assert found and found[0].path.endswith(".decision"), found


def test_stop_with_one_decision_for_the_side_is_refused(tmp_path):
    def edit(t: dict) -> None:
        _step(t, "play-or-fold")["stop"] = "never"
    found = [p for p in _problems(tmp_path, edit) if "`stop` is for seats deciding each for itself" in p.message]
    assert found and found[0].path.endswith(".stop"), found


def test_the_table_as_written_is_accepted(tmp_path):
    assert variant_problems(_table(None, tmp_path)) == []
    assert Rules(resolve_file(_table(None, tmp_path / "again"))).concessions
