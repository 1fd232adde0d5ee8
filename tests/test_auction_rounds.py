"""Auctions of a fixed number of rounds (issue 37, mechanism 5): ``rounds: N`` caps an auction
that goes round until passed.

A round is one turn for each seat still in the auction, in order from the auction's ``from``;
a seat that passed is out. The auction ends when all but the high bidder have passed or when
the N-th round ends; the high bid then wins, and with no bid the table's throw-in applies.
``turns: once`` is the case N = 1. Each test states what that rule says should happen, on
Pepper (option ``bidding-rounds: twice``) or on a table edited by hand from one in the repo.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from reference_impl.resolve import resolve, resolve_file
from reference_impl.rules import Rules
from reference_impl.state import State, new_game
from reference_impl.validate import variant_problems
from rules_site import words as W
from rules_site.notation import Notation

# North (0) deals; East (1) speaks first, then South (2), West (3), North (0).
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
TWICE = {"bidding-rounds": "twice"}


def _auction(options: dict | None = None, dealer: int = NORTH) -> State:
    state = new_game(Rules(resolve("pepper", options or {})), dealer=dealer)
    state.deal_random(random.Random(11))
    assert state.phase == "auction" and state.current_player() == (dealer + 1) % 4
    return state


def _say(state: State, *actions: str) -> None:
    for action in actions:
        assert action in state.legal_actions(), (action, state.legal_actions())
        state.apply(action)


def test_the_second_round_asks_only_the_seats_still_in():
    """Round 1: East 1, South passes, West 2, North passes. Round 2: South and North are out;
    East (not the high bidder) speaks, then West."""
    state = _auction(TWICE)
    _say(state, "bid:1", "pass", "bid:2", "pass")
    assert state.phase == "auction" and state.current_player() == EAST
    _say(state, "bid:3")
    assert state.phase == "auction" and state.current_player() == WEST
    _say(state, "bid:4")
    # West's bid ends round 2 at the last seat still in before the order comes round again:
    # East would speak a third time, so the auction is over and West holds the contract.
    assert state.phase == "name-trumps" and state.current_player() == WEST and state.maker == WEST


def test_the_last_round_ends_with_the_high_bid_winning():
    """Every seat raises in both rounds: after North's turn in round 2 the auction ends, and
    the high bidder (West, pepper) wins, though East has not passed."""
    state = _auction(TWICE)
    _say(state, "bid:1", "bid:2", "bid:3", "bid:4", "bid:5", "bid:6", "bid:pepper")
    assert state.phase == "auction" and state.current_player() == NORTH
    _say(state, "pass")
    assert state.phase != "auction" and state.maker == WEST
    assert state.rules.bids[state.bid].id == "pepper"


def test_all_but_the_high_bidder_passing_ends_it_early():
    """East bids 3 and the others pass in round 1: no second round."""
    state = _auction(TWICE)
    _say(state, "bid:3", "pass", "pass", "pass")
    assert state.phase == "name-trumps" and state.maker == EAST


def test_no_bid_falls_to_the_tables_throw_in():
    """All four pass: the auction is over after round 1 (a pass is final), and the throw-in
    step deals again, the deal passing to the left (East deals)."""
    state = _auction(TWICE)
    _say(state, "pass", "pass", "pass", "pass")
    assert state.hand_number == 1 or state.dealer == EAST
    assert state.dealer == EAST and state.maker < 0


def test_once_is_one_round():
    """Pepper's own `turns: once` and `turns: until-passed, rounds: 1` play the same games:
    every legal set and every outcome, over seeded random games."""
    once = Rules(resolve("pepper"))
    table = copy.deepcopy(resolve("pepper").table)
    step = next(s for s in table["hand"] if s["id"] == "bidding")
    step["turns"], step["rounds"] = "until-passed", 1
    one_round = Rules(_resolved(table))
    for seed in range(40):
        a, b = new_game(once, dealer=seed % 4), new_game(one_round, dealer=seed % 4)
        rng = random.Random(seed)
        a.deal_random(random.Random(seed))
        b.deal_random(random.Random(seed))
        for _ in range(200):
            if a.is_terminal() or a.hand_number > 0:
                break
            assert a.legal_actions() == b.legal_actions() and a.phase == b.phase
            action = rng.choice(a.legal_actions())
            a.apply(action)
            b.apply(action)
        assert a.scores == b.scores and a.dealer == b.dealer


def test_without_the_cap_the_bidding_goes_on():
    """The same bids as the last-round test, with no `rounds`: East, not passed, speaks again."""
    table = copy.deepcopy(resolve("pepper").table)
    next(s for s in table["hand"] if s["id"] == "bidding")["turns"] = "until-passed"
    state = new_game(Rules(_resolved(table)), dealer=NORTH)
    state.deal_random(random.Random(11))
    _say(state, "bid:1", "bid:2", "bid:3", "bid:4", "bid:5", "bid:6", "bid:pepper", "pass")
    assert state.phase == "auction" and state.current_player() == EAST


def test_a_stuck_seat_in_a_capped_auction():
    """The dealer stuck, every other seat passing in round 1: the dealer may not pass (a pass
    is final, so this can only come in round 1)."""
    table = copy.deepcopy(resolve("pepper", TWICE).table)
    next(s for s in table["hand"] if s["id"] == "bidding").update(stuck="dealer", **{"stuck-from": "2"})
    state = new_game(Rules(_resolved(table)), dealer=NORTH)
    state.deal_random(random.Random(11))
    _say(state, "pass", "pass", "pass")
    assert state.current_player() == NORTH and "pass" not in state.legal_actions()
    assert state.legal_actions()[0] == "bid:2"


def _resolved(table: dict) -> Any:
    """A table edited by hand, resolved from a file of its own (as an author's would be)."""
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="rounds-"))
    path = folder / "pepper.yaml"
    path.write_text(yaml.safe_dump(_clean(table), sort_keys=False, allow_unicode=True), encoding="utf-8")
    return resolve_file(path)


