"""A run says how much it ran: "ran 18 of 212 euchre cases (8%); declare game-target, ... to
run 194 more" in the console, the JSON Lines footer and JUnit; --require and --fail-under make
a partial claim fail; an option's range declared in hello counts as declaring its values."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from conformance.cases import load_cases, load_corpus_meta
from conformance.reports.claim import claims
from conformance.runner.declared import allows
from conformance.runner.declared import declares_value, unsupported_needs

ROOT = Path(__file__).resolve().parent.parent
ENGINE = Path(__file__).resolve().parent / "claim_engines" / "declared_engine.py"
CORPUS = ROOT / "conformance" / "corpus"
EUCHRE = CORPUS / "euchre"                              # the hand-written euchre cases
PERFT = CORPUS / "perft"


def check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", "check", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env={"COLUMNS": "200", "PATH": ""})


def engine(variants: dict | None = None) -> str:
    return f"{sys.executable} {ENGINE}" + (f" '{json.dumps(variants)}'" if variants is not None else "")


def euchre_cases():
    cases, _ = load_cases([EUCHRE, PERFT], load_corpus_meta().tags)
    return [c for c in cases if c.variant == "euchre"]


def test_a_minimal_claim_says_how_much_ran_and_what_to_declare(tmp_path):
    report, junit = tmp_path / "r.jsonl", tmp_path / "j.xml"
    done = check("--engine", engine(), "--corpus", str(EUCHRE), "--corpus", str(PERFT), "--variant", "euchre",
                 "--json", str(report), "--junit", str(junit))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    foot = json.loads(report.read_text().splitlines()[-1])
    claim = foot["claim"]["variants"]["euchre"]
    total = len(euchre_cases())
    # expected from the case files alone: a case {"euchre": {}} may run needs no optional
    # command and states requires: its options' defaults meet (an option it does not reach
    # is played at the default); every case whose options are all defaults is among them
    # (a seat's view in a step is checked only where seat-view is declared: it needs no command)
    commandless = [c for c in euchre_cases() if not any("deck" in h["deal"] or h.get("perft") for h in c.hands)]
    defaults = [c for c in commandless if all(v == c.table.table["options"][k]["default"] for k, v in c.table.selected.items())]
    runnable = [c for c in commandless if all(allows(need, c.table.table["options"][k]["default"])
                                             for k, need in c.data["requires"].items())]
    assert claim["cases"] == total and len(defaults) <= claim["ran"] <= len(runnable)
    assert claim["ran"] > len(defaults)       # cases of house rules their scripts never reach ran too
    assert claim["unsupported"] == total - claim["ran"]
    assert 0 < claim["ran"] < total
    assert claim["percent"] == claim["ran"] * 100 // total
    assert "game-target" in claim["declare"] and "command perft" in claim["declare"]
    sentence = re.search(r"^ran (\d+) of (\d+) euchre cases \((\d+)%\); declare (.+) to run (\d+) more$", done.stdout, re.M)
    assert sentence, done.stdout[-1500:]
    assert [int(sentence.group(i)) for i in (1, 2, 3, 5)] == [claim["ran"], total, claim["percent"], claim["unsupported"]]
    assert sentence.group(4).startswith(next(iter(claim["declare"])))        # the declaration that unlocks most first
    assert f"PASSED {total} case(s), {claim['ran']} run ({claim['percent']}%)" in done.stdout
    properties = {p.get("name"): p.get("value") for p in ET.parse(junit).getroot().iter("property")}
    assert properties["euchre-spec.ran"] == str(claim["ran"]) and properties["euchre-spec.cases"] == str(total)
    assert properties["euchre-spec.claim"] == sentence.group(0)


def test_require_and_fail_under_make_a_partial_claim_fail(tmp_path):
    report = tmp_path / "r.jsonl"
    required = check("--engine", engine(), "--corpus", str(EUCHRE), "--json", str(report), "--require")
    assert required.returncode == 1 and "--require: " in required.stderr
    assert "--require" in json.loads(report.read_text().splitlines()[-1])["claim"]["shortfall"]
    assert check("--engine", engine(), "--corpus", str(EUCHRE), "--json", str(report), "--fail-under", "99").returncode == 1
    assert check("--engine", engine(), "--corpus", str(EUCHRE), "--json", str(report), "--fail-under", "1").returncode == 0
    assert check("--engine", "reference", "--corpus", str(EUCHRE), "--json", str(report), "--require").returncode == 0
    assert check("--engine", "reference", "--corpus", str(EUCHRE), "--fail-under", "101").returncode == 2


def test_a_range_declared_in_hello_runs_the_cases_of_its_values(tmp_path):
    report = tmp_path / "r.jsonl"
    ranged = {"euchre": {"options": {"game-target": [{"minimum": 0, "maximum": 1000}]}}}
    done = check("--engine", engine(ranged), "--corpus", str(EUCHRE), "--json", str(report))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    claim = json.loads(report.read_text().splitlines()[-1])["claim"]["variants"]["euchre"]
    assert "game-target" not in claim["declare"]
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    ran_targets = {line["options"].get("game-target") for line in lines if line.get("type") == "case"
                   and line["outcome"] == "pass"}
    assert len(ran_targets - {None, 10}) >= 2            # cases of other targets than the default ran
    # the range bounds the values: a target outside it stays unsupported
    assert not declares_value([{"minimum": 1, "maximum": 9}], 10) and declares_value([5, {"minimum": 7, "maximum": 9}], 8)
    assert not declares_value([{"minimum": 1, "maximum": 9}], True) and declares_value({"minimum": 1}, 3)


def test_needs_name_every_missing_declaration():
    case = next(c for c in euchre_cases() if any(h.get("perft") for h in c.hands))
    needs = dict(unsupported_needs({"variants": {}}, case))
    assert "command perft" in needs and f"variant {case.variant}" in needs
    found = claims([("euchre", "pass", None), ("euchre", "unsupported", ["b", "a"]), ("euchre", "unsupported", ["a"])])
    assert found[0].sentence() == "ran 1 of 3 euchre cases (33%); declare a, b to run 2 more"


def test_a_first_dealer_declined_in_hello_is_not_sent():
    # Five Hundred cuts for the first deal (game.first-dealer: cut), an option of no table: an
    # engine that picks its first dealer at random says so in hello, and the case is not run.
    case = next(c for c in load_cases(tags=load_corpus_meta().tags)[0]
                if c.variant == "five-hundred-four" and "first_dealer" in c.setup)
    plays_all = {"variants": "*", "commands": ["deal-deck", "perft"]}
    declines = {**plays_all, "declines": {"first-dealer": "it draws its first dealer at random"}}
    assert unsupported_needs(plays_all, case) == []
    assert unsupported_needs(declines, case) == [
        ("first-dealer (not declined)", "a first dealer chosen from cards (new_game with first_dealer) is declined in "
                                        "hello: it draws its first dealer at random")]
    given_dealer = next(c for c in load_cases(tags=load_corpus_meta().tags)[0]
                        if c.variant == "five-hundred-four" and "dealer" in c.setup)
    assert unsupported_needs(declines, given_dealer) == []
