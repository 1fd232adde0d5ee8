"""The step `make-trumps`: a round of the upcard bidding, each seat in turn ordering the upcard's
suit (or calling a suit, or no-trump) or passing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import MAKE_TRUMPS
from .common import M_MAKE, make_trump, seats_from, wait

if TYPE_CHECKING:
    from ..state import State
    from ..steps import Step


KIND = MAKE_TRUMPS


def begin(state: State, step: Step) -> bool:
    if step.order and state.proposal < 0:
        return False
    state.queue = seats_from(state, step.start(state))
    return wait(state, M_MAKE, step.phase, state.queue[0])


def legal(state: State) -> list[str]:
    step, r = state.step, state.rules
    stuck = step.stuck(state) == state.to_act
    if step.order:
        return ["order"] if stuck else ["pass", "order"]
    legal = [] if stuck else ["pass"]
    for suit, token in enumerate(r.call_token[:r.NT]):
        if suit != state.turned_down or step.turned_down_allowed:
            legal.append(token)
    if step.no_trump:
        legal.append(r.call_token[r.NT])
    if step.low_no_trump:
        legal.append(r.call_token[r.NL])
    return legal


def apply(state: State, action: str, arg: int) -> None:
    step = state.step
    if action != "pass":
        state.round = step.number
        state.forced = step.stuck(state) == state.to_act      # the stuck seat had no pass: its trumps are forced
        make_trump(state, state.proposal if action == "order" else arg, state.to_act)
        return
    state.queue.pop(0)
    if state.queue:
        state.to_act = state.queue[0]
        return
    if step.order:
        state.turned_down = state.proposal
    state.next_step()


DECISIONS = {M_MAKE: (legal, apply)}
