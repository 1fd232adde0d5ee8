"""euchre-cli 0.7.0, a terminal game driven through tools/adapters/euchre_cli_engine.py, is rejected by the corpus.

The adapter runs euchre-cli's own game loop in a worker thread with scripted players; this
checks that a whole run goes through it cleanly (a complete JSON Lines report, no crash,
timeout or error of the adapter's making) and that the suite catches euchre-cli's deviations
(no going alone, round 2 limited to the suits held, five cards dealt at a time).
"""

import json
import subprocess
import sys
from collections import Counter
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _euchre_cli_version() -> str | None:
    try:
        return metadata.version("euchre-cli")
    except metadata.PackageNotFoundError:
        return None


@pytest.mark.skipif(_euchre_cli_version() is None,
                    reason="euchre-cli is not installed (pip install euchre-cli==0.7.0)")
def test_the_suite_rejects_euchre_cli(tmp_path):
    report = tmp_path / "euchre-cli.jsonl"
    engine = f"{sys.executable} tools/adapters/euchre_cli_engine.py"
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "check", "--engine", engine,
                             "--variant", "euchre", "--json", str(report)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    lines = [json.loads(line) for line in report.read_text().splitlines()]

    # A complete report: a header, one line per case, a footer that counts them.
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "footer", (lines[:1], lines[-1:])
    header, footer, cases = lines[0], lines[-1], lines[1:-1]
    assert all(line["type"] == "case" for line in cases)
    assert footer["cases"] == len(cases) == len({case["id"] for case in cases})
    assert footer["counts"] == {**{k: 0 for k in footer["counts"]}, **Counter(case["outcome"] for case in cases)}
    assert header["engine"]["name"] == "euchre-cli (adapter)" and header["engine"]["version"] == "0.7.0"

    # Nothing of the adapter's making: case files the corpus cannot read are not the engine's doing.
    played = [case for case in cases if not case["id"].startswith("unreadable:")]
    broken = [(case["id"], case["outcome"], case.get("failure", {}).get("message")) for case in played
              if case["outcome"] in ("crash", "timeout", "error")]
    assert not broken, broken

    # The suite rejects euchre-cli.
    outcomes = Counter(case["outcome"] for case in played)
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    assert outcomes["fail"] >= 5, outcomes
    failures = {case["id"]: case["failure"] for case in played if case["outcome"] == "fail"}
    caught = {failure.get("field") for failure in failures.values()}
    assert {"phase", "legal"} <= caught, caught
    # No going alone: after trumps are made euchre-cli goes straight to the dealer's discard.
    assert any(f.get("field") == "phase" and f.get("expected") == "alone" and f.get("actual") == "discard"
               for f in failures.values()), failures
