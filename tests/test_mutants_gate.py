"""CI gate: every mutant engine (the reference with one seeded rule bug) is caught by the
corpus, on a rule (a `fail`), not by crashing."""

import subprocess
import sys
from pathlib import Path

from conformance.mutation import mutants

ROOT = Path(__file__).resolve().parent.parent


def test_there_are_at_least_25_mutants_each_documented():
    found = mutants()
    assert len(found) >= 25
    assert all(bug.endswith(".") and len(bug) > 20 for bug in found.values()), found


def test_every_mutant_is_caught():
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "mutants", "-j", "2"], cwd=ROOT,
                            capture_output=True, text=True, timeout=900, env={"COLUMNS": "200", "PATH": ""})
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert f"mutation score 100%: {len(mutants())} of {len(mutants())} mutants caught" in result.stdout


def test_a_mutant_engine_really_runs_the_reference_with_its_bug(tmp_path):
    """A mutant that does nothing would survive: the gate is not vacuous."""
    mutant = tmp_path / "no_bug_at_all.py"
    mutant.write_text('"""No bug: the reference engine as it is, which must survive."""\n\ndef apply() -> None:\n    pass\n')
    from conformance.cases import load_cases, load_corpus_meta
    from conformance.mutation import run_mutant
    cases, _ = load_cases(tags=load_corpus_meta().tags)
    cases = [case for case in cases if case.variant in ("euchre", "two-hand")][:150]   # a sample: the gate runs them all
    result = run_mutant(str(mutant), "no bug", cases)
    assert result.status == "survived" and result.cases_run == len(cases)
