"""The step `give`: the maker's partners pass him their best cards (one, or a packet), which he
may refuse, and he discards as many (the discard is :mod:`.discard`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import GIVE
from .common import AFTER_GIVE, AFTER_GIVE_FIRST, DISCARD_PHASE, M_DISCARD, M_GIVE, M_TAKE_BEST, TAKE_PHASE, wait
from .exchange import legal_take

if TYPE_CHECKING:
    from ..state import State
    from ..steps import Step


KIND = GIVE


def begin(state: State, step: Step) -> bool:
    if state.maker < 0:
        return False
    r = state.rules
    side = state.maker_side()
    state.givers = [(state.maker + k) % r.n for k in range(1, r.n) if (state.maker + k) % r.n in side]
    return next_giver(state)


def next_giver(state: State) -> bool:
    if not state.givers:
        return False
    step = state.step
    if step.discard_first and not state.gift_ready:      # the receiver lays away his cards first
        state.taken[state.maker] = 0
        state.discards = [[state.maker, step.give_count]]
        state.discard_limit, state.discard_free, state.resume = state.rules.full_mask, True, AFTER_GIVE_FIRST
        return wait(state, M_DISCARD, DISCARD_PHASE, state.maker)
    return wait(state, M_GIVE, step.phase, state.givers[0])


def legal(state: State) -> list[str]:
    cards = state.rules.give_tokens(state.hands[state.to_act])
    return (["pass"] + cards) if state.step.giver_may_pass else cards


def apply(state: State, action: str, arg: int) -> None:
    if state.step.give_count > 1 or state.step.discard_first:
        give_packet(state, arg)
        return
    state.givers.pop(0)
    if action == "pass":
        if not next_giver(state):
            state.next_step()
        return
    state.hands[state.to_act] &= ~(1 << arg)
    state.offered = arg
    if state.step.receiver_may_refuse:
        wait(state, M_TAKE_BEST, TAKE_PHASE, state.maker)
    else:
        take_best(state)


def give_packet(state: State, card: int) -> None:
    """One card of a packet of ``give-count`` (the giver may not pass, the receiver not
    refuse): the giver passes them one at a time; the receiver takes the packet whole, then
    discards as many (or has discarded first, with give-order: discard-first)."""
    step = state.step
    giver = state.to_act
    state.hands[giver] &= ~(1 << card)
    state.gift.append(card)
    if len(state.gift) < step.give_count:
        wait(state, M_GIVE, step.phase, giver)
        return
    state.givers.pop(0)
    for given in state.gift:
        state.hands[state.maker] |= 1 << given
    state.events.append(("take", state.maker, "partner", [state.rules.card_names[c] for c in state.gift]))
    state.gift = []
    if step.discard_first:
        state.gift_ready = False
        if not next_giver(state):
            state.next_step()
        return
    state.taken[state.maker] = 0      # free, as the partner's best: a rule on discarding taken cards binds the exchange only
    state.discards = [[state.maker, step.give_count]]
    state.discard_limit, state.discard_free, state.resume = state.rules.full_mask, True, AFTER_GIVE
    wait(state, M_DISCARD, DISCARD_PHASE, state.maker)


def take_best(state: State) -> None:
    state.hands[state.maker] |= 1 << state.offered
    state.taken[state.maker] = 0      # this discard is free: a rule on discarding taken cards binds the exchange only
    state.events.append(("take", state.maker, "partner", [state.rules.card_names[state.offered]]))
    state.discards = [[state.maker, 1]]
    state.discard_limit, state.discard_free, state.resume = state.rules.full_mask, True, AFTER_GIVE
    wait(state, M_DISCARD, DISCARD_PHASE, state.maker)


def apply_take_best(state: State, action: str, arg: int) -> None:
    if action == "take":
        take_best(state)
        return
    state.discarded.append(state.offered)
    if not next_giver(state):
        state.next_step()


DECISIONS = {M_GIVE: (legal, apply), M_TAKE_BEST: (legal_take, apply_take_best)}
