"""A run stopped before its end says so in every file it writes, and never leaves the
previous run's verdict in place: JUnit and TAP are emptied at the start and written whole
(a temporary file renamed) with the interruption in them; the JSON Lines report's footer
says exit 130 and why; a badge or a job summary made from it says "interrupted". Every
signal that ends a process by default (SIGHUP: a closed terminal, SIGUSR1, SIGALRM ...)
ends a run as SIGTERM does."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
import xml.etree.ElementTree as ET

import pytest

from conformance.reports.badge import badge_for
from conformance.reports.runs import read_run
from conformance.reports.summary import summary_markdown
from process_table import marked, wait_until
from robustness_fixtures import ENGINES, FIXTURES, ROOT

PY = sys.executable


def engine_running(marker: str) -> bool:
    """Whether the engine (not the runner, which carries the marker too) has started."""
    return any("conformance" not in line.partition(": ")[2] for line in marked(marker))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGALRM])
def test_an_interrupted_run_says_so_in_every_format(tmp_path, signum):
    junit, tap, report = tmp_path / "junit.xml", tmp_path / "r.tap", tmp_path / "r.jsonl"
    junit.write_text('<testsuites><testsuite name="green" tests="233" failures="0"/></testsuites>\n')
    tap.write_text("TAP version 13\n1..233\nok 1\n")
    marker = f"interrupt-{uuid.uuid4().hex}"
    runner = subprocess.Popen(
        [PY, "-m", "conformance.cli", "check", "--engine", f"{PY} {ENGINES / 'hang.py'} 5 {marker}",
         "--corpus", str(FIXTURES), "--timeout", "600", "--json", str(report), "--junit", str(junit), "--tap", str(tap)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_until(lambda: engine_running(marker), 30)
        assert wait_until(lambda: junit.stat().st_size == 0, 30), "the previous JUnit is emptied at the start"
        runner.send_signal(signum)
        _, err = runner.communicate(timeout=30)
    finally:
        runner.kill()
    name = signal.Signals(signum).name
    assert runner.returncode == 130, err
    assert f"interrupted by {name}" in err and "Traceback" not in err
    foot = json.loads(report.read_text(encoding="utf-8").splitlines()[-1])
    assert foot["type"] == "footer" and foot["exit_code"] == 130
    assert any(f"interrupted by {name}" in reason for reason in foot["stopped"])
    suites = ET.parse(junit).getroot()
    errors = suites.findall(".//testcase/error[@type='interrupted']")
    assert len(errors) == 1 and name in errors[0].text
    assert "green" not in junit.read_text()
    lines = tap.read_text().splitlines()
    assert lines[0] == "TAP version 13" and lines[-1].startswith("Bail out! interrupted by " + name)
    run = read_run(report)
    assert "interrupted" in badge_for(run) and "Not a whole run" in summary_markdown(run)
    assert [p for p in os.listdir(tmp_path) if p.endswith(".part")] == [], "no temporary file left"


def test_a_report_without_a_footer_is_not_a_whole_run(tmp_path):
    lines = [json.dumps({"type": "header", "engine": {"name": "x"}}),
             json.dumps({"type": "case", "id": "a", "outcome": "pass", "variant": "euchre"})]
    (tmp_path / "r.jsonl").write_text("\n".join(lines) + "\n")
    run = read_run(tmp_path / "r.jsonl")
    assert "interrupted" in badge_for(run) and "no footer" in summary_markdown(run)


def test_an_engine_starting_when_the_run_is_stopped_is_not_started_and_raises_no_stray_error():
    # The race behind a rare traceback on interrupt: the main thread's kill_all closes the
    # keeper's report of an engine a worker thread is still starting. The worker must end
    # that start as "the run is stopping", not with a TypeError from reading a closed report.
    from conformance.runner import engine_process
    engine = engine_process.EngineProcess([sys.executable, "-c", "pass"], 5.0)
    engine._report, engine.process = None, None
    engine_process.kill_all()
    try:
        with pytest.raises(engine_process.EngineCrashed, match="the run is stopping"):
            engine._keeper_started()
    finally:
        engine_process.allow_starts()


def test_two_threads_ending_one_keeper_count_it_once_without_a_stray_error():
    # The race behind a rare traceback on Ctrl-C with -j 1 (seen once in a full run): the main
    # thread's kill_all and the worker's kill of a failed engine both end its keeper, and one of
    # them read the keeper's report after the other had closed it. Here the first end is held
    # inside the report's reading while the second begins, so without a lock they overlap.
    import threading
    import time
    from conformance.runner import engine_process
    engine = engine_process.EngineProcess([sys.executable, "-m", "conformance.reference_engine"], 10.0)
    engine.start()
    assert engine.kept and engine._report is not None
    process, read_left, inside = engine.process, engine._read_left, threading.Event()

    def held_read_left():
        inside.set()
        time.sleep(0.3)
        return read_left()

    engine._read_left = held_read_left
    errors: list[BaseException] = []

    def end_keeper():
        try:
            engine._end_keeper(process, time.monotonic() + 5)
        except BaseException as exc:  # noqa: BLE001 - the failure this test is about
            errors.append(exc)

    engine.kill_group()
    first = threading.Thread(target=end_keeper)
    first.start()
    assert inside.wait(10)
    end_keeper()                        # the second end, while the first is reading
    first.join(10)
    engine._read_left = read_left
    engine.stop()
    assert errors == [] and engine._report is None
