"""Mutation testing of the corpus: the reference engine with one seeded rule bug at a time.

Every mutant in :mod:`conformance.mutants` must make at least one case fail; a mutant that
passes the whole corpus is a rule bug the corpus cannot see. Each mutant runs the corpus
until its first unexpected failure (``--max-fail 1``): first one case for each rule clause
(a bug breaks a rule, so it usually fails there), then the rest. The verdict is the same as
running every case; only the time to the first failure is shorter.

A mutant is run on one engine, case after case in :func:`run_order`, so the case reported is
the first failure of that fixed order whatever the machine's speed. Mutants run side by side
in forked worker processes (threads where there is no ``fork``): most of a run's CPU is the
runner's own checking, which threads under one interpreter lock would do one at a time.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass

from conformance.cases import Case
from conformance.mutants import mutant_bugs
from conformance.runner.containment import die_with_parent
from conformance.runner.engine_process import forget_inherited, kill_all
from conformance.runner.results import FAILING, CaseResult
from conformance.runner.selection import case_cost, table_groups
from conformance.runner.session import Session
from conformance.runner.workers import can_fork


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
    """Run the chosen mutants (default: all), ``jobs`` at a time, in forked worker processes
    where the platform has ``fork``; the results in the order of the names."""
    catalogue = mutants()
    chosen = names or list(catalogue)
    unknown = [n for n in chosen if n not in catalogue]
    if unknown:
        raise ValueError(f"unknown mutant(s): {', '.join(unknown)}")
    jobs = max(1, min(jobs, len(chosen)))
    order = run_order(cases)
    if jobs == 1 or not can_fork():
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(lambda n: run_mutant(n, catalogue[n], cases, order=order), chosen))
    global _WORKER_CASES
    _WORKER_CASES = (cases, order)   # inherited by the forked workers: never pickled
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"),
                               initializer=_worker_start)
    try:
        futures = [pool.submit(_run_in_worker, name, catalogue[name]) for name in chosen]
        found = [future.result() for future in futures]
    except BaseException:
        # Ctrl-C, or a worker lost: the mutants not started are dropped, and the workers
        # told to end now (SIGTERM: each ends its engine first) rather than waited for
        for worker in list(getattr(pool, "_processes", {}).values()):
            worker.terminate()
        pool.shutdown(wait=False)     # the pool then fails what was left as broken: nothing to cancel
        raise
    else:
        pool.shutdown()
    finally:
        _WORKER_CASES = None
    results = []
    for name, bug, index, result, run in found:
        if result is not None:
            result.case = cases[index]
        results.append(MutantResult(name, bug, result, run))
    return results


# -- in a forked worker ------------------------------------------------------------------------
_WORKER_CASES: tuple[list[Case], list[Case]] | None = None     # the corpus, and its run order


def _worker_start() -> None:
    """A worker ends its engine when told to stop (SIGTERM) or when its parent dies; the
    parent's engines, if any, are not its own."""
    def on_sigterm(signum: int, frame: object) -> None:
        kill_all()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, on_sigterm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the parent's to handle
    die_with_parent()
    forget_inherited()
    gc.freeze()                      # the inherited corpus is never collected: keep its pages shared


def _run_in_worker(name: str, bug: str) -> tuple[str, str, int | None, CaseResult | None, int]:
    """One mutant's run, sent back with its case as an index into the corpus (a case is
    large, and the parent holds it already)."""
    assert _WORKER_CASES is not None
    cases, order = _WORKER_CASES
    outcome = run_mutant(name, bug, cases, order=order)
    result, index = outcome.caught_by, None
    if result is not None:
        index = next(i for i, case in enumerate(cases) if case is result.case)
        result.case = None          # type: ignore[assignment]
    return name, bug, index, result, outcome.cases_run
