"""The step `set-trumps`: trumps are fixed with no maker (a suit, or the upcard's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import SET_TRUMPS

if TYPE_CHECKING:
    from ..state import State
    from ..steps import Step


KIND = SET_TRUMPS


def begin(state: State, step: Step) -> bool:
    trumps = step.trumps if step.trumps >= 0 else state.rules.printed_suit[state.upcard]   # the upcard's suit
    state.trump, state.maker = trumps, -1
    state.events.append(("no-contract", state.rules.strain_names[trumps]))
    return False


DECISIONS: dict = {}
