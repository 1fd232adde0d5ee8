"""The mutant gate: every mutant engine (the reference with one seeded rule bug) is caught by
the corpus on a rule (a `fail`), not by crashing, and cites the rule it breaks. The whole gate
runs in CI on the installed build (tools/mutant_gate.py in .ci/check-wheel); here its parts."""

import json
import subprocess
import sys
from pathlib import Path

import yaml

from conformance.corpus_tools.mutation import mutants

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


GATE = ROOT / "tools" / "mutant_gate.py"


def gate_tool():
    """tools/mutant_gate.py as a module (tools/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("mutant_gate", GATE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_gate_names_every_way_a_mutant_can_fail_it():
    """The whole gate runs in CI on the build users install (.ci/check-wheel); its judge is
    checked here on records of every kind, each problem named once with its mutant."""
    judge = gate_tool().judge
    catalogue = sorted(mutants())
    good = {name: {"status": "caught", "outcome": "fail", "case": "a-case", "internal_error": None,
                   "clause": (EXPECTED["breaks"].get(name) or [None])[0]} for name in catalogue}
    assert judge(good, EXPECTED, catalogue) == []
    name, other = "bowers-swapped", "march-scored-one"
    broken_ways = {
        "no record": lambda records: records.pop(name),
        "survived the whole corpus": lambda records: records[name].update(status="survived", outcome=None, case=None),
        "was not caught on a rule": lambda records: records[name].update(status="broken", outcome="crash"),
        "an internal error": lambda records: records[name].update(internal_error="KeyError: 'x'"),
        "cites 'march'": lambda records: records[name].update(clause="march"),
    }
    for said, breaking in broken_ways.items():
        records = {key: dict(value) for key, value in good.items()}
        breaking(records)
        problems = judge(records, EXPECTED, catalogue)
        assert len(problems) == 1 and problems[0].startswith(name + ":") and said in problems[0], (said, problems)
    unlisted = {**good, "a-new-mutant": dict(good[other])}
    assert judge(unlisted, EXPECTED, catalogue) == ["a-new-mutant: not listed in mutant_clauses.yaml with the rule it breaks"]


def test_the_gate_runs_mutants_and_fails_when_a_first_failure_cites_another_rule(tmp_path):
    """Two mutants run on the corpus in this build; judged against the real list they pass,
    against a list that names another rule for one of them the gate exits 1 and names it."""
    gate = gate_tool()
    chosen = ["bowers-swapped", "march-scored-one"]
    records = gate.run_records(chosen)
    assert set(records) == set(chosen) and all(r["status"] == "caught" for r in records.values()), records
    side = tmp_path / "installed.jsonl"
    side.write_text("\n".join(json.dumps(["mutants", name, record]) for name, record in records.items()) + "\n")
    only = [arg for name in chosen for arg in ("--only", name)]
    assert gate.main(["--records", str(side), *only]) == 0
    wrong = yaml.safe_load(yaml.safe_dump(EXPECTED))
    wrong["breaks"]["bowers-swapped"] = ["march"]
    (tmp_path / "wrong.yaml").write_text(yaml.safe_dump(wrong), encoding="utf-8")
    assert gate.main(["--records", str(side), "--expected", str(tmp_path / "wrong.yaml"), *only]) == 1


def test_unreadable_records_or_rules_are_a_clear_error_not_a_verdict(tmp_path, capsys):
    gate = gate_tool()
    garbled = tmp_path / "garbled.jsonl"
    garbled.write_text('["build", "", "compiled"]\nnot json\n')
    no_breaks = tmp_path / "no-breaks.yaml"
    no_breaks.write_text("breaks: [bowers-swapped]\n")
    assert gate.main(["--records", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err
    assert gate.main(["--records", str(garbled)]) == 2
    assert "garbled.jsonl, line 2: not a record of tools/build_differential.py" in capsys.readouterr().err
    readable = tmp_path / "readable.jsonl"
    readable.write_text('["build", "", "compiled"]\n')
    assert gate.main(["--records", str(readable), "--expected", str(no_breaks)]) == 2
    assert "has no `breaks:` mapping" in capsys.readouterr().err


def test_ci_runs_the_gate_on_the_records_of_the_installed_build():
    """.ci/check-wheel keeps the build differential's records and judges its installed side:
    the mutants run once, in the compiled build."""
    script = (ROOT / ".ci" / "check-wheel").read_text(encoding="utf-8")
    lines = [line for line in script.splitlines() if not line.lstrip().startswith("#")]
    differential = next(i for i, line in enumerate(lines) if "tools/build_differential.py" in line)
    gate = next(i for i, line in enumerate(lines) if "tools/mutant_gate.py" in line)
    assert '--records "$work/differential"' in lines[differential] and "--parts" not in lines[differential]
    assert gate > differential and '--records "$work/differential/installed.jsonl"' in lines[gate]
    assert lines[gate].startswith('"$work/venv/bin/python"')


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
