"""The cases ``identify`` writes for the deviations that remain (issue 33): each names the
options it was derived under (the house rules identified, not the options sent), passes on
the reference, fails on the engine, and is accepted by ``corpus lint``. The engines: the
reference with house rules of its own (it plays game-target 5 whatever it is sent) and one
rule bug no option explains, for two mutants."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cases import load_cases
from conformance.runner.run import run_cases
from conformance.runner.engine_process import engine_command
from conformance.corpus_tools.lint import lint

ROOT = Path(__file__).resolve().parent.parent
FIXED = {"game-target": 5}


@pytest.mark.parametrize("mutant", ["bowers-swapped", "turned-down-suit-callable"])
def test_identify_writes_cases_that_catch_the_engine_under_the_identified_options(tmp_path, mutant):
    engine = [sys.executable, str(ROOT / "tests" / "faulty_engines" / "fixed_options.py"), json.dumps({"euchre": FIXED}),
              mutant]
    command = " ".join([engine[0], engine[1], json.dumps(engine[2]), mutant])
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "identify", "--engine", command, "--variant", "euchre",
                             "--check-hands", "200", "--shrink-time", "5", "--out", "cases", "--json", "id.json"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert result.returncode == 1, result.stdout + result.stderr
    identified = json.loads((tmp_path / "id.json").read_text(encoding="utf-8"))["results"][0]
    assert identified["house_rules"] == FIXED, result.stdout
    written = sorted((tmp_path / "cases").glob("*.yaml"))
    assert written, "the mutant's bug remains, and is written as a case\n" + result.stdout
    assert [d["case"] for d in identified["deviations"] if d["case"]] == [f"cases/{p.name}" for p in written]
    cases, problems = load_cases(written)
    assert problems == []
    for case in cases:
        assert case.options == FIXED, f"{case.id}: written with the options it was derived under"
    on_reference = {r.case.id: r.outcome for r in run_cases(cases, engine_command("reference"))}
    on_engine = {r.case.id: r.outcome for r in run_cases(cases, engine)}
    assert set(on_reference.values()) == {"pass"}, on_reference
    assert set(on_engine.values()) <= {"fail", "error"} and on_engine, on_engine
    assert lint(jobs=1, paths=written).problems == []
