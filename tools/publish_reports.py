#!/usr/bin/env python3
"""Run the corpus against the reference engine and every adapted engine, and write their
JSON Lines reports where the rules site's compliance page reads them
(docs/compliance/reports/). Run it after the corpus changes, and commit the reports.

An engine whose dependencies are not installed is left out with a message; its previous
report, if any, is removed rather than left stale.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "docs" / "compliance" / "reports"
PY = sys.executable

# name -> (engine command, extra check arguments, what it needs)
ENGINES = {
    "reference": (["reference"], [], None),
    "javascript": ([f"node {ROOT / 'tools/engines/js/engine.js'}"], ["--variant", "euchre"], "node"),
    "openspiel": ([f"{PY} {ROOT / 'tools/adapters/openspiel_engine.py'}"], ["--variant", "openspiel"], "pyspiel"),
    "openspiel-on-standard-euchre": ([f"{PY} {ROOT / 'tools/adapters/openspiel_engine.py'}"], ["--variant", "euchre"], "pyspiel"),
    "euchrelib": ([f"{PY} {ROOT / 'tools/adapters/euchrelib_engine.py'}"], ["--variant", "euchre"], "euchrelib"),
    "euchre-cli": ([f"{PY} {ROOT / 'tools/adapters/euchre_cli_engine.py'}"], ["--variant", "euchre"], "euchre.command.play"),
}


def available(need: str | None) -> bool:
    if need is None:
        return True
    if need == "node":
        return shutil.which("node") is not None
    try:
        return importlib.util.find_spec(need) is not None
    except ModuleNotFoundError:
        return False


def main() -> int:
    REPORTS.mkdir(parents=True, exist_ok=True)
    for name, (engine, extra, need) in ENGINES.items():
        report = REPORTS / f"{name}.jsonl"
        if not available(need):
            print(f"{name}: skipped ({need} is not available)")
            report.unlink(missing_ok=True)
            continue
        result = subprocess.run([PY, "-m", "conformance.cli", "check", "--engine", *engine, "-j", "2",
                                 "--json", str(report), *extra], cwd=ROOT, capture_output=True, text=True)
        footer = json.loads(report.read_text().splitlines()[-1]) if report.exists() else {}
        counts = {k: v for k, v in footer.get("counts", {}).items() if v}
        print(f"{name}: exit {result.returncode}, {counts or result.stderr[-300:]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
