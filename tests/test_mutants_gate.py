"""CI gate: every mutant engine (the reference with one seeded rule bug) is caught by the
corpus, on a rule (a `fail`), not by crashing."""

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conformance.cases import load_cases, load_corpus_meta
from conformance.corpus_tools.mutation import mutants, run_mutants

ROOT = Path(__file__).resolve().parent.parent


def test_there_are_at_least_25_mutants_each_documented():
    found = mutants()
    assert len(found) >= 25
    assert all(bug.endswith(".") and len(bug) > 20 for bug in found.values()), found


EXPECTED = yaml.safe_load((ROOT / "tests" / "mutant_clauses.yaml").read_text(encoding="utf-8"))


def test_every_mutant_is_listed_once_with_the_rule_it_breaks():
    sections = [set(EXPECTED["breaks"]), set(EXPECTED["no-rule"])]
    assert set().union(*sections) == set(mutants())
    assert sum(len(s) for s in sections) == len(mutants())


@pytest.mark.timeout(900)   # a hang guard with room for a loaded machine: its CPU times five exceeded the suite's 300 s
def test_every_mutant_is_caught_and_its_first_failure_cites_the_broken_rule():
    """Caught on a rule (a `fail`), and the first failure, the one a user reads, cites the
    rule the mutant breaks (tests/mutant_clauses.yaml), with no internal error."""
    cases, _ = load_cases(tags=load_corpus_meta().tags)
    results = run_mutants(cases, jobs=2)
    missed = [f"{r.name} ({r.status})" for r in results if not r.caught]
    assert not missed, missed
    internal = {r.name: r.caught_by.internal_error for r in results if r.caught_by.internal_error}
    assert not internal, internal
    cited = {r.name: (r.caught_by.failure.clause or {}).get("id") for r in results}
    wrong = {name: (cited[name], EXPECTED["breaks"][name]) for name in EXPECTED["breaks"]
             if cited[name] not in EXPECTED["breaks"][name]}
    assert not wrong, f"first failure cites another rule (cited, expected): {wrong}"


def test_the_mutants_command_reports_every_mutant_caught():
    chosen = ["bowers-*", "march-scored-one", "loners-partner-still-plays"]
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "mutants", "-j", "2",
                             *[a for name in chosen for a in ("--only", name)]], cwd=ROOT,
                            capture_output=True, text=True, timeout=900, env={"COLUMNS": "200", "PATH": ""})
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "mutation score 100%: 3 of 3 mutants caught" in result.stdout and "rule misere" in result.stdout


def test_a_mutant_engine_really_runs_the_reference_with_its_bug(tmp_path):
    """A mutant that does nothing would survive: the gate is not vacuous."""
    mutant = tmp_path / "no_bug_at_all.py"
    mutant.write_text('"""No bug: the reference engine as it is, which must survive."""\n\ndef apply() -> None:\n    pass\n')
    from conformance.cases import load_cases, load_corpus_meta
    from conformance.corpus_tools.mutation import run_mutant
    cases, _ = load_cases(tags=load_corpus_meta().tags)
    cases = [case for case in cases if case.variant in ("euchre", "two-hand")][:150]   # a sample: the gate runs them all
    result = run_mutant(str(mutant), "no bug", cases)
    assert result.status == "survived" and result.cases_run == len(cases)
