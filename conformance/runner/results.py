"""What a run says of each case: its outcome, and where and how the engine disagreed.

The runner's results, streamed from the workers to the reports: the bottom of the runner,
imported by everything that reads a result (reports, the commands, the pytest plugin).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from conformance.cases import Case
from conformance.common.clip import clip_pair, clip_text

OUTCOMES = ("pass", "fail", "error", "crash", "timeout", "skipped", "unsupported", "expected-fail", "unexpected-pass")

FAILING = frozenset({"fail", "error", "crash", "timeout", "unexpected-pass"})



@dataclass
class Failure:
    """Where and how an engine disagreed with a case."""

    where: str
    message: str
    field: str | None = None
    expected: Any = None
    actual: Any = None
    hand: int | None = None
    step: int | None = None
    seat: int | None = None
    action: str | None = None
    clause: dict[str, Any] | None = None
    # the case's own clauses, kept as context beside the cited one (which the trace chose)
    case_clauses: list[str] | None = None
    # a bug of euchre-spec met while making this failure's report (tracing the rule broken):
    # said in the report and in the run's exit status, never swallowed
    internal_error: str | None = None

    def __post_init__(self) -> None:
        # Made after every comparison: what is kept of the engine's values is bounded.
        self.message = clip_text(self.message)
        self.expected, self.actual = clip_pair(self.expected, self.actual)
        if isinstance(self.action, str):
            self.action = clip_text(self.action, 200)
        if isinstance(self.field, str):
            self.field = clip_text(self.field, 200)

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}

    def describe(self) -> str:
        text = f"{self.where}: {self.message}"
        if self.field is not None:
            text += f"\n    field {self.field}: expected {_show(self.expected)}, engine said {_show(self.actual)}"
        if self.clause:
            source = self.clause.get("source_title") or self.clause.get("source")
            text += f"\n    rule {self.clause['id']} ({self.clause.get('title', '')}), source: {source}"
        others = [c for c in self.case_clauses or [] if not self.clause or c != self.clause.get("id")]
        if others:
            text += f"\n    the case is about: {', '.join(others)}"
        if self.internal_error:
            text += f"\n    INTERNAL ERROR of euchre-spec ({self.internal_error}): the rule cited may be wrong; please report it"
        return text



@dataclass
class CaseResult:
    case: Case
    outcome: str
    duration: float
    failure: Failure | None = None
    stderr: str | None = None
    engine_starts: int = 0
    detail: str | None = None
    left_processes: int = 0          # processes the engine left behind, found and killed during this case
    hit_case_timeout: bool = False   # the case was ended by its budget (--case-timeout)
    needs: list[str] | None = None   # unsupported: what hello should declare for the case to run

    def __post_init__(self) -> None:
        if self.detail:
            self.detail = clip_text(self.detail)

    @property
    def internal_error(self) -> str | None:
        """A bug of euchre-spec met while reporting this case (see :attr:`Failure.internal_error`)."""
        return self.failure.internal_error if self.failure is not None else None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": "case", "id": self.case.id, "file": _display_path(self.case.file), "variant": self.case.variant,
            "options": self.case.options, "table_sha256": self.case.table.sha256 if self.case.table else None,
            "clauses": self.case.clauses, "tags": self.case.tags, "outcome": self.outcome,
            "duration_ms": round(self.duration * 1000, 2),
        }
        if self.failure is not None:
            data["failure"] = self.failure.to_json()
        if self.detail:
            data["detail"] = self.detail
        if self.needs:
            data["needs"] = self.needs
        if self.stderr:
            data["stderr"] = self.stderr
        if self.hit_case_timeout:
            data["hit_case_timeout"] = True
        if self.left_processes:
            data["left_processes"] = self.left_processes
        return data



def _display_path(path: str) -> str:
    """A case file relative to the working directory when it lies below it (reports are shared)."""
    try:
        return os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
    except ValueError:
        return path



def _show(value: Any) -> str:
    if isinstance(value, (list, set, frozenset)) and all(isinstance(v, str) for v in value):
        return "[" + ", ".join(sorted(value)) + "]"
    return repr(value)
