"""The adapter in the tutorial (docs/adapter-tutorial.md) is real: run as the page gives it,
it passes the hand-written Euchre cases it claims, and reports the others unsupported."""

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "adapter-tutorial.md"


def test_tutorial_adapter_passes_the_cases_it_claims(tmp_path):
    code = re.search(r"```python\n(.*?)```", TUTORIAL.read_text(encoding="utf-8"), re.S).group(1)
    adapter = tmp_path / "my_adapter.py"
    adapter.write_text(code, encoding="utf-8")
    report = tmp_path / "report.jsonl"
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "check", "--engine", f"{sys.executable} {adapter}",
                             "--corpus", str(ROOT / "conformance" / "corpus" / "euchre"), "--json", str(report)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    outcomes = [json.loads(line)["outcome"] for line in report.read_text().splitlines() if '"type": "case"' in line]
    assert set(outcomes) <= {"pass", "unsupported"}
    assert outcomes.count("pass") >= 10
