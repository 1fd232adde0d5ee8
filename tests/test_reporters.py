"""The check's console output is a reporter like the files: the summary at the end and the
progress as the run goes are subscribed to the stream of results, and read what they print
from the run's end (its results and footer), never from the command that ran it."""

from __future__ import annotations

import io
import json

import pytest

from conformance.cases import load_cases, load_corpus_meta
from conformance.common import console as console_module
from conformance.common import progress as progress_module
from conformance.reports.jsonl import footer
from conformance.reports.reporters import ConsoleSummary, JsonlReporter, ProgressReporter, RunEnd, Subscribers
from conformance.runner.results import CaseResult, Failure


@pytest.fixture(scope="module")
def two_cases():
    cases, _ = load_cases(tags=load_corpus_meta().tags)
    chosen = {case.id: case for case in cases if case.id in ("made-three-tricks", "assist-made-four-tricks")}
    assert len(chosen) == 2
    return [chosen["made-three-tricks"], chosen["assist-made-four-tricks"]]


@pytest.fixture
def printed(monkeypatch):
    """Everything the console and the error console print, as plain text."""
    out = io.StringIO()
    for name in ("console", "err_console"):
        monkeypatch.setattr(getattr(console_module, name), "file", out)
    return out


def test_the_summary_is_printed_from_the_end_of_the_run_after_the_report_is_written(two_cases, printed, tmp_path):
    passed = CaseResult(two_cases[0], "pass", 0.1)
    failed = CaseResult(two_cases[1], "fail", 0.1, Failure(where="hand 1, step 3", message="expected 'pass', got 'C9'"))
    results = [passed, failed]
    report = tmp_path / "report.jsonl"
    seen_when_printing = []

    class Spy(ConsoleSummary):
        def end(self, run_end: RunEnd) -> None:
            seen_when_printing.append(report.read_text().splitlines()[-1])   # the report's footer is written first
            super().end(run_end)

    foot = {**footer(results, 1.0, 1, ["stopped after 1 unexpected failure (--max-fail 1)"], None),
            "claim": {"shortfall": "ran 2 of 2 cases, fewer than --require asks"}}
    outputs = Subscribers([JsonlReporter(report, lambda: {"type": "header"}), Spy(report, 2, 0, 60.0)])
    for result in results:
        outputs.case(result)
    outputs.end(RunEnd(results, foot, "engine"))
    text = printed.getvalue()
    assert json.loads(seen_when_printing[0])["type"] == "footer"
    assert "FAILED 2 case(s): 1 fail, 1 pass. Report: " + str(report) in text
    assert "assist-made-four-tricks" in text and "expected 'pass', got 'C9'" in text
    assert "error: stopped after 1 unexpected failure" in text            # from the footer, not the command
    assert "error: ran 2 of 2 cases, fewer than --require asks" in text
    assert "ran 2 of 2 euchre cases (100%)" in text


def test_the_verdict_follows_the_footer_and_a_fixed_skip_line_is_named(two_cases, printed):
    results = [CaseResult(two_cases[0], "pass", 0.1), CaseResult(two_cases[1], "unexpected-pass", 0.1)]
    ConsoleSummary("r.jsonl", 2, 0, 60.0, skip_file="skips.txt").end(RunEnd(results, footer(results, 1.0, 0), "engine"))
    text = printed.getvalue()
    assert "PASSED 2 case(s)" in text and "FAILED" not in text
    assert "delete these lines from skips.txt: assist-made-four-tricks" in text


def test_an_interrupted_run_gets_one_line_with_how_far_it_got(two_cases, printed):
    results = [CaseResult(two_cases[0], "pass", 0.1)]
    ConsoleSummary("partial.jsonl", 2, 0, 60.0).end(
        RunEnd(results, footer(results, 1.0, 130), "engine", interrupted="interrupted after 1 of 2 case(s)"))
    assert printed.getvalue().strip() == "interrupted: 1 of 2 case(s) run; partial report: partial.jsonl"


def test_progress_counts_cases_and_failures_in_a_log(two_cases, printed, monkeypatch):
    monkeypatch.setattr(progress_module, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(progress_module, "is_terminal", lambda: False)
    with ProgressReporter(2) as progress:
        progress.case(CaseResult(two_cases[0], "pass", 0.1))
        progress.case(CaseResult(two_cases[1], "crash", 0.1))
    lines = printed.getvalue().splitlines()
    assert [line.rsplit(",", 1)[0] for line in lines] == ["progress: 1/2 cases, 0 failing", "progress: 2/2 cases, 1 failing"]
