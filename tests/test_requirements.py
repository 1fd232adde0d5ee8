"""A case needs only what its script reaches: each case's ``requires:`` is what replaying it
under every other option value on the reference shows, lint says when it is stale, the runner
runs a case on an engine declaring what it requires (at the engine's values for the rest),
and ``check --generate N`` checks an engine on cases made for exactly what it declares."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cases import load_case_file, load_corpus_meta
from conformance.corpus_tools.generate import load_profiles
from conformance.corpus_tools.generated_check import generated_cases, random_selection
from conformance.corpus_tools.lint import lint
from conformance.runner.adapt import adapted, under
from conformance.runner.declared import allows
from conformance.corpus_tools.requirements import as_requirement, compute, stale, write_requirements
from conformance.runner.declared import unsupported_needs
from reference_impl.errors import SpecError

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "conformance" / "corpus"
ENGINE = Path(__file__).resolve().parent / "claim_engines" / "declared_engine.py"


def case_at(path: Path):
    cases, problems = load_case_file(path, load_corpus_meta().tags)
    assert not problems and len(cases) == 1, problems
    return cases[0]


def test_an_option_the_script_never_reaches_is_not_required():
    # Nobody goes alone in this hand (seat 2 assists, the hand is played four-handed): the
    # lone-defence, lone-lead and scoring-of-lone-hands options cannot change a thing in it.
    case = case_at(CORPUS / "euchre" / "assist-made-four-tricks.yaml")
    needed = compute(case)["requires"]
    for unreached in ("defending-alone", "lone-lead", "lone-march-points", "lone-euchre-points", "super-euchre"):
        assert unreached not in needed
    # The maker's side is offered "alone" with its bid, and the dealer discards: reached. The
    # assist is the dealer's partner ordering up, whose choice the Canadian loner rule changes.
    assert needed["going-alone"] is True and needed["dealer-discard"] == "any" and needed["canadian-loner"] is False
    # A game to 1 ends with the point this hand scores; to 10 or 11 it goes on.
    assert allows(needed["game-target"], 10) and allows(needed["game-target"], 11) and not allows(needed["game-target"], 1)


def test_the_rule_a_case_is_about_is_required_at_its_value():
    case = case_at(next(CORPUS.rglob("egn-lone-lead-eldest-leads.yaml")))
    assert compute(case)["requires"]["lone-lead"] == "eldest"


def test_requirements_of_a_range_are_runs_of_agreeing_values():
    option = {"default": 10, "choices": [{"value": 0}], "range": {"minimum": 1, "maximum": 1000}}
    tried = [(10, True), (0, True), (1, False), (2, True), (3, True), (1000, True), (5, False)]
    assert as_requirement(option, tried, 10) == [0, {"minimum": 2, "maximum": 3}, {"minimum": 10, "maximum": 1000}]
    assert as_requirement({"default": False, "choices": [{"value": False}, {"value": True}]}, [(False, True), (True, False)], False) is False


def test_a_stale_or_missing_requirement_is_a_lint_problem_and_write_fixes_it(tmp_path):
    source = CORPUS / "euchre" / "assist-made-four-tricks.yaml"
    target = tmp_path / source.name
    text = source.read_text(encoding="utf-8")
    line = next(l for l in text.splitlines() if l.startswith("requires:"))
    # the gate broken once: a requirement widened by hand, then one taken away
    target.write_text(text.replace(line, line.replace("going-alone: true", "going-alone: [true, false]")), encoding="utf-8")
    report = lint(jobs=1, paths=[tmp_path], variants=["euchre"])
    assert any("stale requires: requires going-alone=[true, false], but the values its script allows are true" in p
               for p in report.problems), report.problems
    target.write_text(text.replace(line + "\n", ""), encoding="utf-8")
    case = case_at(target)
    assert "states no requires:" in stale(case, compute(case))
    assert write_requirements([case], {case.id: compute(case)}) == [str(target)]
    rewritten = target.read_text(encoding="utf-8")
    assert rewritten == text                           # the same line, in the same place; comments kept
    assert stale(case_at(target), compute(case)) is None


def test_an_engine_declaring_other_values_of_unreached_options_runs_the_case():
    case = case_at(CORPUS / "euchre" / "assist-made-four-tricks.yaml")
    hello = {"variants": {"euchre": {"options": {"defending-alone": [False], "lone-lead": ["eldest"]}}}}
    assert unsupported_needs(hello, case) == []
    played, why = adapted(hello, case)
    assert why is None and played.table.selected["defending-alone"] is False and played.table.selected["lone-lead"] == "eldest"
    # an option it reaches, declared at another value only, keeps it from running (the
    # Canadian loner rule would send seat 2, the dealer's partner who orders up, alone)
    needs = dict(unsupported_needs({"variants": {"euchre": {"options": {"canadian-loner": [True]}}}}, case))
    assert "canadian-loner" in needs and "canadian-loner=false" in needs["canadian-loner"]
    # one under whose other value a step of the script would not exist says so in the hint
    # (no going alone: the maker's decision not to, dropped; tests/test_requirements_dropped.py)
    needs = dict(unsupported_needs({"variants": {"euchre": {"options": {"going-alone": []}}}}, case))
    assert needs["going-alone"].startswith("option going-alone=true (or false, the steps that table lacks dropped) is not declared")
    # one that changes only its legal sets says so in the hint
    needs = dict(unsupported_needs({"variants": {"euchre": {"options": {"reneging": []}}}}, case))
    assert needs["reneging"].startswith("option reneging=forbidden (or claimed, its legal sets re-derived) is not declared")


def test_a_case_stating_no_requirements_needs_every_option_it_was_made_under():
    case = under(case_at(CORPUS / "euchre" / "assist-made-four-tricks.yaml"), {"lone-lead": "eldest"})
    assert unsupported_needs({"variants": {"euchre": {}}}, case) == []          # its requires: lone-lead unreached
    case.data = {k: v for k, v in case.data.items() if k != "requires"}
    assert "lone-lead" in dict(unsupported_needs({"variants": {"euchre": {}}}, case))


def test_the_generator_profiles_are_checked(tmp_path):
    assert "seeds" in load_profiles()["variants"]["euchre"]
    bad = tmp_path / "profiles.yaml"
    bad.write_text("version: 1\nhands: 1\ngames: 1\npairwise-hands: 1\npairwise-games: 1\n"
                   "variants:\n  euchre:\n    odd: {options: {stick-the-dealer: maybe}}\n", encoding="utf-8")
    with pytest.raises(SpecError) as raised:
        load_profiles(bad)
    assert "variants.euchre.odd.options" in str(raised.value) and "stick-the-dealer" in str(raised.value)


def test_generated_cases_keep_to_the_declaration_and_are_reproducible(tmp_path):
    hello = {"variants": {"euchre": {"options": {"stick-the-dealer": [True], "game-target": [{"minimum": 5, "maximum": 7}]}}},
             "commands": []}
    first = generated_cases(hello, 6, 3, tmp_path)
    again = generated_cases(hello, 6, 3, tmp_path)
    assert [text for _, text in first] == [text for _, text in again]
    assert [text for _, text in first] != [text for _, text in generated_cases(hello, 6, 4, tmp_path)]
    for case, _ in first:
        assert case.table.selected["stick-the-dealer"] is True and 5 <= case.table.selected["game-target"] <= 7
        assert not any("deck" in hand["deal"] for hand in case.hands)          # deal-deck not declared
    import random
    picked = random_selection(random.Random(1), "euchre", {"lone-lead": ["eldest"]})
    assert picked["lone-lead"] == "eldest" and picked["stick-the-dealer"] is False     # undeclared: the default


def run_check(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", "check", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600, env={"COLUMNS": "200", "PATH": "", "PYTHONPATH": str(ROOT)})


def test_check_generate_catches_a_mutant_with_generated_cases_alone(tmp_path):
    mutant = f"{sys.executable} -m conformance.mutants left-bower-follows-printed-suit"
    done = run_check("--engine", mutant, "--case", "no-such-case", "--variant", "euchre", "--generate", "16",
                     "--seed", "1", "--json", "r.jsonl", cwd=tmp_path)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    lines = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    results = [line for line in lines if line.get("type") == "case"]
    assert len(results) == 16 and all(r["id"].startswith("check-gen-euchre-1-") for r in results)
    failed = sorted(r["id"] for r in results if r["outcome"] == "fail")
    assert failed
    written = sorted(p.stem for p in (tmp_path / "euchre-spec-generated").glob("*.yaml"))
    assert written == failed and f"{len(failed)} failing, written to euchre-spec-generated" in done.stdout
    # the cases written out are corpus cases: the reference passes them, the mutant fails them again
    folder = str(tmp_path / "euchre-spec-generated")
    assert run_check("--engine", "reference", "--corpus", folder, "--json", "r2.jsonl", cwd=tmp_path).returncode == 0
    assert run_check("--engine", mutant, "--corpus", folder, "--json", "r3.jsonl", cwd=tmp_path).returncode == 1


def test_check_generate_on_a_declared_engine_runs_its_own_rules(tmp_path):
    declared = {"euchre": {"options": {"stick-the-dealer": [True], "defending-alone": [False]}}}
    engine = f"{sys.executable} {ENGINE} '{json.dumps(declared)}'"
    done = run_check("--engine", engine, "--case", "no-such-case", "--generate", "6", "--json", "r.jsonl",
                     "--generated-out", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    results = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    results = [r for r in results if r.get("type") == "case"]
    assert len(results) == 6 and {r["outcome"] for r in results} == {"pass"}
    assert all(r["options"].get("stick-the-dealer") is True for r in results)
    assert not (tmp_path / "out").exists()                # nothing failed, nothing written
    shutil.rmtree(tmp_path / "reports", ignore_errors=True)


def test_corpus_stats_counts_cases_per_requirement():
    done = subprocess.run([sys.executable, "-m", "conformance.cli", "corpus", "stats"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={"COLUMNS": "250", "PATH": ""})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Cases per requirement" in done.stdout and "euchre: the defaults" in done.stdout
    assert "euchre: dealer-discard=not-upcard" in done.stdout       # the profile whose every dealer reaches it
    dropped = done.stdout.split("Cases per value it runs under with steps dropped")[1].split("Cases per tag")[0]
    assert "euchre: going-alone=false" in dropped                     # the maker's declined lone hand, dropped
    line = next(l for l in done.stdout.splitlines() if l.startswith("runnable with the default options"))
    ran, total = map(int, line.split(" euchre ")[1].split(",")[0].split(" of "))
    assert total > 300 and ran * 100 >= 60 * total                 # the target, for the defaults


UPCARD_BURIED_ANYWAY = Path(__file__).resolve().parent / "claim_engines" / "upcard_buried_anyway.py"


def test_values_that_change_only_legal_sets_are_stored_and_lint_checks_them(tmp_path):
    # By hand from the rules: dealer 0 takes the 9S up and buries the 9H. Were the upcard never
    # buried, his legal discards would lack the 9S, and nothing else would change: the 9H may
    # still be buried and every observation and point is the same. Were no one allowed to go
    # alone, the maker's alone decision (a step of the script) would not exist: not re-derivable.
    source = CORPUS / "euchre" / "assist-made-four-tricks.yaml"
    found = compute(case_at(source))
    assert found["requires"]["dealer-discard"] == "any" and found["legal_sets_rederived"]["dealer-discard"] == "not-upcard"
    assert "going-alone" not in found["legal_sets_rederived"]
    text = source.read_text(encoding="utf-8")
    line = next(l for l in text.splitlines() if l.startswith("legal_sets_rederived:"))
    target = tmp_path / source.name
    # the gate broken once: the stored values taken away, then widened by hand
    target.write_text(text.replace(line + "\n", ""), encoding="utf-8")
    assert "does not state that under dealer-discard=not-upcard only its legal sets differ" in stale(case_at(target), found)
    target.write_text(text.replace(line, line.replace("dealer-discard: not-upcard", "dealer-discard: [not-upcard, any]")),
                      encoding="utf-8")
    report = lint(jobs=1, paths=[tmp_path], variants=["euchre"])
    assert any("states legal_sets_rederived dealer-discard=[not-upcard, any], but the values that change only its legal "
               "sets are not-upcard" in p for p in report.problems), report.problems
    assert write_requirements([case_at(target)], {"assist-made-four-tricks": found}) == [str(target)]
    assert target.read_text(encoding="utf-8") == text


def test_an_engine_declaring_such_a_value_runs_the_case_with_the_sets_re_derived_and_checked(tmp_path):
    source = CORPUS / "euchre" / "assist-made-four-tricks.yaml"
    folder = tmp_path / "cases"
    folder.mkdir()
    shutil.copy(source, folder / source.name)
    claim = {"euchre": {"options": {"dealer-discard": ["not-upcard"]}}}
    assert unsupported_needs({"variants": claim}, case_at(source)) == []
    played, why = adapted({"variants": claim}, case_at(source))
    discard = played.hands[0]["steps"][5]
    assert why is None and discard["action"] == "discard:9H" and "discard:9S" not in discard["legal"]
    assert sorted(discard["legal"]) == sorted(["discard:9H", "discard:TH", "discard:9D", "discard:TD", "discard:AC"])
    # an engine playing the rule it declares passes, and the result says which set was re-derived and why
    engine = f"{sys.executable} {ENGINE} '{json.dumps(claim)}'"
    done = run_check("--engine", engine, "--corpus", str(folder), "--json", "r.jsonl", cwd=tmp_path)
    result = next(json.loads(l) for l in (tmp_path / "r.jsonl").read_text().splitlines() if '"type": "case"' in l)
    assert done.returncode == 0 and result["outcome"] == "pass", done.stdout[-2000:]
    assert "legal sets re-derived on the reference at hand 1 step 6: under dealer-discard=not-upcard" in result["detail"]
    # the gate broken once: an engine claiming the rule but letting the dealer bury the upcard
    # fails at that very step, on the re-derived set
    done = run_check("--engine", f"{sys.executable} {UPCARD_BURIED_ANYWAY}", "--corpus", str(folder), "--json", "r2.jsonl",
                     cwd=tmp_path)
    result = next(json.loads(l) for l in (tmp_path / "r2.jsonl").read_text().splitlines() if '"type": "case"' in l)
    assert done.returncode == 1 and result["outcome"] == "fail", done.stdout[-2000:]
    failure = result["failure"]
    assert failure["field"] == "legal" and failure["hand"] == 1 and failure["step"] == 6
    assert "discard:9S" in failure["actual"] and "discard:9S" not in failure["expected"]
