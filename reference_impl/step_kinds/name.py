"""The step `name`: a seat names a suit, as the upcard's suit (a benny turned), as trumps, or as
the suit whose best card partners the maker (a called partner)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import NAME, PARTNER, PROPOSAL, TRUMPS
from .common import M_NAME, make_trump, wait

if TYPE_CHECKING:
    from ..state import State
    from ..steps import Step


KIND = NAME


def begin(state: State, step: Step) -> bool:
    if step.effect == PARTNER and (state.maker < 0 or state.alone):
        return False
    seat = step.who(state)
    if seat < 0:
        return False
    return wait(state, M_NAME, step.phase, seat)


def legal(state: State) -> list[str]:
    return [state.rules.name_token[ctx] for ctx in state.step.names]


def apply(state: State, action: str, arg: int) -> None:
    r = state.rules
    effect = state.step.effect
    if effect == PROPOSAL:
        state.proposal = arg
        state.events.append(("benny-suit", r.suits[arg]))
    elif effect == TRUMPS:
        make_trump(state, arg, state.maker)
        return
    else:
        call_partner(state, arg)
    state.next_step()


def call_partner(state: State, suit: int) -> None:
    """The holder of the named suit's best card (its ace, or its top trump) partners the
    maker; he is known to the others only when he plays it."""
    r = state.rules
    members = [c for c in range(r.n_cards) if r.eff[state.trump][c] == suit]
    best = max(members, key=lambda c: r.power[state.trump][suit][c]) if members else -1
    state.called = best
    holder = next((s for s, hand in enumerate(state.hands) if best >= 0 and hand >> best & 1), -1)
    state.partner = holder if holder != state.maker else -1
    state.events.append(("call", state.maker, r.suits[suit], r.card_names[best] if best >= 0 else None))


DECISIONS = {M_NAME: (legal, apply)}
