"""Corpus lint: the suite checks itself before it judges anyone.

Every case file is schema-valid with a unique id, known tags and existing clause anchors
(the loader checks these); every case replays on the reference engine through the same
runner a third-party engine meets; and every clause anchor of every variant, option
clauses included, is cited by at least one case.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reference_impl.catalog import variant_ids
from reference_impl.resolve import resolve

from .cases import load_cases, load_corpus_meta
from .check import run_cases
from .engine_process import engine_command


@dataclass
class LintReport:
    cases: int = 0
    problems: list[str] = field(default_factory=list)
    coverage: dict[tuple[str, str], set[str]] = field(default_factory=dict)


def all_anchors(variant: str) -> list[str]:
    """Every clause id of a variant: its base clauses and those of every option value."""
    table = resolve(variant).table
    anchors = [c["id"] for c in table.get("clauses", [])]
    for option in table.get("options", {}).values():
        for choice in option["choices"]:
            anchors += [c["id"] for c in choice.get("clauses", []) if c["id"] not in anchors]
    return anchors


def lint(jobs: int = 2) -> LintReport:
    report = LintReport()
    meta = load_corpus_meta()
    cases, problems = load_cases(tags=meta.tags)
    report.cases = len(cases)
    report.problems += [str(p) for p in problems]
    for variant in variant_ids():
        for anchor in all_anchors(variant):
            report.coverage[(variant, anchor)] = set()
    for case in cases:
        cited = set(case.clauses) | {s["clause"] for h in case.hands for s in h["steps"] if "clause" in s}
        for clause in cited:
            report.coverage.setdefault((case.variant, clause), set()).add(case.id)
    for result in run_cases(cases, engine_command("reference"), jobs=jobs):
        if result.outcome != "pass":
            where = result.failure.describe() if result.failure else (result.detail or "")
            report.problems.append(f"{result.case.file}: case {result.case.id} does not replay on the reference engine: "
                                   f"{result.outcome}: {where}")
    return report
