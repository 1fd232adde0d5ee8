"""The fuzzer's random games, played on the reference alone: one loop for every user.

The differential loop (:mod:`.loop`) plays its games in lockstep with an engine, but how a
game is chosen is the :class:`~.policy.Policy`'s: a setup (first dealer, scores near the
target), a deal per hand (now and then one that starts unusually), a mood per hand and a
move per step (:func:`~.policy.choose`). Everything that plays random hands on the
reference without an engine (the rest of a hand the engine left, ``fuzz --views``'s worlds,
``tools/measure_view_leaks.py``) plays them here, so each reaches the same rare corners
(an open misère, a stuck dealer, a lone defence) that the fuzzer does, and a change to how
the fuzzer chooses reaches all of them.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

from reference_impl import Deal, new_game
from reference_impl.rules import Rules
from reference_impl.state import State

from .policy import Mood, Policy, choose

HANDS_PER_GAME = 30          # a game still running after this many hands is left, the next one started


def play_hand(state: State, rng: random.Random, mood: Mood) -> Iterator[tuple[int, str]]:
    """Play the hand dealt in ``state`` out with the fuzzer's moves, yielding each
    ``(seat, action)`` once it is applied (so the caller sees every state of the hand)."""
    seat = state.current_player()
    while seat is not None:
        action = choose(rng, state.legal_actions(), state.phase, mood)
        state.apply(action, seat)
        yield seat, action
        seat = state.current_player()


def start_game(rules: Rules, setup: dict[str, Any]) -> State:
    """The reference's game for a setup as :meth:`Policy.setup` gives it (new_game's fields)."""
    scores = setup.get("scores")
    if "first_dealer" in setup:
        first = setup["first_dealer"]
        return new_game(rules, first_dealer_cards=first["cards"], start_seat=first.get("start", 0), scores=scores)
    return new_game(rules, setup["dealer"], scores=scores)


def random_hand(policy: Policy, rng: random.Random, dealer: int) -> tuple[Deal, list[tuple[int, str]]]:
    """One hand on a new game with ``dealer``: its deal, and the actions played."""
    deal = policy.deal_cards(rng, dealer)
    state = new_game(policy.rules, dealer)
    state.deal(deal)
    return deal, list(play_hand(state, rng, policy.mood(rng)))


def random_game(policy: Policy, rng: random.Random, hands: int = HANDS_PER_GAME) -> Iterator[State]:
    """One game as the fuzzer plays it, on the reference: the state after each deal and
    after each action (the same object, changed in place), until the game is over or
    ``hands`` hands are played."""
    state = start_game(policy.rules, policy.setup(rng, set()))
    for _ in range(hands):
        if state.is_terminal():
            return
        state.deal(policy.deal_cards(rng, state.dealer))
        yield state
        for _step in play_hand(state, rng, policy.mood(rng)):
            yield state
