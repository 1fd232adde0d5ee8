"""A pytest plugin: run the conformance corpus inside an engine's own test suite.

    pip install 'euchre-spec[pytest]'        # pytest and pytest-xdist beside the suite
    pytest --euchre-engine "./my-engine --protocol"

Every case becomes one test item (``euchre-spec/<case-id>``), collected and counted like any
other test; the header names the corpus, the engine and the number of cases. Under
pytest-xdist each worker process starts its own engine. A skip file (``--euchre-skip``)
marks known failures as xfail, and a listed case that passes fails the run, as with
``euchre-spec check``. The summary says how much of the corpus the engine's ``hello``
let run ("ran 18 of 212 euchre cases (8%); declare ... to run 194 more");
``--euchre-require`` and ``--euchre-fail-under PCT`` fail the session on a partial claim.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from .cases import Case, load_cases, load_corpus_meta
from reference_impl.errors import SpecError

from conformance.runner.skip_list import SkipList, apply_skip_list
from conformance.runner.selection import select
from conformance.reports.claim import claims, shortfall
from conformance.runner.containment import available as contained
from conformance.runner.engine_process import engine_command, left_behind_total
from conformance.reports.console import left_sentence
from conformance.common.shown import visible
from conformance.runner.results import FAILING
from conformance.runner.session import Session
from conformance.common.usage import percent, seconds

_session: Session | None = None
_skips: tuple[str, SkipList | None] | None = None      # the skip file, read once per process
_outcomes: list[tuple[str, str, list[str] | None]] = []  # (variant, outcome, needs) per case, for the claim
_left = [0]                  # processes the engines left behind (this process's and its xdist workers')
_left_at_start = [0]         # left_behind_total() when this process's engine session began


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("euchre-spec", "Euchre Spec conformance corpus")
    group.addoption("--euchre-engine", metavar="CMD", help="engine command line (run without a shell), or 'reference'")
    group.addoption("--euchre-variant", metavar="ID", help="only cases of this variant")
    group.addoption("--euchre-case", action="append", metavar="GLOB", help="only cases whose id matches (repeatable)")
    group.addoption("--euchre-corpus", action="append", metavar="PATH", help="case files or directories (default: the built-in corpus)")
    group.addoption("--euchre-skip", metavar="FILE", help="skip file: listed cases are expected to fail")
    group.addoption("--euchre-timeout", default="10", metavar="S", help="seconds to wait for each reply")
    group.addoption("--euchre-require", action="store_true",
                    help="fail the session unless every selected case ran (none unsupported by the engine's hello)")
    group.addoption("--euchre-fail-under", type=percent, metavar="PCT",
                    help="fail the session when less than PCT%% of the selected cases ran")


class EuchreCaseFailure(Exception):
    """The engine did not conform on one case."""


class EuchreCaseItem(pytest.Item):
    """One corpus case run against the engine under test."""

    def __init__(self, *, case: Case | None, problem: str | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.problem = problem
        if case is not None:
            for tag in case.tags:
                self.add_marker(pytest.mark.euchre_tag(tag))

    def runtest(self) -> None:
        if self.problem is not None:
            raise EuchreCaseFailure(f"unreadable case file: {self.problem}")
        config = self.config
        result = apply_skip_list(_engine_session(config).run(self.case), _skip_list(config))
        # sent back with the report (also from an xdist worker) for the session's claim
        self.user_properties.append(("euchre_claim", (self.case.variant, result.outcome, result.needs)))
        if result.outcome == "pass":
            return
        if result.outcome in ("skipped", "unsupported"):
            pytest.skip(f"{result.outcome}: {result.detail or ''}")
        if result.outcome == "expected-fail":
            pytest.xfail(result.detail or "listed in the skip file")
        text = result.failure.describe() if result.failure else (result.detail or result.outcome)
        if result.stderr:
            text += "\n    engine stderr (last lines):\n      " + "\n      ".join(result.stderr.strip().split("\n")[-5:])
        assert result.outcome in FAILING
        raise EuchreCaseFailure(visible(f"{result.outcome}: {text}"))     # pytest prints it as it is

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        if isinstance(excinfo.value, EuchreCaseFailure):
            return f"{self.name}: {excinfo.value}"
        if isinstance(excinfo.value, pytest.xfail.Exception):
            # pytest would format the traceback of the xfail() call, with the source of every
            # frame: ten times the cost of running the case (a skip file of 180 failures added
            # a minute); the reason is all an expected failure needs
            return f"{self.name}: xfail: {excinfo.value.msg}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        if self.case is None:
            return self.name, None, self.name
        return Path(self.case.file), (self.case.line or 1) - 1, f"euchre-spec case {self.case.id}: {self.case.title}"


def _engine_session(config: pytest.Config) -> Session:
    global _session
    if _session is None:
        argv = engine_command(config.getoption("euchre_engine"))
        _left_at_start[0] = left_behind_total()
        _session = Session(argv, timeout=seconds(str(config.getoption("euchre_timeout"))))
    return _session


def _skip_list(config: pytest.Config) -> SkipList | None:
    global _skips
    path = config.getoption("euchre_skip")
    if _skips is None or _skips[0] != path:
        _skips = (path, _read_skip_list(path) if path else None)
    return _skips[1]


def _read_skip_list(path: str) -> SkipList:
    try:
        return SkipList.read(path)
    except SpecError as exc:
        raise pytest.UsageError(f"--euchre-skip: {exc.problems[0]}") from None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "euchre_tag(name): a conformance case's feature tag")
    if config.getoption("euchre_engine") is None:
        return
    # Usage errors are said once, in one line each, before anything runs (as check says them),
    # not met by every test item.
    try:
        seconds(str(config.getoption("euchre_timeout")))
    except argparse.ArgumentTypeError as exc:
        raise pytest.UsageError(f"--euchre-timeout: {exc}") from None
    try:
        engine_command(config.getoption("euchre_engine"))
    except ValueError as exc:
        raise pytest.UsageError(f"--euchre-engine: {exc}") from None
    variant = config.getoption("euchre_variant")
    if variant:
        from reference_impl.catalog import variant_ids
        if variant not in variant_ids():
            raise pytest.UsageError(f"--euchre-variant: unknown variant {variant!r} (known: {', '.join(variant_ids())})")
    if config.getoption("euchre_skip"):
        _skip_list(config)
    if not hasattr(config, "workerinput"):      # (under xdist, a worker's usage error would be lost)
        chosen, problems = _selection(config)
        if not chosen and not problems:
            raise pytest.UsageError("euchre-spec: no case matches the selection (--euchre-variant, --euchre-case, "
                                    "--euchre-corpus)")


def _selection(config: pytest.Config) -> tuple[list[Case], list[Any]]:
    """The cases selected by the options, and the case files that could not be read."""
    corpus = config.getoption("euchre_corpus")
    cases, problems = load_cases([Path(p) for p in corpus] if corpus else None, load_corpus_meta().tags)
    return select(cases, config.getoption("euchre_variant"), config.getoption("euchre_case")), problems


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("euchre_engine") is None:
        return
    chosen, problems = _selection(config)
    added = [EuchreCaseItem.from_parent(session, name=f"euchre-spec/{case.id}", case=case) for case in chosen]
    added += [EuchreCaseItem.from_parent(session, name=f"euchre-spec/unreadable/{Path(problem.file).name}",
                                         case=None, problem=str(problem)) for problem in problems]
    items.extend(added)
    # Reported as a collector's result, so that "collected N items" counts the cases.
    config.hook.pytest_collectreport(report=pytest.CollectReport("euchre-spec", "passed", None, added))
    config.stash[_COUNTS] = (len(chosen), len(problems), load_corpus_meta().version)


_COUNTS = pytest.StashKey[tuple]()


def pytest_report_collectionfinish(config: pytest.Config, start_path: Path, items: list[pytest.Item]) -> list[str]:
    if config.getoption("euchre_engine") is None or _COUNTS not in config.stash:
        return []
    chosen, problems, version = config.stash[_COUNTS]
    line = f"euchre-spec: {chosen} case(s) of corpus {version} on {config.getoption('euchre_engine')}"
    return [line + (f", {problems} unreadable case file(s)" if problems else "")]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call" and not (report.when == "setup" and report.skipped):
        return
    for name, value in report.user_properties:
        if name == "euchre_claim":
            variant, outcome, needs = value
            _outcomes.append((variant, outcome, list(needs) if needs else None))


def _claim_problem(config: pytest.Config) -> str | None:
    return shortfall(claims(_outcomes), config.getoption("euchre_require"), config.getoption("euchre_fail_under"))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if config.getoption("euchre_engine") is None or not (_outcomes or _left[0]):
        return
    terminalreporter.section("euchre-spec")
    if _left[0]:
        terminalreporter.write_line(f"euchre-spec: {left_sentence(_left[0])}", yellow=True)
    for claim in claims(_outcomes):
        terminalreporter.write_line(claim.sentence())
    problem = _claim_problem(config)
    if problem:
        terminalreporter.write_line(f"euchre-spec: {problem}", red=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if config.getoption("euchre_engine") is None:
        return
    _end_engine()          # before the summary, which says what the engine left behind
    if hasattr(config, "workeroutput"):
        config.workeroutput["euchre_left"] = _left[0]       # for the controller's summary
        return
    if hasattr(config, "workerinput") or not _outcomes:
        return
    if _claim_problem(config) and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """(pytest-xdist, in the controller) A worker has ended: add what its engine left."""
    left = getattr(node, "workeroutput", {}).get("euchre_left", 0)
    if isinstance(left, int):
        _left[0] += left


def _end_engine() -> None:
    """Stop this process's engine and count what it left behind (a keeper that the engine
    killed or stopped is no excuse: see conformance.runner.containment)."""
    global _session
    if _session is not None:
        _session.close()
        _session = None
        if contained():
            _left[0] += left_behind_total() - _left_at_start[0]


def pytest_unconfigure(config: pytest.Config) -> None:
    global _skips
    _end_engine()
    _skips = None
    _outcomes.clear()
    _left[0] = 0
