"""The reports of a run, subscribed to its stream of results.

A run is one pipeline that data flows down once: the cases selected, run
(:class:`~conformance.runner.run.CaseRun`), a stream of results, and the reporters here, each
told of every result as it comes (:meth:`Reporter.case`) and of the run's end once
(:meth:`Reporter.end`: every result, the footer, and whether the run was interrupted). A
report written as the run goes (JSON Lines) survives a run cut short; the others are written
whole at the end. Nothing here runs a case or calls back into the command that subscribed it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from conformance.common.console import console, error, escape, plain, say, warn
from conformance.common.progress import Progress
from conformance.reports.claim import claims_of_results
from conformance.reports.console import print_failures, run_notes, summary_tables
from conformance.reports.jsonl import JsonlReport
from conformance.reports.junit import write_junit
from conformance.reports.tap import write_tap
from conformance.runner.results import FAILING, CaseResult


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


class ProgressReporter(Reporter):
    """The console's report as a run goes: cases done and failures so far (a bar on a
    terminal, a line every few seconds in a log). Use it inside ``with``."""

    def __init__(self, total: int):
        self.progress = Progress("cases", total, out_of=True)
        self.done = self.failing = 0

    def __enter__(self) -> "ProgressReporter":
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(*exc)

    def case(self, result: CaseResult) -> None:
        self.done += 1
        self.failing += result.outcome in FAILING
        self.progress.update(self.done, f"{self.failing} failing", f"{self.failing} failing" if self.failing else None)


class ConsoleSummary(Reporter):
    """The console's report at the end of a check: the tables by variant and by feature, the
    failures, why the run stopped, the run's own warnings, the claim and the verdict line, all
    read from the run's end (its results and footer). An interrupted run gets one line that
    says how far it got and where its partial report is."""

    def __init__(self, report_path: str | Path, selected: int, unreadable: int, case_timeout: float,
                 skip_file: str | None = None):
        self.report_path = report_path
        self.selected = selected            # the cases selected to run
        self.unreadable = unreadable        # the case files that could not be read, first among the results
        self.case_timeout = case_timeout
        self.skip_file = skip_file

    def end(self, run_end: RunEnd) -> None:
        results, foot = run_end.results, run_end.footer
        if run_end.interrupted:
            plain(f"interrupted: {len(results) - self.unreadable} of {self.selected} case(s) run; "
                  f"partial report: {self.report_path}")
            return
        for table in summary_tables(results):
            console.print(table)
        print_failures(console, results)
        for reason in foot.get("stopped", []):
            error(reason)
        internal = [r for r in results if r.internal_error]
        if internal:
            error(f"internal error of euchre-spec in the report of {len(internal)} case(s) "
                  f"({', '.join(sorted(r.case.id for r in internal)[:5])}{' ...' if len(internal) > 5 else ''}): "
                  f"{internal[0].internal_error}; please report it")
        for note in run_notes(results, foot.get("left_processes"), self.case_timeout):
            warn(note)
        fixed = [r for r in results if r.outcome == "unexpected-pass"]
        if fixed and self.skip_file:
            warn(f"{len(fixed)} case(s) of the skip file now pass; delete these lines from {self.skip_file}: "
                 + ", ".join(sorted(r.case.id for r in fixed)))
        for claim in claims_of_results(results):
            plain(claim.sentence())
        short = foot.get("claim", {}).get("shortfall")
        if short:
            error(short)
        ran = [r for r in results if r.outcome not in ("unsupported", "skipped")]
        counts = ", ".join(f"{n} {o}" for o, n in sorted(Counter(r.outcome for r in results).items()))
        verdict = "[bold red]FAILED[/]" if foot["exit_code"] else "[bold green]PASSED[/]"
        # a partial claim is not a pass of the whole selection: the verdict says how much ran
        share = f", {len(ran)} run ({len(ran) * 100 // max(1, len(results))}%)" if len(ran) < len(results) else ""
        say(f"{verdict} {len(results)} case(s){share}: {escape(counts)}. Report: {escape(str(self.report_path))}")


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
