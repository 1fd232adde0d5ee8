"""The reports of a run, subscribed to its stream of results.

A run is one pipeline that data flows down once: the cases selected, run
(:class:`~conformance.runner.run.CaseRun`), a stream of results, and the reporters here, each
told of every result as it comes (:meth:`Reporter.case`) and of the run's end once
(:meth:`Reporter.end`: every result, the footer, and whether the run was interrupted). A
report written as the run goes (JSON Lines) survives a run cut short; the others are written
whole at the end. Nothing here runs a case or calls back into the command that subscribed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from conformance.reports.jsonl import JsonlReport
from conformance.reports.junit import write_junit
from conformance.reports.tap import write_tap
from conformance.runner.results import CaseResult


@dataclass(frozen=True)
class RunEnd:
    """How a run ended, as every reporter is told it."""

    results: list[CaseResult]           # every result, the case files that could not be read first
    footer: dict[str, Any]              # the JSON Lines footer: counts, exit status, why it stopped, the claim
    engine_name: str                    # the engine's name in its hello (else its command)
    interrupted: str | None = None      # why the run was cut short (an interrupt), or None


class Reporter:
    """One output of a run: told of each result, then of the end."""

    def case(self, result: CaseResult) -> None:
        """One more result, as it is known."""

    def end(self, run_end: RunEnd) -> None:
        """The run is over (or interrupted): write what is left and close."""


class JsonlReporter(Reporter):
    """The JSON Lines report, written line by line: the header before the first result (the
    engine's hello is known by then), the case files that could not be read right after it,
    each result as it comes, the footer last."""

    def __init__(self, path: str | Path, header: Callable[[], dict[str, Any]], unreadable: Iterable[CaseResult] = ()):
        self._report = JsonlReport(path)
        self._header = header
        self._unreadable = list(unreadable)
        self._started = False

    def _start(self) -> None:
        if not self._started:
            self._report.write(self._header())
            self._started = True
            for result in self._unreadable:
                self._report.write(result.to_json())

    def case(self, result: CaseResult) -> None:
        self._start()
        self._report.write(result.to_json())

    def end(self, run_end: RunEnd) -> None:
        self._start()
        self._report.write(run_end.footer)
        self._report.close()


class JunitReporter(Reporter):
    """The JUnit XML report, written whole at the end."""

    def __init__(self, path: str | Path):
        self.path = path

    def end(self, run_end: RunEnd) -> None:
        write_junit(self.path, run_end.results, run_end.engine_name, interrupted=run_end.interrupted)


class TapReporter(Reporter):
    """The TAP report, written whole at the end."""

    def __init__(self, path: str | Path):
        self.path = path

    def end(self, run_end: RunEnd) -> None:
        write_tap(self.path, run_end.results, interrupted=run_end.interrupted)


class Subscribers(Reporter):
    """Several reporters told the same stream, in the order they subscribed."""

    def __init__(self, reporters: Iterable[Reporter]):
        self.reporters = list(reporters)

    def case(self, result: CaseResult) -> None:
        for reporter in self.reporters:
            reporter.case(result)

    def end(self, run_end: RunEnd) -> None:
        for reporter in self.reporters:
            reporter.end(run_end)
