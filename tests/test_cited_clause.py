"""A failure cites the rule the engine broke (traced in the reference, conformance/runner/cited_clause.py),
not the case's headline clause: bugs of several kinds are planted in engines (the reference with
one rule changed) and each failure on a field must cite the clause of that rule."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conformance.cases import load_cases, load_corpus_meta
from conformance.runner.run import run_cases
from conformance.runner.fields import TRACED_FIELDS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# engine (a mutant of the package, or a planted-bug file here) -> the clauses of the rule it breaks
# (one rule, under the names it has where an option or a lone hand puts another clause in force)
OPENING_LEAD = {"lead", "lone-lead", "lone-lead-eldest", "maker-leads", "maker-leads-alone"}
PLANTED = {
    str(HERE / "planted_bugs" / "left_bower_plain.py"): {"left-bower-is-trump"},   # the left bower a plain card
    str(HERE / "planted_bugs" / "dealer_leads_first.py"): OPENING_LEAD,             # a wrong opening leader
    "left-bower-not-trump-when-following": {"left-bower-is-trump"},
    "march-scored-one": {"march"},                                                 # scoring
    "euchre-scored-one": {"euchre"},
    "lone-march-scored-two": {"lone-march"},
    "dealer-does-not-pick-up": {"dealer-pickup"},
    "reneging-allowed": {"follow-suit"},
    "lone-lead-ignored": {"lone-lead"},
    "turned-down-suit-callable": {"turned-down-suit"},
    "stuck-dealer-may-pass": {"stick-the-dealer"},                                 # an option's clause
    "game-target-off-by-one": {"game-target"},
    "bowers-swapped": {"rank-trump"},
    "canadian-loner-not-forced": {"canadian-loner"},                               # a step the rules settle
    "sitting-out-dealer-exchanges": {"sitting-out-dealer"},
    "leader-keeps-the-lead": {"trick-winner"},
    "lone-defence-offered-once": {"defending-alone"},
    "loners-partner-still-plays": {"going-alone"},                                 # a lone hand's partner plays
    "sitting-out-seat-may-act": {"going-alone", "defending-alone"},               # a seat that sits out asked to play
}

# one worker runs the module, so that its tests read each engine's one run (results_on_euchre)
pytestmark = pytest.mark.xdist_group("cited-clause")


@pytest.fixture(scope="module")
def euchre_cases():
    cases, _ = load_cases(tags=load_corpus_meta().tags)
    # perft counts have no field to trace: a count is the sum of every rule
    return [c for c in cases if c.variant == "euchre" and "perft" not in c.tags]


@pytest.fixture(scope="module")
def results_on_euchre(euchre_cases):
    """Each planted engine's results on the Euchre cases, run once for the whole module: the
    tests below read the same run (a run of the corpus costs seconds of CPU per engine)."""
    runs: dict[str, list] = {}

    def results(engine: str) -> list:
        if engine not in runs:
            argv = [sys.executable, "-m", "conformance.mutants", engine]
            runs[engine] = list(run_cases(euchre_cases, argv, jobs=1))
        return runs[engine]
    return results


@pytest.mark.parametrize("engine,clause", sorted(PLANTED.items()), ids=lambda v: Path(v).stem if "/" in v else v)
def test_each_failure_cites_the_broken_rule(results_on_euchre, engine, clause):
    failures = [r for r in results_on_euchre(engine) if r.outcome == "fail"]
    traced = [r for r in failures if r.failure.field in TRACED_FIELDS or r.failure.field is None and r.failure.action]
    assert traced, f"the planted bug made no case fail on a field ({len(failures)} failures)"
    cited = Counter(r.failure.clause["id"] for r in traced)
    wrong = {r.case.id: (r.failure.field, r.failure.clause["id"], r.case.clauses) for r in traced
             if r.failure.clause["id"] not in clause}
    assert not any(r.failure.internal_error for r in traced)
    # The first failure, the one a user reads first, cites the broken rule.
    assert traced[0].failure.clause["id"] in clause, f"first: {traced[0].case.id}: {traced[0].failure.describe()}"
    # A reading can fit two rules by chance (all cards legal either way): allow one in ten of the rest.
    assert sum(cited[c] for c in clause) >= 0.9 * len(traced), f"{cited}; wrong: {wrong}"
    # the case's own clauses are kept beside the cited one
    assert all(r.failure.case_clauses == r.case.clauses for r in traced)


def test_the_cited_clause_differs_from_the_headline(results_on_euchre):
    """The point of the trace: with a left-bower bug most failing cases are not about the left bower."""
    engine = str(HERE / "planted_bugs" / "left_bower_plain.py")
    failures = [r for r in results_on_euchre(engine) if r.outcome == "fail" and r.failure.field == "legal"]
    headline_elsewhere = [r for r in failures if r.case.clauses[0] != "left-bower-is-trump"]
    assert headline_elsewhere and all(r.failure.clause["id"] == "left-bower-is-trump" for r in headline_elsewhere)
    text = headline_elsewhere[0].failure.describe()
    assert "rule left-bower-is-trump" in text and "the case is about: " in text


# -- an internal error on the way to a verdict is reported, never swallowed ---------------------------
PLANT_TRACER_BUG = """
import sys
import conformance.runner.cited_clause as cited_clause

def broken(self, *args, **kwargs):
    raise RuntimeError("planted bug in the tracer")

cited_clause.ClauseTracer.cite = broken
from conformance.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_tracer_failure_is_reported_for_the_case_and_in_the_exit_status(tmp_path):
    """A bug of the tracer (planted) must not leave a failure quietly citing its step's clause:
    the failure, the console, the JSON report and the exit status (3, an internal error) say so."""
    engine = f"{sys.executable} -m conformance.mutants march-scored-one"
    report = tmp_path / "report.jsonl"
    run = subprocess.run([sys.executable, "-c", PLANT_TRACER_BUG, "check", "--engine", engine, "--variant", "euchre",
                          "--case", "*march*", "--json", str(report)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 3, run.stdout + run.stderr
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    failed = [line for line in lines if line["type"] == "case" and line["outcome"] == "fail"]
    assert failed and all("planted bug in the tracer" in line["failure"]["internal_error"] for line in failed)
    footer = lines[-1]
    assert footer["type"] == "footer" and footer["exit_code"] == 3
    assert sorted(footer["internal_errors"]) == sorted(line["id"] for line in failed)
    assert "INTERNAL ERROR of euchre-spec" in run.stdout and "internal error of euchre-spec" in run.stderr + run.stdout


def test_without_a_tracer_failure_there_is_no_internal_error(results_on_euchre):
    results = [r for r in results_on_euchre("march-scored-one") if "march" in r.case.clauses]
    assert results
    assert any(r.outcome == "fail" for r in results)
    assert not any(r.internal_error for r in results)