def _clean(table: dict) -> dict:
    table = copy.deepcopy(table)
    table.pop("selected", None)
    table.pop("options", None)
    return table


# -- validate -----------------------------------------------------------------------------------------
def _write(tmp_path: Path, edit: Callable[[dict], None]) -> Path:
    table = _clean(resolve("pepper").table)
    edit(table)
    path = tmp_path / "pepper.yaml"
    path.write_text(yaml.safe_dump(table, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _bidding(table: dict) -> dict[str, Any]:
    return next(s for s in table["hand"] if s["id"] == "bidding")


def _found(path: Path, text: str) -> list:
    """The problems whose message holds ``text``, each checked to stand at the `rounds` key."""
    found = [p for p in variant_problems(path) if text in p.message]
    assert found, variant_problems(path)
    line = next(n for n, row in enumerate(path.read_text().splitlines(), start=1) if "rounds:" in row)
    assert all(p.line == line and p.path.endswith("rounds") for p in found), (line, found)
    return found


@pytest.mark.parametrize("rounds", [0, -2])
def test_validate_refuses_fewer_than_one_round(tmp_path, rounds):
    _found(_write(tmp_path, lambda t: _bidding(t).update(turns="until-passed", rounds=rounds)), "minimum")


def test_validate_refuses_rounds_beside_turns_once(tmp_path):
    _found(_write(tmp_path, lambda t: _bidding(t).update(rounds=2)), "`turns: once` already plays one round")


def test_validate_refuses_rounds_on_another_kind_of_step(tmp_path):
    _found(_write(tmp_path, lambda t: next(s for s in t["hand"] if s["id"] == "play-or-fold").update(rounds=2)),
           "rounds")


def test_validate_accepts_the_option():
    assert not variant_problems(Path("spec/variants/pepper.yaml"))
    assert resolve("pepper", TWICE).table["hand"][0]["rounds"] == 2


# -- the players' words -------------------------------------------------------------------------------
def test_the_site_says_how_many_rounds():
    table = resolve("pepper", TWICE).table
    text = W.step_words(_bidding(table), table, Notation(table))
    assert "at most twice round" in text and "a player who passed is out" in text
    table = resolve("pepper").table
    assert "once each" in W.step_words(_bidding(table), table, Notation(table))


def test_the_site_says_a_pepper_partner_must_pass_his_card():
    table = resolve("pepper").table
    step = next(s for s in table["hand"] if s["id"] == "pepper-best-card")
    text = W.step_words(step, table, Notation(table))
    assert "must pass him one card" in text and "which he must take" in text and "may pass" not in text
    euchre = resolve("euchre", {"railroading": True}).table
    give = next(s for s in euchre["hand"] if s["kind"] == "give")
    assert "may pass one card" in W.step_words(give, euchre, Notation(euchre))
