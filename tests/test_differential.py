"""A small sample of the differential run against OpenSpiel (tools/differential.py runs
100,000 hands per setting; CI runs a few hundred)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_reference_and_openspiel_agree_on_a_sample_of_hands():
    pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel) is the other engine")
    result = subprocess.run([sys.executable, "tools/differential.py", "--hands", "300", "--seed", "7"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no divergence in 600 hands" in result.stdout


def test_the_differential_tool_reports_a_divergence(tmp_path):
    """With a rule changed on our side only, the tool must stop at the first divergence."""
    pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel) is the other engine")
    script = tmp_path / "diverge.py"
    script.write_text(
        "import sys, runpy\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from reference_impl.rules import Rules\n"
        "original = Rules.__init__\n"
        "def patched(self, resolved):\n"
        "    original(self, resolved)\n"
        "    self.lone_lead = 'maker-left'\n"
        "Rules.__init__ = patched\n"
        f"sys.argv = ['differential.py', '--hands', '400', '--seed', '3']\n"
        f"runpy.run_path({str(ROOT / 'tools' / 'differential.py')!r}, run_name='__main__')\n")
    result = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert "DIVERGENCE: seed" in result.stdout and "seat to act" in result.stdout
