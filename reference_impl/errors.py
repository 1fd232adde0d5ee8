"""Errors with enough context to act on.

Two families: :class:`SpecError` for broken data (a rule table or a case), which always
names the file, the line and the JSON path; and :class:`ActionError` for an action the
rules refuse, which carries a machine-readable category so that a conformance runner can
compare categories, never wording.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a data file, located as precisely as the file allows."""

    file: str
    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}"


class SpecError(Exception):
    """A rule table, option or case that cannot be used; holds every problem found."""

    def __init__(self, problems: list[Problem] | Problem | str):
        if isinstance(problems, str):
            problems = [Problem(file="<input>", path="$", message=problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = problems
        super().__init__("\n".join(str(p) for p in problems))


# Error categories shared with the engine protocol (docs/protocol.md).
ILLEGAL_ACTION = "illegal_action"
OUT_OF_TURN = "out_of_turn"
WRONG_PHASE = "wrong_phase"


class ActionError(Exception):
    """An action the rules refuse; the state it was offered to is left unchanged.

    ``category`` is, in order of precedence: ``wrong_phase`` (no one can act: a deal is
    awaited or the game is over), ``out_of_turn`` (a seat acting when it is not its turn)
    and ``illegal_action`` (anything the seat to act may not do now, including a token that
    is no action of the variant at all).
    """

    def __init__(self, category: str, message: str):
        self.category = category
        self.message = message
        super().__init__(f"{category}: {message}")
