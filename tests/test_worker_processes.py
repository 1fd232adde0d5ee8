"""``check -j N`` on forked workers: the same results as one engine, every case accounted
for however a worker fails, and no process left behind.

The first tests drive real engines through ``run_cases``; the others drive
``run_in_processes`` with stand-in sessions that die, hang or leave an engine behind at a
chosen case, which no real engine can make the runner's own worker do.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from conformance.cases import Case, load_cases
from conformance.runner.stop_rules import StopRules
from conformance.runner.run import run_cases
from conformance.runner.selection import table_groups
from conformance.runner.engine_process import engine_command
from conformance.runner.results import CaseResult
from conformance.runner.workers import can_fork, run_in_processes
from reference_impl.errors import Problem
from robustness_fixtures import ENGINES, FIXTURE_CASES, FULL, SHORT, TAGS

pytestmark = pytest.mark.skipif(not can_fork(), reason="workers are forked (POSIX only)")

OTHER_TABLE = FIXTURE_CASES["robust-short-bid-stick"]


def corpus_sample(count: int = 80) -> list[Case]:
    """Cases of the built-in corpus from several rule tables (every fourth table's cases)."""
    cases, problems = load_cases(None, TAGS)
    assert not problems
    groups = table_groups(cases)
    chosen = [case for group in groups[::4] for case in group]
    return chosen[:count]


def accounted_once(results: list[CaseResult], cases: list[Case]) -> dict[str, str]:
    ids = [r.case.id for r in results]
    assert Counter(ids) == Counter(c.id for c in cases), "every case exactly once"
    return {r.case.id: r.outcome for r in results}


# -- real engines -----------------------------------------------------------------------------

def test_two_workers_give_what_one_engine_gives():
    cases = corpus_sample()
    assert len({c.table.sha256 for c in cases}) >= 3
    argv = engine_command("reference")
    hellos: list[dict] = []
    one = accounted_once(list(run_cases(cases, argv, jobs=1)), cases)
    two = accounted_once(list(run_cases(cases, argv, jobs=2, hello_callback=hellos.append)), cases)
    assert one == two and set(two.values()) == {"pass"}
    assert hellos and hellos[0]["engine"]["name"]


def test_without_fork_two_threads_give_what_one_engine_gives(monkeypatch):
    """The path taken where processes cannot be forked (Windows)."""
    monkeypatch.setattr("conformance.runner.run.can_fork", lambda: False)
    monkeypatch.setattr("conformance.runner.run.run_in_processes", None)     # must not be reached
    cases = corpus_sample(40)
    argv = engine_command("reference")
    one = accounted_once(list(run_cases(cases, argv, jobs=1)), cases)
    two = accounted_once(list(run_cases(cases, argv, jobs=2)), cases)
    assert one == two and set(two.values()) == {"pass"}


def test_max_fail_stops_both_workers_and_reports_the_rest():
    cases = [FULL, SHORT, OTHER_TABLE] * 6            # FULL crashes on this engine, the others pass
    stopped: list[str] = []
    results = list(run_cases(cases, [sys.executable, str(ENGINES / "crash.py")], jobs=2, max_fail=2, stopped=stopped,
                             timeout=5))
    assert len(results) == len(cases)
    outcomes = Counter(r.outcome for r in results)
    assert outcomes["crash"] >= 2 and outcomes["skipped"] >= 1
    assert stopped and "--max-fail 2" in stopped[0]
    assert all(r.detail == "not run: --max-fail reached" for r in results if r.outcome == "skipped")


def test_the_circuit_breaker_works_across_workers():
    cases = [SHORT, OTHER_TABLE] * 6
    stopped: list[str] = []
    started = time.monotonic()
    results = list(run_cases(cases, [sys.executable, str(ENGINES / "silent.py")], jobs=2, timeout=0.5,
                             start_timeout=0.5, give_up_after=3, stopped=stopped))
    assert time.monotonic() - started < 60
    outcomes = Counter(r.outcome for r in results)
    assert len(results) == len(cases) and outcomes["timeout"] >= 3 and outcomes["skipped"] >= 1
    assert set(outcomes) == {"timeout", "skipped"}
    assert "failed to start or answer in 3 cases in a row" in stopped[0]


# -- stand-in sessions --------------------------------------------------------------------------

class StandIn:
    """A session whose ``run`` passes, except that ``fault(case, session)`` may act first."""

    def __init__(self, fault=None):
        self.fault = fault
        self.engine = SimpleNamespace(hello={"engine": {"name": "stand-in"}}, process=None)

    def run(self, case: Case) -> CaseResult:
        if self.fault is not None:
            self.fault(case, self)
        return CaseResult(case, "pass", 0.001)

    def close(self) -> None:
        if self.engine.process is not None:          # as a real session ends its engine
            self.engine.process.kill()
            self.engine.process.wait()


def run_stand_ins(groups: list[list[Case]], fault=None, jobs: int = 2, silence: float = 30.0) -> list[CaseResult]:
    cases = [case for group in groups for case in group]
    rules = StopRules(None, None, [])
    return list(run_in_processes(cases, groups, jobs, lambda: StandIn(fault), lambda r: r, rules, None, silence))


def distinct_cases(count: int) -> list[Case]:
    """Distinct case objects (the worker protocol names cases by position)."""
    cases = []
    for i in range(count):
        case = Case.unreadable(Problem(file=f"stand-in-{i}.yaml", path="$", message="stand-in"))
        case.id = f"stand-in-{i}"
        cases.append(case)
    return cases


def test_a_worker_that_dies_costs_one_case_and_the_rest_of_its_group_runs_elsewhere(tmp_path):
    marker = tmp_path / "died"

    def die_once(case, session):
        if case.id == "stand-in-2" and not marker.exists():
            marker.write_text("x")
            os.kill(os.getpid(), signal.SIGKILL)

    cases = distinct_cases(8)
    results = run_stand_ins([cases[:5], cases[5:]], die_once)
    outcomes = accounted_once(results, cases)
    assert outcomes.pop("stand-in-2") == "error"
    assert set(outcomes.values()) == {"pass"}
    [lost] = [r for r in results if r.outcome == "error"]
    assert lost.failure.where == "runner" and "exit code -9" in lost.failure.message


def test_a_worker_that_hangs_is_ended_after_the_silence_budget():
    def hang(case, session):
        if case.id == "stand-in-1":
            time.sleep(600)

    cases = distinct_cases(4)
    started = time.monotonic()
    results = run_stand_ins([cases], hang, silence=1.0)
    assert time.monotonic() - started < 30
    outcomes = accounted_once(results, cases)
    assert outcomes == {"stand-in-0": "pass", "stand-in-1": "error", "stand-in-2": "pass", "stand-in-3": "pass"}
    assert "stopped sending anything" in next(r for r in results if r.outcome == "error").failure.message


def test_workers_that_always_die_are_replaced_a_bounded_number_of_times():
    def always(case, session):
        os._exit(9)

    cases = distinct_cases(30)
    started = time.monotonic()
    results = run_stand_ins([cases[i:i + 3] for i in range(0, 30, 3)], always)
    assert time.monotonic() - started < 60
    outcomes = accounted_once(results, cases)
    assert set(outcomes.values()) == {"error"}
    messages = Counter(r.failure.message for r in results)
    assert sum(n for m, n in messages.items() if "exit code 9" in m) == 2 * 2 + 2   # the first two workers and four replacements
    assert any("kept ending unexpectedly" in m for m in messages)


def test_the_engine_of_a_killed_worker_is_killed_too(tmp_path):
    pidfile = tmp_path / "engine.pid"

    def engine_then_die(case, session):
        if session.engine.process is None:
            session.engine.process = subprocess.Popen(["sleep", "300"], start_new_session=True)
            with pidfile.open("a") as f:
                f.write(f"{session.engine.process.pid}\n")
            return                                  # the parent hears of this engine with the result
        os.kill(os.getpid(), signal.SIGKILL)

    cases = distinct_cases(3)
    results = run_stand_ins([cases], engine_then_die, jobs=1)
    accounted_once(results, cases)
    first, *replacements = map(int, pidfile.read_text().split())
    assert _gone(first), "the engine of the killed worker was left running"
    assert all(_gone(pid) for pid in replacements)


def test_closing_the_run_early_ends_every_worker():
    def slow(case, session):
        time.sleep(0.2)

    cases = distinct_cases(40)
    rules = StopRules(None, None, [])
    run = run_in_processes(cases, [cases[:20], cases[20:]], 2, lambda: StandIn(slow), lambda r: r, rules, None, 30.0)
    next(run)
    children = _children()
    assert len(children) >= 2
    run.close()                                     # what an interrupted `check` does
    assert all(_gone(pid) for pid in children)


def _children() -> list[int]:
    me = os.getpid()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == me:
                found.append(int(entry.name))
    return found


def _gone(pid: int, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False
