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
    # Since a case needs only the options its script reaches, euchrelib runs cases whose script
    # never meets its defects (it refuses a round-1 call of another suit, as it must): a few pass,
    # far more fail.
    assert outcomes["fail"] >= 10 and outcomes["pass"] * 10 < outcomes["fail"], outcomes
    assert set(outcomes) <= {"pass", "fail", "unsupported", "skipped"}, outcomes       # it never crashes: it is just wrong
    caught = {case["failure"].get("field") or case["failure"]["message"].split(":")[0] for case in cases if case["outcome"] == "fail"}
    assert {"to_act", "phase", "error"} <= caught, caught
