"""A case runs under an option value whose table lacks a step its script takes, when dropping
the scripted actions of the steps that table does not have plays the same game
(``steps_dropped:`` of conformance.corpus_tools.requirements): stored, checked by lint, run by the runner
with the dropped steps named, and an engine that claims the value but keeps the step fails at
the very point where the step would be."""

from __future__ import annotations

import copy
import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cases import load_case_file, load_corpus_meta
from conformance.corpus_tools.lint import lint
from conformance.runner.declared import DROPPED
from conformance.runner.adapt import DROPPED_NOTE, adapted, drop_absent_steps, rederived_note, under
from conformance.corpus_tools.requirements import compute, plays_with_steps_dropped, stale, write_requirements
from conformance.runner.declared import unsupported_needs
from reference_impl.errors import ActionError

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "conformance" / "corpus"
ENGINE = Path(__file__).resolve().parent / "claim_engines" / "declared_engine.py"
MAKER_ASKED_ANYWAY = Path(__file__).resolve().parent / "claim_engines" / "maker_asked_anyway.py"
# Dealer 0 turns up the 9S, seat 2 assists and declines to go alone (step 5), the dealer's
# discard before that decision is refused (step 4): four-handed, one point to seats 0 and 2.
ASSIST = CORPUS / "euchre" / "assist-made-four-tricks.yaml"
# Seat 0 calls hearts in round 2 and goes alone (step 5); seat 2 sits out, the defenders decline.
LONE = CORPUS / "euchre" / "egn-lone-march-five-points.yaml"
NO_LONE_HANDS = {"euchre": {"options": {"going-alone": [False]}}}


def case_at(path: Path):
    cases, problems = load_case_file(path, load_corpus_meta().tags)
    assert not problems and len(cases) == 1, problems
    return cases[0]


def no_lone_hands(case):
    other = under(case, {**case.table.selected, "going-alone": False})
    assert other is not None
    return other


