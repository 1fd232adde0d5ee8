"""Differences between two runs (``report diff``): regressed, fixed, new, failing differently, by clause."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable

from conformance.common.shown import md_code, md_inline
from conformance.reports.runs import NOT_RUN
from conformance.reports.runs import Run, clause_of, difference
from conformance.runner.results import FAILING


@dataclass
class Change:
    case: str
    before: str | None          # outcome in OLD (None: not in OLD)
    after: str | None           # outcome in NEW (None: not in NEW)
    clause: str                 # the clause of the failing side (NEW's if it fails, else OLD's)
    words: str



@dataclass
class Diff:
    regressed: list[Change]
    fixed: list[Change]
    new: list[Change]
    removed: list[Change]
    changed: list[Change]       # failing in both, at another rule or difference

    def new_failing(self) -> list[Change]:
        return [c for c in self.new if c.after in FAILING]

    def failed_ci(self) -> bool:
        return bool(self.regressed or self.new_failing())



def diff_runs(old: Run, new: Run) -> Diff:
    """Case by case: regressed (passed or known, now failing), fixed (failing, now passing or
    known), new and removed cases, and failures that moved to another rule or difference.
    Cases not run on one side (unsupported, skipped) count as absent there."""
    def ran(run: Run) -> dict[str, dict[str, Any]]:
        return {k: v for k, v in run.cases.items() if v.get("outcome") not in NOT_RUN}
    before, after = ran(old), ran(new)
    out = Diff([], [], [], [], [])
    for case in sorted(set(before) | set(after)):
        b, a = before.get(case), after.get(case)
        if b is None:
            out.new.append(Change(case, None, a["outcome"], clause_of(a) if a["outcome"] in FAILING else "",
                                  difference(a) if a["outcome"] in FAILING else a["outcome"]))
        elif a is None:
            out.removed.append(Change(case, b["outcome"], None, "", "not run any more"))
        elif b["outcome"] not in FAILING and a["outcome"] in FAILING:
            out.regressed.append(Change(case, b["outcome"], a["outcome"], clause_of(a), difference(a)))
        elif b["outcome"] in FAILING and a["outcome"] not in FAILING:
            out.fixed.append(Change(case, b["outcome"], a["outcome"], clause_of(b), difference(b)))
        elif b["outcome"] in FAILING and a["outcome"] in FAILING:
            if (clause_of(b), difference(b)) != (clause_of(a), difference(a)):
                out.changed.append(Change(case, b["outcome"], a["outcome"], clause_of(a),
                                          f"{difference(b)} → {difference(a)}"))
    return out



def by_clause(changes: Iterable[Change]) -> list[tuple[str, list[Change]]]:
    groups: dict[str, list[Change]] = defaultdict(list)
    for change in changes:
        groups[change.clause or "(none)"].append(change)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))



def diff_markdown(old: Run, new: Run, result: Diff) -> str:
    lines = [f"## {md_inline(new.name)}: {md_inline(old.version)} → {md_inline(new.version)}", "",
             f"{len(result.regressed)} regressed, {len(result.fixed)} fixed, {len(result.new)} new "
             f"({len(result.new_failing())} failing), {len(result.removed)} no longer run, "
             f"{len(result.changed)} failing differently.", ""]
    for title, changes in (("Regressed", result.regressed), ("Fixed", result.fixed), ("New, failing", result.new_failing()),
                           ("Failing differently", result.changed)):
        if not changes:
            continue
        lines += [f"### {title}", "", "| rule | case | outcome | first difference |", "|---|---|---|---|"]
        for clause, members in by_clause(changes):
            for change in members:
                outcome = f"{change.before or '—'} → {change.after or '—'}"
                lines.append(f"| {md_code(clause)} | {md_code(change.case)} | {md_inline(outcome)} | {md_inline(change.words)} |")
        lines.append("")
    new_passing = [c for c in result.new if c.after not in FAILING]
    if new_passing:
        lines += [f"New, passing: {len(new_passing)} case(s).", ""]
    return "\n".join(lines)
