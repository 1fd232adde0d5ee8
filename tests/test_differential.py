"""tools/differential.py: `euchre-spec fuzz` on OpenSpiel's euchre (the full run plays
100,000 hands per setting; CI runs a few hundred)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "differential.py"), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env={"COLUMNS": "200", "PATH": ""})


def test_reference_and_openspiel_agree_on_a_sample_of_hands(tmp_path):
    pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel) is the other engine")
    result = run("--hands", "300", "--seed", "7", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("AGREED on every step of 300 hands") == 2
    assert "stuck dealer (no pass)" in result.stdout


def test_the_differential_tool_reports_a_divergence_as_a_case(tmp_path):
    """Held to standard Euchre's defaults, OpenSpiel diverges: the tool stops, shrinks and writes a case."""
    pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel) is the other engine")
    result = run("--hands", "400", "--seed", "3", "--variant", "euchre", "--out", "found", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "DIVERGENCE" in result.stdout and "shrunk from" in result.stdout
    assert list((tmp_path / "found").glob("fuzz-euchre-*.yaml"))
