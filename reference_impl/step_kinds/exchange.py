"""The step `exchange`: seats take the upcard or the widow (some may decline), then discard as
many cards (the discard is :mod:`.discard`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import EXCHANGE
from .common import AFTER_EXCHANGE, DISCARD_PHASE, M_DISCARD, M_TAKE_OFFER, TAKE_OFFER, wait

if TYPE_CHECKING:
    from ..state import State
    from ..steps import Step


KIND = EXCHANGE


def begin(state: State, step: Step) -> bool:
    # A take whose seat is not there (the maker's, where trumps were set with no maker) is
    # passed over; the others are offered as written (the dealer takes the upcard after
    # `set-trumps` as after a bidding round). The semantic checks refuse a take that can
    # never find its seat.
    state.discards = []
    state.discard_limit, state.discard_free, state.resume = state.rules.full_mask, step.may_discard_taken, AFTER_EXCHANGE
    pending = []
    for take in step.takes:
        seat = take.who(state)
        if seat >= 0 and take.when(state, -1, -1) and (step.sitting_out_takes or state.active >> seat & 1):
            pending.append(take)
    state.pending = pending
    return continue_exchange(state)


def continue_exchange(state: State) -> bool:
    while state.pending:
        take = state.pending[0]
        if not available(state, take):
            state.pending.pop(0)
            continue
        if take.optional:
            return wait(state, M_TAKE_OFFER, TAKE_OFFER, take.who(state))
        state.pending.pop(0)
        take_cards(state, take)
    if not state.discards:
        return False
    return wait(state, M_DISCARD, DISCARD_PHASE, state.discards[0][0])


def available(state: State, take) -> bool:
    if take.source == "upcard":
        return state.upcard >= 0 and not state.upcard_taken
    return bool(state.widow)


def take_cards(state: State, take) -> None:
    seat = take.who(state)
    if take.source == "upcard":
        cards = 1 << state.upcard
        state.upcard_taken = True
    else:
        cards, state.widow = state.widow, 0
    state.hands[seat] |= cards
    state.taken[seat] |= cards
    state.events.append(("take", seat, take.source, state.rules.cards_of(cards)))
    count = bin(cards).count("1")
    for entry in state.discards:
        if entry[0] == seat:
            entry[1] += count
            return
    state.discards.append([seat, count])


def legal_take(state: State) -> list[str]:
    return ["pass", "take"]


def apply_take_offer(state: State, action: str, arg: int) -> None:
    take = state.pending.pop(0)
    if action == "take":
        take_cards(state, take)
    else:
        state.events.append(("decline", state.to_act, take.source))
    if not continue_exchange(state):
        state.next_step()


DECISIONS = {M_TAKE_OFFER: (legal_take, apply_take_offer)}
