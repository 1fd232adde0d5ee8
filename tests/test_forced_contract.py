"""The condition atom ``forced-contract`` (issue 37): a contract is forced when a seat made it
without the right to pass (an auction's or a make-trumps step's ``stuck`` seat, every other
seat having passed) or a ``force-bid`` step made it for him. Each test plays the bidding of one
hand and reads the atom as a scoring row would; the expected truth comes from the rules, not
from the interpreter."""

from __future__ import annotations

import random

from reference_impl import load_rules, new_game
from reference_impl.conditions import compile_condition

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
FORCED = {"forced-contract": True}


def _bidding(variant: str, actions: list[str], options: dict | None = None, seed: int = 1):
    rules = load_rules(variant, options or {})
    state = new_game(rules, dealer=WEST)
    state.deal_random(random.Random(seed))
    for action in actions:
        assert action in state.legal_actions(), (action, state.legal_actions())
        state.apply(action)
    return rules, state


def _forced(rules, state) -> bool:
    return compile_condition(rules, FORCED)(state, -1, -1)


def test_a_dealer_stuck_in_an_auction_makes_a_forced_contract():
    rules, state = _bidding("double-hasenpfeffer", ["pass", "pass", "pass"])
    assert "pass" not in state.legal_actions() and state.current_player() == WEST
    assert not _forced(rules, state)                        # no contract yet: not forced
    state.apply("bid:4")
    assert state.maker == WEST and _forced(rules, state)


def test_a_dealer_who_overbids_freely_is_not_forced():
    rules, state = _bidding("double-hasenpfeffer", ["bid:3", "pass", "pass"])
    assert "pass" in state.legal_actions()
    state.apply("bid:4")
    assert state.maker == WEST and not _forced(rules, state)


def test_a_force_bid_step_makes_a_forced_contract():
    for seed in range(1, 40):                                 # a deal where the joker is in a hand
        rules, state = _bidding("hasenpfeffer", ["pass"] * 4, seed=seed)
        if state.maker >= 0:
            assert state.hands[state.maker] >> rules.card_index["JK"] & 1
            assert _forced(rules, state)
            break
    else:
        raise AssertionError("no deal with the joker in a hand")
    rules, state = _bidding("hasenpfeffer", ["bid:2", "pass", "pass", "pass"])
    assert state.maker == NORTH and not _forced(rules, state)


def test_a_stuck_dealer_in_make_trumps_is_forced_and_an_eldest_caller_is_not():
    stick = {"stick-the-dealer": True}
    rules, state = _bidding("euchre", ["pass"] * 4 + ["pass"] * 3, options=stick)
    assert state.current_player() == WEST and "pass" not in state.legal_actions()
    state.apply(next(a for a in state.legal_actions() if a.startswith("call:")))
    assert state.maker == WEST and _forced(rules, state)
    rules, state = _bidding("euchre", ["pass"] * 4, options=stick)
    state.apply(next(a for a in state.legal_actions() if a.startswith("call:")))
    assert state.maker == NORTH and not _forced(rules, state)
