"""The step `throw-in`: where no one has made trumps, the hand is thrown in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import THROW_IN
from .hand_end import throw_in

if TYPE_CHECKING:
    from ..state import State
    from ..steps import Step


KIND = THROW_IN


def begin(state: State, step: Step) -> bool:
    if state.maker >= 0:
        return False
    throw_in(state, same_dealer=step.same_dealer)
    return True


DECISIONS: dict = {}
