"""A divergence: the first request of a game on which the engine and the reference disagree.

It keeps the game up to that request (a script), the replies and the fields that differ.
Whether a case can state it matters: the case format names the observable fields a case
may expect (not every field an engine reports, such as a hand's scoring row), so a
divergence on such a field alone shows the game but cannot fail a check; the fuzzer keeps
looking for one it can state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reference_impl.catalog import load_schema

from conformance.runner.compare import Difference
from .script import Position, Script

EXPECTABLE = frozenset(load_schema("case.schema.json")["$defs"]["expectation"]["properties"])
VERDICT_FIELDS = frozenset({"ok", "error.category", "transport"})


@dataclass
class Divergence:
    """The first request of a game on which the engine and the reference disagree."""

    script: Script                       # the game up to and including that request
    position: Position
    differences: list[Difference]
    signature: tuple
    phase: str                           # the reference's phase before the request
    expected: dict[str, Any]             # the reference's reply
    actual: dict[str, Any]               # the engine's reply
    clause: str
    game: int | None = None
    count: int = 1                       # games that met this kind of divergence (when collecting)

    @property
    def kind(self) -> tuple:
        """What groups divergences in a report: the rule clause cited, the phase and the
        fields that differ (for a legal set, the kinds of move missing or extra). The phase of
        a wrong legal set is the one it is offered in (after the request): one wrong legal set
        is one kind whether it is seen after a deal, a move, or in a seat's view."""
        phase = self.phase
        state = self.expected.get("state")
        if isinstance(state, dict) and all(d.field == "legal" for d in self.differences):
            phase = str(state.get("phase", phase))
        return (self.clause, phase, *self.signature[2:])

    @property
    def steps(self) -> int:
        return self.script.steps

    @property
    def hands(self) -> int:
        return len(self.script.hands)

    def summary(self) -> str:
        fields = ", ".join(d.field for d in self.differences)
        return f"{self.position.describe()} (phase {self.phase}): {fields} differ"

    @property
    def statable(self) -> bool:
        """Whether a case can show it: some differing field can be stated, or the engine
        refuses, accepts or fails where the reference does not."""
        expect, _ = expectation(self)
        return bool(expect) or any(d.field in VERDICT_FIELDS for d in self.differences)


def expectation(divergence: Divergence) -> tuple[dict[str, Any], list[str]]:
    """The fields to expect at the diverging request (the reference's values), and the
    fields that differ but that no case can state."""
    state = divergence.expected.get("state") or {}
    expect: dict[str, Any] = {}
    unstated = []
    for difference in divergence.differences:
        name = difference.field
        if name in EXPECTABLE and name in state:
            expect[name] = state[name]
        elif name == "tricks" and _trick_winner(divergence, difference) is not None:
            expect["trick_winner"] = _trick_winner(divergence, difference)
        elif name not in ("ok", "error.category", "transport", "reply"):
            unstated.append(name)
    return expect, unstated


def _trick_winner(divergence: Divergence, difference: Difference) -> int | None:
    """The winner of the trick this step completed, when that is what differs (a play that
    leaves no trick in progress completed one)."""
    if divergence.phase != "play" or divergence.position.kind != "act":
        return None
    expected, actual = difference.expected, difference.actual
    if not isinstance(expected, list) or not expected or not isinstance(expected[-1], dict) \
            or expected[-1].get("winner") is None:
        return None
    if not isinstance(actual, list):
        return None
    done = [t for t in expected if isinstance(t, dict) and t.get("winner") is not None]
    theirs = [t for t in actual if isinstance(t, dict) and t.get("winner") is not None]
    if done and (len(theirs) < len(done) or theirs[len(done) - 1].get("winner") != done[-1]["winner"]):
        return done[-1]["winner"]
    return None
