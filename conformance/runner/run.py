"""A whole conformance run as one stream: the chosen cases in, their results out, once each.

``select`` (:mod:`conformance.runner.selection`) → :class:`CaseRun` (threads or forked worker
processes, each driving one engine) → a stream of :class:`~conformance.runner.results.CaseResult`
→ whoever reads it (the reports subscribed to it by the ``check`` command, lint, the mutants,
the pytest plugin). Data flows down once: the run never calls its reader back; what the reader
needs beside the results (the engine's hello, why the run stopped early) it reads from the
:class:`CaseRun`'s attributes as the results come. A skip file turns the failures it lists into
``expected-fail`` and flags the ones that now pass as ``unexpected-pass``.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from conformance.cases import Case
from conformance.runner.declared import unsupported_needs
from conformance.runner.engine_process import START_TIMEOUT
from conformance.runner.results import CaseResult
from conformance.runner.selection import table_groups
from conformance.runner.session import Session
from conformance.runner.skip_list import SkipList, apply_skip_list
from conformance.runner.stop_rules import GIVE_UP_AFTER, StopRules
from conformance.runner.threads import run_in_threads
from conformance.runner.workers import can_fork, run_in_processes


class CaseRun:
    """Run ``cases`` on ``jobs`` engines; iterating it yields each result as it is known.

    With more than one engine, each is driven by its own forked worker process (see
    :mod:`conformance.runner.workers`): checking replies is most of the runner's work, and
    threads would do it one at a time. Without ``fork`` (Windows), threads drive them
    (:mod:`conformance.runner.threads`). Once :class:`~conformance.runner.stop_rules.StopRules`
    stops the run, no new case is started; cases not run are yielded as ``skipped`` so that
    the report still accounts for every case, and the reason for stopping is in :attr:`stopped`.
    :attr:`hello` is the first engine's hello, set before the first result that follows it.
    """

    def __init__(self, cases: list[Case], argv: list[str], jobs: int = 1, timeout: float = 10.0,
                 case_timeout: float = 60.0, skips: SkipList | None = None, max_fail: int | None = None,
                 strict_replies: bool = False, give_up_after: int | None = GIVE_UP_AFTER,
                 stopped: list[str] | None = None, corpus_version: str | None = None,
                 start_timeout: float | None = None):
        self.hello: dict[str, Any] = {}
        self.stopped: list[str] = stopped if stopped is not None else []
        self._skips = skips
        self._rules = StopRules(max_fail, give_up_after, self.stopped)
        groups = table_groups(cases)
        jobs = max(1, min(jobs, len(groups) or 1))

        def make_session() -> Session:
            return Session(argv, timeout=timeout, case_timeout=case_timeout, strict_replies=strict_replies,
                           corpus_version=corpus_version, start_timeout=start_timeout)

        if jobs > 1 and can_fork():
            budget = (start_timeout or START_TIMEOUT) + case_timeout + timeout
            self._results = run_in_processes(cases, groups, jobs, make_session, self._finish, self._rules,
                                             self._note_hello, budget)
        else:
            self._results = run_in_threads(groups, jobs, make_session, self._finish, self._rules, self._note_hello)

    def __iter__(self) -> Iterator[CaseResult]:
        return self._results

    def close(self) -> None:
        """End the run now: its worker processes and their engines (on an interrupt)."""
        self._results.close()

    def _note_hello(self, reply: dict) -> None:
        if not self.hello:
            self.hello.update(reply)

    def _finish(self, result: CaseResult) -> CaseResult:
        if result.outcome == "unsupported" and result.needs is None and self.hello:
            # a worker process reports why; what to declare is worked out here, from its hello
            result.needs = sorted({what for what, _ in unsupported_needs(self.hello, result.case)}) or None
        return apply_skip_list(result, self._skips)


def run_cases(cases: list[Case], argv: list[str], jobs: int = 1, timeout: float = 10.0, case_timeout: float = 60.0,
              skips: SkipList | None = None, max_fail: int | None = None, strict_replies: bool = False,
              hello_callback: Callable[[dict], None] | None = None,
              give_up_after: int | None = GIVE_UP_AFTER, stopped: list[str] | None = None,
              corpus_version: str | None = None, start_timeout: float | None = None) -> Iterator[CaseResult]:
    """The results of a :class:`CaseRun` as a plain iterator, for a caller that wants only them
    (lint, the mutants, tools); ``hello_callback`` is given the first engine's hello once, as
    soon as it is known, and ``stopped`` collects why the run stopped early."""
    run = CaseRun(cases, argv, jobs=jobs, timeout=timeout, case_timeout=case_timeout, skips=skips, max_fail=max_fail,
                  strict_replies=strict_replies, give_up_after=give_up_after, stopped=stopped,
                  corpus_version=corpus_version, start_timeout=start_timeout)
    told = False
    try:
        for result in run:
            if hello_callback is not None and run.hello and not told:
                told = True
                hello_callback(dict(run.hello))
            yield result
    finally:
        run.close()
