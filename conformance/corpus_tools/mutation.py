"""Mutation testing of the corpus: the reference engine with one seeded rule bug at a time.

Every mutant in :mod:`conformance.mutants` must make at least one case fail; a mutant that
passes the whole corpus is a rule bug the corpus cannot see. Each mutant runs the corpus
until its first unexpected failure (``--max-fail 1``): first one case for each rule clause
(a bug breaks a rule, so it usually fails there), then the rest. The verdict is the same as
running every case; only the time to the first failure is shorter.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from conformance.cases import Case
from conformance.runner.selection import case_cost
from conformance.runner.run import run_cases
from conformance.mutants import mutant_bugs
from conformance.runner.results import FAILING, CaseResult


@dataclass
class MutantResult:
    name: str
    bug: str
    caught_by: CaseResult | None
    cases_run: int

    @property
    def status(self) -> str:
        """``caught`` (a case failed on a rule), ``broken`` (the mutant crashed, hung or
        answered garbage: it proves nothing) or ``survived``."""
        if self.caught_by is None:
            return "survived"
        return "caught" if self.caught_by.outcome == "fail" else "broken"

    @property
    def caught(self) -> bool:
        return self.status == "caught"


def mutants() -> dict[str, str]:
    """Mutant name -> the bug it seeds (its docstring's first sentence)."""
    return mutant_bugs()


def mutant_command(name: str) -> list[str]:
    """The command line that serves mutant ``name`` over the protocol."""
    return [sys.executable, "-m", "conformance.mutants", name]


def clause_cover(cases: list[Case]) -> tuple[list[Case], list[Case]]:
    """The cases split in two: a few that between them cite every clause of every variant
    (the cheapest case of each clause not yet cited), and all the others."""
    cited: set[tuple[str, str]] = set()
    cover: list[Case] = []
    for case in sorted(cases, key=lambda case: (case_cost(case), case.id)):
        new = {(case.variant, clause) for clause in case.clauses} - cited
        if new:
            cover.append(case)
            cited |= new
    chosen = {id(case) for case in cover}
    return cover, [case for case in cases if id(case) not in chosen]


def run_mutant(name: str, bug: str, cases: list[Case], timeout: float = 10.0) -> MutantResult:
    """Run the corpus on mutant ``name`` (a name, or the path of a mutant file of your own)
    until its first unexpected failure: the clause cover first, then the other cases."""
    argv = mutant_command(name)
    first = None
    run = 0
    for part in clause_cover(cases):
        for result in run_cases(part, argv, jobs=1, timeout=timeout, max_fail=1):
            if result.outcome == "skipped" and result.detail and "max-fail" in result.detail:
                continue
            run += 1
            if result.outcome in FAILING and first is None:
                first = result
        if first is not None:
            break
    return MutantResult(name, bug, first, run)


def run_mutants(cases: list[Case], names: list[str] | None = None, jobs: int = 2) -> list[MutantResult]:
    """Run the chosen mutants (default: all), ``jobs`` at a time."""
    catalogue = mutants()
    chosen = names or list(catalogue)
    unknown = [n for n in chosen if n not in catalogue]
    if unknown:
        raise ValueError(f"unknown mutant(s): {', '.join(unknown)}")
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda n: run_mutant(n, catalogue[n], cases), chosen))
