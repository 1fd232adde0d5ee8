"""euchrelib 0.0.2, a known non-conformant engine, is rejected by the corpus."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_suite_rejects_euchrelib(tmp_path):
    pytest.importorskip("euchrelib", reason="pip install euchrelib==0.0.2 dacite importlib_resources")
    report = tmp_path / "euchrelib.jsonl"
    engine = f"{sys.executable} tools/adapters/euchrelib_engine.py"
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "check", "--engine", engine, "--json", str(report)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 1
    cases = [json.loads(line) for line in report.read_text().splitlines() if '"type": "case"' in line]
    outcomes = Counter(case["outcome"] for case in cases)
    assert outcomes["pass"] == 0 and outcomes["fail"] >= 10, outcomes
    assert set(outcomes) <= {"fail", "unsupported", "skipped"}, outcomes       # it never crashes: it is just wrong
    caught = {case["failure"].get("field") or case["failure"]["message"].split(":")[0] for case in cases if case["outcome"] == "fail"}
    assert {"to_act", "phase", "error"} <= caught, caught
