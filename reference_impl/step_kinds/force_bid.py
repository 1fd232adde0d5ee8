"""The step `force-bid`: where no one has bid, a seat is given the table's contract."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import FORCE_BID
from .common import win_contract

if TYPE_CHECKING:
    from ..state import State
    from ..steps import Step


KIND = FORCE_BID


def begin(state: State, step: Step) -> bool:
    if state.maker >= 0:
        return False
    seat = step.who(state)
    if seat < 0:
        return False
    state.forced = True
    win_contract(state, step.bid, seat)
    return state.trump >= 0          # trumps made: the steps went on from there


DECISIONS: dict = {}
