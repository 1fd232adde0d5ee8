"""A finished run read back from its JSON Lines report (``check --json``): the header, the
case lines and the footer as a :class:`Run`, and the small readings every report command
shares (the clause a failure cites, what differed, the bug-tracker links of a known failure,
the rules the engine declared). ``report diff``, ``badge``, ``summary`` and ``history``
(:mod:`conformance.cli.report`) and the compliance page read runs through it.

A baseline (skip file) entry may carry a bug-tracker link in its reason
(``case-id  # https://github.com/owner/engine/issues/12``); ``check --skip`` copies the reason
into the report's ``expected-fail`` line, where :func:`links_of` finds it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.common.console import warn
from reference_impl.errors import Problem, SpecError

from conformance.reports.jsonl import read_jsonl
from conformance.runner.results import FAILING
from conformance.common.usage import UsageError

NOT_RUN = frozenset({"skipped", "unsupported"})
GOOD = frozenset({"pass", "expected-fail"})      # expected-fail: a known failure, listed in the baseline
URL = re.compile(r"https?://[^\s)>\]<\"'`\\|]+")


# -- reading ----------------------------------------------------------------------------------------
@dataclass
class Run:
    """One report: its header, its cases by id, its footer."""

    path: Path
    header: dict[str, Any]
    cases: dict[str, dict[str, Any]]
    footer: dict[str, Any] | None
    problems: list[str] = field(default_factory=list)

    @property
    def engine(self) -> dict[str, Any]:
        return self.header.get("engine") or {}

    @property
    def name(self) -> str:
        return str(self.engine.get("name") or self.path.stem)

    @property
    def version(self) -> str:
        return str(self.engine.get("version") or "?")

    def counts(self) -> Counter:
        return Counter(line.get("outcome", "?") for line in self.cases.values())

    def ran(self) -> int:
        counts = self.counts()
        return sum(counts.values()) - sum(counts[o] for o in NOT_RUN)

    def failing(self) -> list[dict[str, Any]]:
        return [line for line in self.cases.values() if line.get("outcome") in FAILING]


def read_run(path: str | Path) -> Run:
    """A report; a file that is not one is a usage error naming the file and its first problem."""
    path = Path(path)
    try:
        head, lines, foot, problems = read_jsonl(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the report {path}: {exc}") from None
    if not head:
        raise UsageError(f"{path} is not a report of euchre-spec check --json: {problems[0] if problems else 'empty'}")
    last = f"line {_line_count(path)}:"
    odd = [problem for problem in problems if not problem.startswith(last)]
    if odd:             # (a last line cut short is a run killed while writing: its footer says so)
        raise SpecError(Problem(str(path), "$", f"{len(odd)} line(s) are not report lines; the first: {odd[0]}"))
    if problems:
        warn(f"{path}: its last line is not a report line (a run cut short): {problems[0]}")
    return Run(path, head, {line.get("id", f"?{i}"): line for i, line in enumerate(lines)}, foot, problems)


def _line_count(path: Path) -> int:
    """The number of the file's last line (as read_jsonl numbers them)."""
    count, last = 0, b"\n"
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")


def clause_of(line: dict[str, Any]) -> str:
    """The rule clause a failing case's report line cites (the runner traces it), else its first clause."""
    failure = line.get("failure") or {}
    clause = (failure.get("clause") or {}).get("id")
    return clause or (line.get("clauses") or ["(no clause)"])[0]


def difference(line: dict[str, Any]) -> str:
    """A failing line's first difference, in one short line."""
    failure = line.get("failure") or {}
    where = failure.get("where") or ""
    expected, actual = failure.get("expected"), failure.get("actual")
    if failure.get("field") == "legal" and isinstance(expected, list) and isinstance(actual, list):
        missing, extra = sorted(set(expected) - set(actual)), sorted(set(actual) - set(expected))
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + ([f"extra {', '.join(extra)}"] if extra else [])
        return f"{where}: legal actions {'; '.join(parts) or 'in another order'}"
    if failure.get("field"):
        return f"{where}: {failure['field']} expected {_short(failure.get('expected'))}, got {_short(failure.get('actual'))}"
    return f"{where}: {failure.get('message') or line.get('detail') or line.get('outcome')}".strip(": ")


def _short(value: Any, limit: int = 60) -> str:
    text = str(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def links_of(line: dict[str, Any]) -> list[str]:
    """Bug-tracker links a report line carries (from its baseline entry's reason)."""
    return URL.findall(str(line.get("detail") or ""))


def declared_rules(run: Run) -> str:
    """What the engine declared in its hello: every table, or each variant with its options."""
    return declared_text(run.engine.get("variants"))


def declared_text(declared: Any, titles: dict[str, str] | None = None) -> str:
    """A hello's ``variants`` in words: each variant (by its title where given) with the
    option values declared (an option not listed is played at its default only)."""
    titles = titles or {}
    if declared == "*":
        return "every rule table (an interpreter)"
    if not isinstance(declared, dict) or not declared:
        return "nothing"
    parts = []
    for variant, spec in declared.items():
        options = (spec or {}).get("options") if isinstance(spec, dict) else None
        name = titles.get(variant, variant)
        if options == "*":
            parts.append(f"{name} (every option)")
        elif isinstance(options, dict) and options:
            shown = ", ".join(f"{k}={'/'.join(_value(v) for v in values)}" for k, values in options.items()
                              if isinstance(values, list))
            parts.append(f"{name} ({shown}; other options at their defaults)")
        else:
            parts.append(f"{name} (default options)")
    return "; ".join(parts)


def _value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# -- diff -------------------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# -- badge ------------------------------------------------------------------------------------------


# -- summary ----------------------------------------------------------------------------------------


# -- history ----------------------------------------------------------------------------------------


