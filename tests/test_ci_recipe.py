"""The CI recipe of docs/ci.md works as written: its shell script, taken from the page, runs
the corpus against the JavaScript example engine and passes; against an engine with a
known failure it passes only while that failure is in the baseline, and fails on a new one."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "ci.md"
FAULTY = ROOT / "tests" / "faulty_engines"


def script_from_page(name: str) -> str:
    found = re.search(rf'```\w+ title="{re.escape(name)}"\n(.*?)```', PAGE.read_text(encoding="utf-8"), re.S)
    assert found, f"no code block titled {name} on {PAGE.name}"
    return found.group(1)


def run_recipe(folder: Path, engine: str, check_args: str = "") -> subprocess.CompletedProcess:
    script = folder / "check-engine.sh"
    script.write_text(script_from_page("check-engine.sh"))
    env = {**os.environ, "ENGINE": engine, "VENV": sys.prefix, "SUITE": str(ROOT), "CHECK_ARGS": check_args,
           "EUCHRE_SPEC_PROGRESS_EVERY": "0"}
    return subprocess.run(["sh", str(script)], cwd=folder, capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js (`node`) is not installed")
def test_the_recipe_passes_the_javascript_engine(tmp_path):
    done = run_recipe(tmp_path, f"node {ROOT / 'tools' / 'engines' / 'js' / 'engine.js'}", "--variant euchre")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "euchre-spec " in done.stdout and "(corpus " in done.stdout
    assert (tmp_path / "euchre-baseline.txt").exists()
    junit = (tmp_path / "euchre-reports" / "junit.xml").read_text()
    assert "<testsuite" in junit and 'name="euchre"' in junit
    assert re.search(r"^progress: \d+/\d+ cases, 0 failing", done.stdout, re.M), "progress lines without a terminal"


def test_the_recipe_fails_only_on_new_failures(tmp_path):
    engine = f"{sys.executable} {FAULTY / 'refuse.py'} illegal_action"     # refuses every action
    (tmp_path / "euchre-baseline.txt").write_text("made-three-tricks  # refuses every action\n")
    done = run_recipe(tmp_path, engine, "--case made-three-tricks --case assist-made-four-tricks")
    assert done.returncode == 1, done.stdout[-2000:]
    report = [json.loads(line) for line in (tmp_path / "euchre-reports" / "report.jsonl").read_text().splitlines()]
    outcomes = {line["id"]: line["outcome"] for line in report if line["type"] == "case"}
    assert outcomes == {"made-three-tricks": "expected-fail", "assist-made-four-tricks": "fail"}
    (tmp_path / "euchre-baseline.txt").write_text("made-three-tricks\nassist-made-four-tricks\n")
    done = run_recipe(tmp_path, engine, "--case made-three-tricks --case assist-made-four-tricks")
    assert done.returncode == 0, done.stdout[-2000:]
    # a baselined case that now passes is a warning naming the line to delete
    done = run_recipe(tmp_path, "reference", "--case made-three-tricks")
    assert done.returncode == 0 and "delete these lines" in done.stderr and "made-three-tricks" in done.stderr
