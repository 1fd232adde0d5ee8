"""Mutation testing of the corpus: the reference engine with one seeded rule bug at a time.

Every mutant in :mod:`conformance.mutants` must make at least one case fail; a mutant that
passes the whole corpus is a rule bug the corpus cannot see. Each mutant runs the corpus
until its first unexpected failure (``--max-fail 1``): first one case for each rule clause
(a bug breaks a rule, so it usually fails there), then the rest. The verdict is the same as
running every case; only the time to the first failure is shorter.

A mutant is run on one engine, case after case in :func:`run_order`, so the case reported is
the first failure of that fixed order whatever the machine's speed. Mutants run side by side
in threads: forked worker processes were measured no faster (most of the cost is the cases
run and the engines' starts), and the runner's worker processes already hold that machinery.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from conformance.cases import Case
from conformance.mutants import mutant_bugs
from conformance.runner.results import FAILING, CaseResult
from conformance.runner.selection import case_cost, table_groups
from conformance.runner.session import Session


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

    def record(self) -> dict[str, Any]:
        """What the run came to, as plain JSON data: what tools/build_differential.py compares
        between two builds and tools/mutant_gate.py judges, from either build's records."""
        by = self.caught_by
        failure = by.failure if by is not None else None
        return {"status": self.status, "case": by.case.id if by else None,
                "outcome": by.outcome if by else None,
                "field": failure.field if failure else None,
                "clause": (failure.clause or {}).get("id") if failure else None,
                "internal_error": failure.internal_error if failure else None}


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


def run_order(cases: list[Case]) -> list[Case]:
    """The order a mutant runs the cases in: the clause cover, then the others, each part by
    rule table, the costliest table first (as a ``-j 1`` run takes a part)."""
    return [case for part in clause_cover(cases) for group in table_groups(part) for case in group]


def run_mutant(name: str, bug: str, cases: list[Case], timeout: float = 10.0,
               order: list[Case] | None = None) -> MutantResult:
    """Run the corpus on mutant ``name`` (a name, or the path of a mutant file of your own)
    until its first unexpected failure, in :func:`run_order` (``order``: that order of
    ``cases``, worked out once by a caller that runs many mutants).

    One engine serves the whole order (a crashed or hung one is restarted by the session), so
    a mutant that passes the clause cover costs no second engine start."""
    session = Session(mutant_command(name), timeout=timeout)
    try:
        for run, case in enumerate(order if order is not None else run_order(cases), 1):
            result = session.run(case)
            if result.outcome in FAILING:
                return MutantResult(name, bug, result, run)
    finally:
        session.close()
    return MutantResult(name, bug, None, len(cases))


def run_mutants(cases: list[Case], names: list[str] | None = None, jobs: int = 2) -> list[MutantResult]:
    """Run the chosen mutants (default: all), ``jobs`` at a time; the results in the order of
    the names."""
    catalogue = mutants()
    chosen = names or list(catalogue)
    unknown = [n for n in chosen if n not in catalogue]
    if unknown:
        raise ValueError(f"unknown mutant(s): {', '.join(unknown)}")
    order = run_order(cases)
    with ThreadPoolExecutor(max_workers=max(1, min(jobs, len(chosen)))) as pool:
        return list(pool.map(lambda n: run_mutant(n, catalogue[n], cases, order=order), chosen))
