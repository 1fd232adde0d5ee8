"""`euchre-spec check` options: selection, sharding, skip files and baselines, max-fail, and
the JSON Lines, JUnit and TAP reports."""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "conformance" / "corpus" / "euchre" / "made-three-tricks.yaml"


def check(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", "check", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def corpus(tmp_path):
    """Three cases: two that pass, one whose expectation is wrong."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    text = GOOD.read_text()
    (folder / "a.yaml").write_text(text.replace("id: made-three-tricks", "id: alpha-pass"))
    (folder / "b.yaml").write_text(text.replace("id: made-three-tricks", "id: beta-pass"))
    (folder / "c.yaml").write_text(text.replace("id: made-three-tricks", "id: gamma-fail")
                                   .replace("next_dealer: 1", "next_dealer: 2"))
    return folder


def report_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def outcomes(path: Path) -> dict[str, str]:
    return {line["id"]: line["outcome"] for line in report_lines(path) if line["type"] == "case"}


def test_reports_in_three_formats(corpus, tmp_path):
    jsonl, junit, tap = tmp_path / "r.jsonl", tmp_path / "r.xml", tmp_path / "r.tap"
    result = check("--engine", "reference", "--corpus", str(corpus), "--json", str(jsonl), "--junit", str(junit), "--tap", str(tap))
    assert result.returncode == 1
    lines = report_lines(jsonl)
    head, foot = lines[0], lines[-1]
    assert head["type"] == "header" and head["protocol"] == 1 and head["engine"]["name"] == "euchre-spec reference"
    assert head["suite"]["corpus_version"] and all(len(t["sha256"]) == 64 for t in head["tables"].values())
    assert foot["type"] == "footer" and foot["counts"]["pass"] == 2 and foot["counts"]["fail"] == 1 and foot["exit_code"] == 1
    failing = next(line for line in lines if line.get("id") == "gamma-fail")
    failure = failing["failure"]
    assert failure["field"] == "next_dealer" and failure["expected"] == 2 and failure["actual"] == 1
    # the clause behind next_dealer (the deal passes to the left: game-target), the case's own as context
    assert failure["clause"]["id"] == "game-target" and "seed document 001" in failure["clause"]["source_title"]
    assert failure["case_clauses"][0] == "made"
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("tests") == "3" and suite.get("failures") == "1"
    assert [c.get("name") for c in suite.iter("testcase") if c.find("failure") is not None] == ["gamma-fail"]
    tap_lines = tap.read_text().splitlines()
    assert tap_lines[:2] == ["TAP version 13", "1..3"] and "not ok 3 - gamma-fail" in tap_lines
    assert "gamma-fail" in result.stdout and "next_dealer" in result.stdout


def test_case_glob_and_variant_selection(corpus, tmp_path):
    jsonl = tmp_path / "r.jsonl"
    result = check("--engine", "reference", "--corpus", str(corpus), "--case", "*-pass", "--variant", "euchre", "--json", str(jsonl))
    assert result.returncode == 0
    assert outcomes(jsonl) == {"alpha-pass": "pass", "beta-pass": "pass"}
    # an unknown variant is refused as play refuses it (exit 1), in one line naming the known ones
    unknown = check("--engine", "reference", "--corpus", str(corpus), "--variant", "euchr")
    assert unknown.returncode == 1 and "unknown variant 'euchr' (known: " in unknown.stderr
    assert len(unknown.stderr.strip().splitlines()) == 1 and "Traceback" not in unknown.stderr
    # a known variant with no case in the selection is a usage matter (exit 2)
    assert check("--engine", "reference", "--corpus", str(corpus), "--variant", "two-hand").returncode == 2


def test_shards_split_the_cases_without_overlap(corpus, tmp_path):
    seen = {}
    for k in (1, 2):
        jsonl = tmp_path / f"s{k}.jsonl"
        check("--engine", "reference", "--corpus", str(corpus), "--shard", f"{k}/2", "--json", str(jsonl))
        seen[k] = set(outcomes(jsonl))
    assert seen[1] | seen[2] == {"alpha-pass", "beta-pass", "gamma-fail"} and not seen[1] & seen[2]
    assert check("--engine", "reference", "--shard", "3/2").returncode == 2


def test_baseline_then_skip_file(corpus, tmp_path):
    baseline, jsonl = tmp_path / "known.txt", tmp_path / "r.jsonl"
    first = check("--engine", "reference", "--corpus", str(corpus), "--write-baseline", str(baseline), "--json", str(jsonl))
    assert first.returncode == 1
    assert [line.split()[0] for line in baseline.read_text().splitlines() if not line.startswith("#")] == ["gamma-fail"]
    second = check("--engine", "reference", "--corpus", str(corpus), "--skip", str(baseline), "--json", str(jsonl))
    assert second.returncode == 0 and outcomes(jsonl)["gamma-fail"] == "expected-fail"
    baseline.write_text("alpha-*  # thought broken\n")
    third = check("--engine", "reference", "--corpus", str(corpus), "--case", "alpha-*", "--skip", str(baseline), "--json", str(jsonl))
    assert third.returncode == 1 and outcomes(jsonl) == {"alpha-pass": "unexpected-pass"}


def test_parallel_engines_give_the_same_outcomes(corpus, tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    check("--engine", "reference", "--corpus", str(corpus), "--json", str(one))
    check("--engine", "reference", "--corpus", str(corpus), "-j", "2", "--json", str(two))
    assert outcomes(one) == outcomes(two)


def test_max_fail_stops_starting_cases_but_reports_them(corpus, tmp_path):
    (corpus / "d.yaml").write_text((corpus / "c.yaml").read_text().replace("id: gamma-fail", "id: delta-fail"))
    jsonl = tmp_path / "r.jsonl"
    result = check("--engine", "reference", "--corpus", str(corpus), "--case", "*-fail", "--max-fail", "1", "--json", str(jsonl))
    assert result.returncode == 1
    assert sorted(outcomes(jsonl).values()) == ["fail", "skipped"]


def test_an_engine_that_cannot_start_is_a_crash_for_each_case(corpus, tmp_path):
    jsonl = tmp_path / "r.jsonl"
    result = check("--engine", str(tmp_path / "no-such-engine"), "--corpus", str(corpus), "--json", str(jsonl))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert set(outcomes(jsonl).values()) == {"crash"} and len(outcomes(jsonl)) == 3


def test_a_broken_case_file_is_an_error_line_and_the_others_still_run(corpus, tmp_path):
    (corpus / "broken.yaml").write_text("id: broken\ntitle: a: b\n")
    jsonl = tmp_path / "r.jsonl"
    result = check("--engine", "reference", "--corpus", str(corpus), "--json", str(jsonl))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    found = outcomes(jsonl)
    assert found["unreadable:broken"] == "error" and found["alpha-pass"] == "pass"
    line = next(l for l in report_lines(jsonl) if l.get("id") == "unreadable:broken")
    assert "broken.yaml:2" in line["failure"]["message"] and "not valid YAML" in line["failure"]["message"]


@pytest.mark.parametrize("program, said", [("./no-such-engine", "no such file"), ("no-such-engine-on-path", "not found on PATH"),
                                           ("NOT-EXECUTABLE", "not executable")])
def test_an_engine_that_cannot_start_is_said_in_one_line_first(tmp_path, program, said):
    if program == "NOT-EXECUTABLE":
        (tmp_path / "engine.py").write_text("print('hello')\n")
        program = str(tmp_path / "engine.py")
    result = check("--engine", program, "--case", "made-three-tricks", "--json", str(tmp_path / "r.jsonl"), cwd=tmp_path)
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith("euchre-spec: error: the engine cannot start: ") and said in first, result.stderr
    # said before the run, which goes on as before (the case reported as crashing)
    assert result.stdout.index("euchre-spec check:") >= 0 and "CRASH" in result.stdout


def test_a_runnable_engine_is_not_flagged(tmp_path):
    result = check("--engine", "reference", "--case", "made-three-tricks", "--json", str(tmp_path / "r.jsonl"))
    assert result.returncode == 0 and "cannot start" not in result.stderr