def run_check(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", "check", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600, env={"COLUMNS": "200", "PATH": "", "PYTHONPATH": str(ROOT)})


def test_a_declined_lone_hand_plays_the_same_game_without_the_step():
    # By hand: without lone hands the maker is never asked; the dealer's discard, refused
    # while the maker was to decide, is then simply the next move; the hand is the same.
    case = case_at(ASSIST)
    derived, dropped, observed = drop_absent_steps(case, no_lone_hands(case))
    assert dropped == ["hand 1 step 4 (seat 0 discard:9H refused)", "hand 1 step 5 (seat 2 pass at phase alone)"]
    steps = derived.hands[0]["steps"]
    assert len(steps) == len(case.hands[0]["steps"]) - 2
    # the assist now leads straight to the dealer's discard: the dropped step's stated
    # observation (phase discard, seat 0 to act) is kept, the assist's own trump and maker too
    assert steps[2]["action"] == "order" and steps[2]["expect"] == {"trump": "S", "maker": 2, "phase": "discard", "to_act": 0}
    assert observed == []                     # nothing the case states had to be re-derived
    assert derived.hands[0]["expect"] == case.hands[0]["expect"]     # the end result as stated, unchanged
    assert compute(case)[DROPPED] == {"going-alone": False}


def test_a_maker_who_really_goes_alone_never_qualifies():
    # By hand: dealer 1, so without lone hands seat 2 (the maker's partner, the eldest hand)
    # plays and leads after the call; the defenders' scripted declines of a lone defence (no
    # such question four-handed) come from seat 1 while seat 2 is to lead, and the play breaks.
    case = case_at(LONE)
    with pytest.raises(ActionError) as refused:
        drop_absent_steps(case, no_lone_hands(case))
    assert refused.value.category == "out_of_turn" and "seat 1 acted but seat 2 is to act" in str(refused.value)
    assert not plays_with_steps_dropped(case, no_lone_hands(case))
    assert "going-alone" not in compute(case)[DROPPED]


def test_the_stated_end_results_must_hold():
    # The same declined lone hand, its hand's points stated wrong by hand: every step still
    # plays with the maker's decision dropped, but the game is not the one the case states.
    case = case_at(ASSIST)
    hands = copy.deepcopy(case.hands)
    hands[0]["expect"]["hand_points"] = [2, 0]
    wrong = dataclasses.replace(case, hands=hands)
    drop_absent_steps(wrong, no_lone_hands(wrong))          # plays: no ActionError
    assert not plays_with_steps_dropped(wrong, no_lone_hands(wrong))


def test_steps_dropped_is_stored_and_lint_checks_it(tmp_path):
    found = compute(case_at(ASSIST))
    text = ASSIST.read_text(encoding="utf-8")
    line = next(l for l in text.splitlines() if l.startswith(f"{DROPPED}:"))
    assert line == "steps_dropped: {going-alone: false}"
    target = tmp_path / ASSIST.name
    target.write_text(text.replace(line + "\n", ""), encoding="utf-8")                 # missing
    assert "does not state that under going-alone=false it plays the same game with the steps that table lacks " \
           "dropped (steps_dropped)" in stale(case_at(target), found)
    target.write_text(text.replace(line, "steps_dropped: {going-alone: false, super-euchre: true}"), encoding="utf-8")
    report = lint(jobs=1, paths=[tmp_path], variants=["euchre"])                        # stale
    assert any("states steps_dropped super-euchre=true, but under no other value of super-euchre does it play the "
               "same game" in p for p in report.problems), report.problems
    assert write_requirements([case_at(target)], {"assist-made-four-tricks": found}) == [str(target)]
    assert target.read_text(encoding="utf-8") == text


def test_an_engine_without_lone_hands_runs_the_case_and_one_that_still_asks_fails_there(tmp_path):
    folder = tmp_path / "cases"
    folder.mkdir()
    shutil.copy(ASSIST, folder / ASSIST.name)
    assert unsupported_needs({"variants": NO_LONE_HANDS}, case_at(ASSIST)) == []
    played, why = adapted({"variants": NO_LONE_HANDS}, case_at(ASSIST))
    assert why is None and [s["action"] for s in played.hands[0]["steps"][2:4]] == ["order", "discard:9H"]
    # an engine playing the rule it declares passes; the result names the steps dropped and why
    engine = f"{sys.executable} {ENGINE} '{json.dumps(NO_LONE_HANDS)}'"
    done = run_check("--engine", engine, "--corpus", str(folder), "--json", "r.jsonl", cwd=tmp_path)
    result = next(json.loads(l) for l in (tmp_path / "r.jsonl").read_text().splitlines() if '"type": "case"' in l)
    assert done.returncode == 0 and result["outcome"] == "pass", done.stdout[-2000:]
    assert f"{DROPPED_NOTE}: hand 1 step 4 (seat 0 discard:9H refused), hand 1 step 5 (seat 2 pass at phase alone)" \
           in result["detail"] and "under going-alone=false the table has no such step" in result["detail"]
    # the gate: an engine claiming no lone hands that still asks the maker fails at the assist,
    # where its game waits for the maker's decision instead of the dealer's discard
    done = run_check("--engine", f"{sys.executable} {MAKER_ASKED_ANYWAY}", "--corpus", str(folder), "--json", "r2.jsonl",
                     cwd=tmp_path)
    result = next(json.loads(l) for l in (tmp_path / "r2.jsonl").read_text().splitlines() if '"type": "case"' in l)
    assert done.returncode == 1 and result["outcome"] == "fail", done.stdout[-2000:]
    failure = result["failure"]
    assert (failure["hand"], failure["step"], failure["field"]) == (1, 3, "phase"), failure
    assert (failure["expected"], failure["actual"]) == ("discard", "alone")


def test_a_value_never_replayed_alone_may_still_drop_the_step_it_takes_out():
    # Made with the Canadian loner rule, which needs lone hands: "no lone hands" cannot be
    # chosen with the case's own options, so the requirements never replayed it and the case
    # does not require going-alone. An engine without lone hands plays it under its own values
    # (going-alone=false, canadian-loner and defending-alone at their defaults): the maker's
    # decision (step 2, seat 0 declines) is not in that table, and by hand the hand is the same
    # without it: the dealer, seat 3, discards next.
    case = case_at(CORPUS / "generated" / "gen-euchre-1000700.yaml")
    assert "going-alone" not in json.dumps(case.data.get("requires")) and DROPPED not in case.data
    played, why = adapted({"variants": NO_LONE_HANDS}, case)
    assert why is None, why
    steps = played.hands[0]["steps"]
    assert [s["action"] for s in steps[:2]] == ["order", "discard:AC"]
    assert steps[0]["expect"]["phase"] == "discard" and steps[0]["expect"]["to_act"] == 3
    note = rederived_note(played)
    assert note.startswith(f"{DROPPED_NOTE}: hand 1 step 2 (seat 0 pass at phase alone)") and \
        "under going-alone=false, canadian-loner=false, defending-alone=true the table has no such step" in note
