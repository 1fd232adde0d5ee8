"""Engines that escape their process group: nothing an engine starts may outlive the run.

The hostile engines of ``tests/faulty_engines`` that start processes outside their own
process group (a double-forked ``setsid`` daemon, a child in a process group of its own, a
forked child that holds stdout) are run through every way the suite starts engines
(``check`` with one engine and with forked workers, the runner stopped by SIGTERM, Ctrl-C
or SIGKILL, ``fuzz``, the pytest plugin, the engine class itself), and afterwards no
process of theirs may be alive. Their processes are found by a marker unique to each test
in their command line or environment, read from /proc, never by pid. The report must say
how many processes each run found left behind.

An engine that answers every request just under the per-reply timeout must be stopped by
the case budget, each case within ``--case-timeout`` (and the run within the sum), with
the report naming the cases that hit it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from conformance.runner.run import run_cases
from conformance.runner.containment import available
from conformance.runner.engine_process import EngineProcess
from conformance.fuzzing.lockstep import OverlappingEngine
from process_table import SETTLE, marked, settled, wait_until
from robustness_fixtures import ENGINES, FIXTURE_CASES, FIXTURES, FULL, ROOT, SHORT

pytestmark = pytest.mark.skipif(not available(), reason="containment under a subreaper: Linux only")

pytest_plugins = ["pytester"]

PY = sys.executable
NO_HYPOTHESIS = ("-p", "no:hypothesispytest")    # not needed by the inner pytest: half its start
STICK = FIXTURE_CASES["robust-short-bid-stick"]
OOT = FIXTURE_CASES["robust-out-of-turn"]


@pytest.fixture
def marker():
    """A marker unique to the test; whatever still carries it afterwards (a test that
    failed) is killed then, so that a regression does not leave daemons on the machine."""
    text = f"escape-{uuid.uuid4().hex}"
    yield text
    for line in marked(text):
        try:
            os.kill(int(line.split(":")[0]), signal.SIGKILL)
        except OSError:
            pass


def check(engine: str, *args: str, report: Path, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "conformance.cli", "check", "--engine", engine, "--corpus", str(FIXTURES),
                           "--json", str(report), *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "COLUMNS": "200", "PYTHON": PY, **(env or {})})


def read_report(path: Path) -> tuple[dict, dict[str, dict], dict]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return lines[0], {line["id"]: line for line in lines[1:-1]}, lines[-1]


# engine script and arguments (MARKER: the test's marker), extra environment, outcomes of
# FULL and of the three short cases, processes left behind with one engine and with two
# workers (one engine per table group; the fixtures have two groups), and how many of them
# are counted at FULL's crash.
ESCAPING = {
    "setsid-daemon": ("setsid_daemon.py 0 MARKER", {}, "pass", (1, 2), 0),
    "setsid-daemon-restarted": ("setsid_daemon.py 5 MARKER", {}, "crash", (2, 3), 1),
    "own-group": ("own_group.py 5 MARKER", {}, "crash", (2, 3), 1),
    "held-output": ("held_output.py 5 MARKER", {}, "crash", (1, 1), 1),
    "wrapper-of-a-daemon": ("wrapper_no_exec.sh 0 MARKER", {"WRAPPED": "setsid_daemon.py"}, "pass", (1, 2), 0),
}


def command(spec: str, marker: str) -> str:
    script, *args = spec.replace("MARKER", marker).split()
    path = ENGINES / script
    return " ".join([str(path)] if script.endswith(".sh") else [PY, str(path)]) + " " + " ".join(args)


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("name", sorted(ESCAPING))
def test_no_process_of_an_escaping_engine_outlives_check(tmp_path, name, jobs, marker):
    spec, env, full_outcome, left, left_at_crash = ESCAPING[name]
    report = tmp_path / "r.jsonl"
    started = time.monotonic()
    result = check(command(spec, marker), "-j", str(jobs), "--timeout", "10", report=report, env=env)
    elapsed = time.monotonic() - started
    assert settled(marker, 0) == [], "processes of the engine outlived the run"
    head, cases, foot = read_report(report)
    assert {case_id: case["outcome"] for case_id, case in cases.items()} == {
        FULL.id: full_outcome, SHORT.id: "pass", OOT.id: "pass", STICK.id: "pass"}, result.stdout + result.stderr
    if full_outcome == "crash":
        assert "before replying to act" in cases[FULL.id]["failure"]["message"], "a crash, not waited out as a timeout"
    assert elapsed < 30, "the held pipes cost no timeout"
    assert head["platform"]["containment"] == "subreaper"
    assert foot["left_processes"] == left[jobs - 1]
    assert cases[FULL.id].get("left_processes", 0) == left_at_crash
    assert f"engine left {left[jobs - 1]} process(es) behind" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_nothing_outlives_a_runner_stopped_mid_case(tmp_path, signum, jobs, marker):
    hanging = tmp_path / "hanging"
    runner = subprocess.Popen(
        [PY, "-m", "conformance.cli", "check", "--engine", command("setsid_daemon.py 5 MARKER hang", marker),
         "--corpus", str(FIXTURES), "--timeout", "600", "--json", str(tmp_path / "r.jsonl"), "-j", str(jobs)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "EUCHRE_SPEC_TEST_HANGING": str(hanging)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))     # as from a terminal
    try:
        # the runner, and at least one engine's keeper, the engine and its daemon
        assert wait_until(lambda: len(marked(marker)) >= 4, 30), marked(marker)
        assert wait_until(lambda: hanging.exists() and hanging.read_text().endswith("\n"), 60), \
            "the engine that has FULL hangs on its 5th act"
        runner.send_signal(signum)
        runner.communicate(timeout=30)
    finally:
        runner.kill()
    if signum != signal.SIGKILL:                 # (SIGKILL: no chance to clean up; the keepers see their runner gone)
        assert runner.returncode == 130
    assert settled(marker, 0) == []


def test_the_engine_class_ends_what_its_engine_started_at_each_stop(marker):
    """The one code path every command starts engines by (check, fuzz, identify, mutants
    and the pytest plugin): a stop, a kill after a failure, a restart."""
    engine = EngineProcess([PY, str(ENGINES / "setsid_daemon.py"), "0", marker], timeout=5)
    engine.start()
    assert len(settled(marker, 3)) == 3                    # keeper, engine, daemon
    engine.start()                                         # a restart: the first engine and its daemon end
    assert engine.left_behind == 1 and len(settled(marker, 3)) == 3
    engine.kill()                                          # as after a timeout or garbage
    assert engine.left_behind == 2 and settled(marker, 0) == []
    engine.start()
    assert len(settled(marker, 3)) == 3                    # the daemon is up before the stop counts it
    engine.stop()
    assert engine.left_behind == 3 and settled(marker, 0) == []


def test_fuzz_and_identify_engines_end_what_they_started(marker):
    engine = OverlappingEngine([PY, str(ENGINES / "own_group.py"), "0", marker], timeout=5)
    engine.start()
    assert len(settled(marker, 3)) == 3                    # keeper, engine, its child in its own group
    engine.stop()
    assert engine.left_behind == 1 and settled(marker, 0) == []


def test_fuzz_leaves_nothing_behind(tmp_path, marker):
    result = subprocess.run([PY, "-m", "conformance.cli", "fuzz", "--engine", command("setsid_daemon.py 0 MARKER", marker),
                             "--hands", "5", "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert settled(marker, 0) == []


def test_the_pytest_plugin_leaves_nothing_behind(pytester, marker):
    result = pytester.runpytest_subprocess("--euchre-engine", command("setsid_daemon.py 5 MARKER", marker),
                                           "--euchre-corpus", str(FIXTURES), "-p", "no:cacheprovider", *NO_HYPOTHESIS)
    result.assert_outcomes(passed=3, failed=1)
    assert settled(marker, 0) == []


def test_a_worker_killed_outright_takes_its_engines_processes_with_it(tmp_path, marker):
    """A forked worker that is SIGKILLed cannot end its engine: the engine's keeper sees
    that its parent is gone and does it (and a replacement worker runs the rest)."""
    hanging = tmp_path / "hanging"
    runner = subprocess.Popen(
        [PY, "-m", "conformance.cli", "check", "--engine", command("setsid_daemon.py 5 MARKER hang", marker),
         "--corpus", str(FIXTURES), "--timeout", "600", "--json", str(tmp_path / "r.jsonl"), "-j", "2"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "EUCHRE_SPEC_TEST_HANGING": str(hanging)})
    try:
        assert wait_until(lambda: len(marked(marker)) >= 5, 30), marked(marker)     # runner, worker, keeper, ...
        assert wait_until(lambda: hanging.exists() and hanging.read_text().endswith("\n"), 60), \
            "the worker that has FULL waits on a hanging engine"
        # that engine's worker (the other may end meanwhile: it is not the one to kill)
        hung = _ancestor_under(int(hanging.read_text().split()[0]), runner.pid)
        assert hung is not None, "the hanging engine runs under a worker of the runner"
        doomed = _tree(hung) & _pids(marked(marker))
        assert len(doomed) >= 3, "the worker's keeper, engine and daemon"
        os.kill(hung, signal.SIGKILL)
        assert wait_until(lambda: not _pids(marked(marker)) & doomed, SETTLE), marked(marker)
        runner.communicate(timeout=60)
    finally:
        runner.kill()
    assert runner.returncode == 1                # FULL is an error: its worker died
    assert settled(marker, 0) == []


def _pids(lines: list[str]) -> set[int]:
    return {int(line.split(":")[0]) for line in lines}


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    return int(stat[stat.rfind(b")") + 2:].split()[1])


def _ancestor_under(pid: int, top: int) -> int | None:
    """The ancestor of ``pid`` (or ``pid`` itself) whose parent is ``top``."""
    while pid not in (0, 1):
        parent = _parent(pid)
        if parent is None:
            return None
        if parent == top:
            return pid
        pid = parent
    return None


def _tree(root: int) -> set[int]:
    """The descendants of ``root`` now (a daemon's parent is its keeper, a subreaper)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            parent = _parent(int(name))
            if parent is not None:
                children.setdefault(parent, []).append(int(name))
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.add(child)
            todo.append(child)
    return found


# -- an engine just under the per-reply timeout ---------------------------------------------------

def test_an_engine_just_under_the_reply_timeout_is_stopped_by_the_case_budget(tmp_path):
    # 2.95 s a reply, never past the 3 s reply timeout, but past the 1.5 s case budget at the
    # first request after hello: each case must end when the budget is spent, in the middle
    # of that reply (waiting for it, then checking the budget, took 3 s and more). The budget
    # was 2 s: 1.5 s still leaves the engine's start and hello (a tenth of a second) ten
    # times their time, and 2 s of waiting less.
    report = tmp_path / "r.jsonl"
    started = time.monotonic()
    result = check(f"{PY} {ENGINES / 'just_under.py'} 3.0 0.05", "--timeout", "3", "--case-timeout", "1.5",
                   report=report)
    elapsed = time.monotonic() - started
    _, cases, foot = read_report(report)
    assert {case["outcome"] for case in cases.values()} == {"timeout"}
    for case in cases.values():
        assert case["hit_case_timeout"] is True
        assert case["failure"]["message"] == "case not finished within 1.5 s (still waiting for the reply to rules)"
        assert case["duration_ms"] < 1500 + 700, "the case is ended when its budget is spent, not a reply later"
    assert foot["hit_case_timeout"] == sorted(cases)
    assert f"4 case(s) hit the case budget (--case-timeout 1.5 s): {', '.join(sorted(cases))}" in result.stderr
    # the run: four budgets (each engine start, a timed-out engine being restarted, within
    # its case's budget) and the corpus's load
    assert elapsed < 4 * 1.5 + 15


def test_a_case_within_its_budget_is_not_named():
    results = list(run_cases([SHORT], [PY, str(ENGINES / "just_under.py"), "0.2", "0.05"], timeout=1.0, case_timeout=5.0))
    assert [(r.outcome, r.hit_case_timeout) for r in results] == [("pass", False)]


# -- engines that kill or stop their keeper -------------------------------------------------------
#
# keeper_killer.py leaves one setsid daemon per start and sends its keeper SIGKILL or SIGSTOP,
# from the engine itself or from the daemon (a grandchild in a session of its own). The keeper
# cannot do its job then; the runner, a subreaper too, must: every process ends with the run,
# and the report counts the daemons (one per engine start: one engine, or two with -j 2).

KEEPER_KILLERS = ["kill engine", "kill daemon", "stop engine", "stop daemon"]


def killer(mode: str, marker: str) -> str:
    return command(f"keeper_killer.py {mode} MARKER", marker)


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("mode", KEEPER_KILLERS)
def test_an_engine_that_kills_or_stops_its_keeper_leaves_nothing(tmp_path, mode, jobs, marker):
    report = tmp_path / "r.jsonl"
    result = check(killer(mode, marker), "-j", str(jobs), "--timeout", "10", report=report)
    assert marked(marker) == [], "processes of the engine outlived the run"
    head, cases, foot = read_report(report)
    assert {case["outcome"] for case in cases.values()} == {"pass"}, result.stdout + result.stderr
    assert foot["left_processes"] == jobs, "one daemon per engine start, found although its keeper was gone"
    assert f"engine left {jobs} process(es) behind" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("mode", ["kill daemon", "stop engine"])
def test_fuzz_and_identify_say_what_a_keeper_killer_left(tmp_path, mode, marker):
    for args in (["fuzz", "--hands", "3"], ["identify", "--variant", "euchre", "--hands", "4", "--check-hands", "0"]):
        result = subprocess.run([PY, "-m", "conformance.cli", *args, "--engine", killer(mode, marker),
                                 "--out", str(tmp_path), "--json", str(tmp_path / "r.json")],
                                cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert marked(marker) == [], (args, marked(marker))
        left = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["left_processes"]
        assert left >= 1, (args, result.stdout + result.stderr)
        assert f"engine left {left} process(es) behind" in result.stderr, args


@pytest.mark.parametrize("workers", ["0", "2"])
def test_the_pytest_plugin_says_what_a_keeper_killer_left(pytester, workers, marker):
    result = pytester.runpytest_subprocess("--euchre-engine", killer("kill daemon", marker), "-n", workers,
                                           "--euchre-corpus", str(FIXTURES), "-p", "no:cacheprovider", *NO_HYPOTHESIS)
    result.assert_outcomes(passed=4)
    assert marked(marker) == []
    assert any(f"engine left {n} process(es) behind" in line for line in result.outlines for n in (1, 2)), result.outlines


def test_the_engine_class_survives_a_stopped_keeper(marker):
    """A keeper stopped by the engine's daemon: the engine still answers; the stop does not
    wait out the keeper's grace but kills it, and the daemon, at once."""
    engine = EngineProcess([PY, str(ENGINES / "keeper_killer.py"), "stop", "daemon", marker], timeout=5)
    engine.start()
    keeper = engine.process.pid
    assert wait_until(lambda: Path(f"/proc/{keeper}/stat").read_text().split(") ")[1][0] == "T", 5)
    assert engine.alive()
    started = time.monotonic()
    engine.stop()
    assert time.monotonic() - started < 3
    assert engine.left_behind == 1 and marked(marker) == []
