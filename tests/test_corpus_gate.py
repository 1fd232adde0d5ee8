"""CI gate: every data file is valid and the whole corpus passes on the reference engine,
through the same command a user runs."""

import json
import subprocess
import sys
from pathlib import Path

from conformance.cases import case_files, load_cases, load_corpus_meta

ROOT = Path(__file__).resolve().parent.parent


def test_every_case_file_is_valid():
    cases, problems = load_cases(tags=load_corpus_meta().tags)
    assert problems == []
    assert len(cases) >= len(case_files()) >= 1


def test_the_corpus_passes_on_the_reference_engine(tmp_path):
    report = tmp_path / "report.jsonl"
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "check", "--engine", "reference", "-j", "2",
                             "--json", str(report)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "footer"
    outcomes = {line["id"]: line["outcome"] for line in lines if line["type"] == "case"}
    assert outcomes and set(outcomes.values()) == {"pass"}
    assert len(outcomes) == len(load_cases()[0])
