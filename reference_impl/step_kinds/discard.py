"""The discard: a seat lays away the cards it owes, one at a time; the decision the exchange, the
give and an offer's swap all wait for, which goes back to the one that asked for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import AFTER_GIVE, AFTER_GIVE_FIRST, AFTER_SWAP, M_DISCARD, M_GIVE, wait
from .give import next_giver
from .offer import finish_swap

if TYPE_CHECKING:
    from ..state import State


def discardable(state: State) -> int:
    hand = state.hands[state.to_act] & state.discard_limit
    if not state.discard_free:
        hand &= ~state.taken[state.to_act]
    return hand


def legal(state: State) -> list[str]:
    return state.rules.discard_tokens(discardable(state))


def apply(state: State, action: str, arg: int) -> None:
    state.hands[state.to_act] &= ~(1 << arg)
    state.discarded.append(arg)
    entry = state.discards[0]
    entry[1] -= 1
    if entry[1] == 0:
        state.discards.pop(0)
    if state.discards:
        state.to_act = state.discards[0][0]
        return
    if state.resume == AFTER_SWAP:
        finish_swap(state)
    elif state.resume == AFTER_GIVE:
        if not next_giver(state):
            state.next_step()
    elif state.resume == AFTER_GIVE_FIRST:
        state.gift_ready = True
        wait(state, M_GIVE, state.step.phase, state.givers[0])
    else:
        state.next_step()


DECISIONS = {M_DISCARD: (legal, apply)}
