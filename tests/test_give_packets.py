"""A give of several cards, and a discard before the give (issue 37, mechanism 5).

`give-count` passes a packet of cards one `give:<card>` at a time, taken whole; `give-order:
discard-first` has the receiver lay away as many first and keep what he is given. Pepper's
option pepper-pass plays both. The expected values are Pepper's rules as its table states them.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Callable

import yaml

from reference_impl.resolve import resolve

from reference_impl.rules import Deal, Rules
from reference_impl.state import State, new_game
from reference_impl.validate import variant_problems

HANDS = ["9C TC QC 9D TD QD", "JS JC AS KS 9H TS", "KC AC KD AD QH KH", "QS TH 9S JD JH AH"]


def _table(edit: Callable[[dict], None], folder: Path) -> Path:
    table = copy.deepcopy(resolve("pepper").table)
    table.pop("selected", None)
    table.pop("options", None)
    edit(table)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "pepper.yaml"
    path.write_text(yaml.safe_dump(table, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _give(t: dict) -> dict:
    return next(step for step in t["hand"] if step["kind"] == "give")


def _pepper_named(option: str) -> State:
    rules = Rules(resolve("pepper", {"pepper-pass": option}))
    state = new_game(rules, dealer=0)
    state.deal(Deal(tuple(tuple(hand.split()) for hand in HANDS)))
    for action in ("bid:pepper", "pass", "pass", "pass", "name:S"):
        state.apply(action)
    return state


def test_a_packet_may_not_be_declined_or_refused(tmp_path):
    def edit(t: dict) -> None:
        _give(t).update({"give-count": 2, "giver-may-pass": True, "receiver-may-refuse": True})
    found = [p for p in variant_problems(_table(edit, tmp_path)) if "passed and taken whole" in p.message]
    assert sorted(p.path.rsplit(".", 1)[1] for p in found) == ["giver-may-pass", "receiver-may-refuse"], found
    assert all(p.line for p in found)


def test_a_packet_larger_than_a_hand_is_refused(tmp_path):
    found = [p for p in variant_problems(_table(lambda t: _give(t).update({"give-count": 7}), tmp_path))
             if "cannot pass 7" in p.message]
    assert found and found[0].path.endswith(".give-count"), found


def test_give_count_on_another_kind_of_step_is_refused(tmp_path):
    def edit(t: dict) -> None:
        next(step for step in t["hand"] if step["kind"] == "play")["give-count"] = 2
    found = [p for p in variant_problems(_table(edit, tmp_path)) if "does not read `give-count`" in p.message]
    assert found, found


def test_the_packet_is_seen_by_the_giver_and_the_receiver_only():
    """West (3) passes the QS and 9S to East (1): East and West see them passed and received;
    North (0) and South (2) see neither list (the cards go face down)."""
    state = _pepper_named("two")
    state.apply("give:QS")
    state.apply("give:9S")
    for viewer in (1, 3):
        seen = state.observation(viewer)
        assert seen["passed"][3] == ["QS", "9S"] and seen["received"][1] == ["QS", "9S"], (viewer, seen)
    for viewer in (0, 2):
        seen = state.observation(viewer)
        assert seen["passed"][3] is None and seen["received"][1] is None, (viewer, seen)


def test_discard_first_keeps_the_cards_given():
    """East discards 9H and TS first, then is given QS and 9S, and goes to the fold decision
    holding six spades (with the jick): no second discard."""
    state = _pepper_named("two-discard-first")
    assert state.phase == "discard" and state.current_player() == 1
    state.apply("discard:9H")
    state.apply("discard:TS")
    assert state.phase == "partners-best" and state.current_player() == 3
    state.apply("give:QS")
    state.apply("give:9S")
    assert state.phase == "play-or-fold"
    assert sorted(state.observation()["hands"][1]) == sorted(["JS", "JC", "AS", "KS", "QS", "9S"])
