"""Corpus lint: the suite checks itself before it judges anyone.

Every case file is schema-valid with a unique id, known tags and existing clause anchors
(the loader checks these); every case replays on the reference engine through the same
runner a third-party engine meets; its ``requires:`` are what its script reaches (see
:mod:`conformance.corpus_tools.requirements`); and every clause anchor of every variant, option
clauses included, is cited by at least one case. A preset's clause that is its parent's,
word for word, is covered by the parent's cases.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reference_impl.catalog import load_variant_file, variant_ids, variant_path
from reference_impl.resolve import resolve

from conformance.cases import load_cases, load_corpus_meta
from conformance.runner.run import run_cases
from conformance.runner.engine_process import engine_command
from conformance.corpus_tools.requirements import requirements_of, stale
from conformance.runner.declared import stored


@dataclass
class LintReport:
    cases: int = 0
    problems: list[str] = field(default_factory=list)
    coverage: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    inherited: dict[tuple[str, str], str] = field(default_factory=dict)   # covered by the parent's cases

    def uncovered(self) -> list[tuple[str, str]]:
        return [key for key, ids in self.coverage.items() if not ids and key not in self.inherited]


def all_clauses(variant: str) -> dict[str, dict]:
    """Every clause of a variant by id: its base clauses and those of every option value."""
    table = resolve(variant).table
    clauses = {c["id"]: c for c in table.get("clauses", [])}
    for option in table.get("options", {}).values():
        for choice in option.get("choices", []) + ([option["range"]] if "range" in option else []):
            for clause in choice.get("clauses", []):
                clauses.setdefault(clause["id"], {k: v for k, v in clause.items() if k != "replaces"})
    return clauses


def all_anchors(variant: str) -> list[str]:
    return list(all_clauses(variant))


def parent_of(variant: str) -> str | None:
    return load_variant_file(variant_path(variant)).data.get("extends")


def inherited_unchanged(variant: str, anchor: str) -> str | None:
    """The ancestor whose identical clause this is (a preset inherits its parent's rules and
    their cases), or None where the variant states the clause itself."""
    parent = parent_of(variant)
    if parent is None:
        return None
    mine, theirs = all_clauses(variant).get(anchor), all_clauses(parent).get(anchor)
    if theirs is None or {k: v for k, v in mine.items() if k != "replaces"} != theirs:
        return None
    return inherited_unchanged(parent, anchor) or parent


def citations(cases: list) -> dict[tuple[str, str], set[str]]:
    """The cases citing each clause, by (variant, clause), from their `clauses` and steps."""
    cited: dict[tuple[str, str], set[str]] = {}
    for case in cases:
        for clause in set(case.clauses) | {s["clause"] for h in case.hands for s in h["steps"] if "clause" in s}:
            cited.setdefault((case.variant, clause), set()).add(case.id)
    return cited


def lint(jobs: int = 2, paths: list[Path] | None = None, variants: list[str] | None = None) -> LintReport:
    """Lint the built-in corpus, or the case files under ``paths`` (a variant author's own
    cases: their coverage is weighed for ``variants``, else for the variants they use)."""
    report = LintReport()
    meta = load_corpus_meta()
    cases, problems = load_cases(paths, tags=meta.tags)
    report.cases = len(cases)
    report.problems += [str(p) for p in problems]
    weighed = variants or (sorted({case.variant for case in cases}) if paths else variant_ids())
    for variant in weighed:
        for anchor in all_anchors(variant):
            report.coverage[(variant, anchor)] = set()
    for (variant, clause), ids in citations(cases).items():
        if variant in weighed:
            report.coverage.setdefault((variant, clause), set()).update(ids)
    # A child of a built-in table inherits its parent's cases: with cases of one's own, the
    # built-in corpus is read (not replayed) for the clauses a child keeps word for word.
    elsewhere = citations(load_cases(tags=meta.tags)[0]) if paths else {}
    for (variant, anchor), ids in list(report.coverage.items()):
        if not ids:
            ancestor = inherited_unchanged(variant, anchor)
            if ancestor and (report.coverage.get((ancestor, anchor)) or elsewhere.get((ancestor, anchor))):
                report.inherited[(variant, anchor)] = ancestor
    computed = requirements_of(cases, jobs)
    for case in cases:
        if stored(case) is None and paths:
            continue                  # a case of one's own may leave its requirements to the runner
        why = stale(case, computed[case.id])
        if why:
            report.problems.append(f"{case.file}: case {case.id} {why}")
    for result in run_cases(cases, engine_command("reference"), jobs=jobs):
        if result.outcome != "pass":
            where = result.failure.describe() if result.failure else (result.detail or "")
            report.problems.append(f"{result.case.file}: case {result.case.id} does not replay on the reference engine: "
                                   f"{result.outcome}: {where}")
    return report
