"""No false green from types, repetitions or a state that contradicts itself.

``tests/faulty_engines/false_green.py`` plays every hand right but says it as Python's
``==`` or a set would hide (booleans or floats for integers inside lists, a legal action
listed twice), or shows a state that contradicts itself where no step of the case looks (a
played card still in its hand, a trick with a card twice, trick counts that do not add up).
Each passed the whole-hand fixture before; each must fail it now, at the field at fault."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conformance.common.json_values import as_set, same_set, strict_equal
from conformance.runner.state_consistency import dealt_cards, inconsistency
from robustness_fixtures import ENGINES, FIXTURES, FULL, ROOT

PY = sys.executable

# mode -> (the field of the failure on the whole-hand case, words its message holds)
MODES = {
    "bools": ("hand_points", "wrong hand_points"),
    "floats": ("hand_points", "wrong hand_points"),
    "duplicate-legal": ("legal", "wrong legal actions"),
    "played-in-hand": ("tricks", "is shown elsewhere too"),
    "wrong-trick": ("tricks", "is shown elsewhere too"),
    "tricks-won": ("tricks_won", "but the tricks say"),
}


def _run(tmp_path, mode, *flags):
    report = tmp_path / "r.jsonl"
    result = subprocess.run([PY, "-m", "conformance.cli", "check", "--engine", f"{PY} {ENGINES / 'false_green.py'} {mode}",
                             "--corpus", str(FIXTURES), "--json", str(report), *flags], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    return result, report


@pytest.mark.parametrize("mode", sorted(MODES))
def test_an_engine_that_says_it_otherwise_fails_the_whole_hand(tmp_path, mode):
    # Without the schema check of every reply (the default since replies are checked strictly),
    # the comparison of values and the state's consistency must catch each mode by themselves.
    result, report = _run(tmp_path, mode, "--no-strict-replies")
    assert result.returncode == 1, result.stdout + result.stderr
    lines = {line["id"]: line for line in map(json.loads, report.read_text(encoding="utf-8").splitlines())
             if line.get("type") == "case"}
    full = lines[FULL.id]
    field, words = MODES[mode]
    assert full["outcome"] == "fail", full
    assert full["failure"]["field"] == field and words in full["failure"]["message"], full["failure"]


def test_json_values_compare_by_type_at_every_depth():
    assert strict_equal([0, 1], [0, 1]) and strict_equal({"a": [None, "x"]}, {"a": [None, "x"]})
    for wrong in ([False, True], [0.0, 1.0], [0, 1, 2], (0, 1), [0, "1"]):
        assert not strict_equal([0, 1], wrong), wrong
    assert not strict_equal(2, 2.0) and not strict_equal(1, True) and not strict_equal({"a": 1}, {"a": True})


def test_sets_have_no_repetition_and_no_stand_in():
    assert same_set(["pass", "order"], ["order", "pass"])
    assert not same_set(["pass", "order"], ["order", "pass", "pass"])
    assert not same_set([1], [True]) and not same_set([1], [1.0]) and as_set([[1]]) is None
    assert not same_set([], None) and same_set([], [])


def state(**fields):
    base = {"phase": "play", "to_act": 1, "legal": ["play:AS"], "sitting_out": [], "tricks": []}
    return {**base, **fields}


DEAL = dealt_cards({"hands": [["AS", "KS"], ["AH", "KH"]], "upcard": "9C", "kitty": ["TC"]})


@pytest.mark.parametrize("fields, field, words", [
    ({"hands": [["AS", "KS"], ["AH", "AS"]]}, "hands", "AS is shown twice"),
    ({"hands": [["KS"], ["AH", "KH"]], "tricks": [{"leader": 0, "cards": [[0, "AS"], [1, "AS"]], "winner": None}]},
     "tricks", "AS, played in trick 1"),
    ({"hands": [["AS", "KS"], ["AH", "KH"]], "tricks": [{"leader": 0, "cards": [[0, "AS"]], "winner": None}]},
     "tricks", "shown elsewhere"),
    ({"tricks": [{"leader": 0, "cards": [[0, "AS"], [1, "AH"]], "winner": None},
                 {"leader": 0, "cards": [[0, "KS"]], "winner": None}]}, "tricks", "no winner but is not the last"),
    ({"tricks": [{"leader": 0, "cards": [[0, "AS"], [0, "AH"]], "winner": 0}]}, "tricks", "seat 0 plays twice"),
    ({"tricks": [{"leader": 0, "cards": [[0, "AS"]], "winner": 1}]}, "tricks", "did not play in it"),
    ({"tricks": [{"leader": 0, "cards": [[0, "QD"]], "winner": None}]}, "tricks", "QD was not dealt"),
    ({"tricks": [{"leader": 0, "cards": [[0, "AS"], [1, "AH"]], "winner": 0}], "tricks_won": [0, 1]},
     "tricks_won", "the tricks say [1, 0]"),
    ({"to_act": None, "legal": ["pass"]}, "legal", "no one is to act"),
    ({"sitting_out": [1], "tricks": [{"leader": 0, "cards": [[0, "AS"], [1, "AH"]], "winner": 0}]}, "tricks", "sits out"),
    ({"hands": [["AS", "KS"]]}, "hands", "one entry per seat"),
])
def test_each_contradiction_is_named(fields, field, words):
    problem = inconsistency(state(**fields), DEAL, 2)
    assert problem is not None and problem[0] == field and words in problem[1], problem
    assert problem[2] is (words == "one entry per seat"), "a malformed state (an error), else a contradiction (a fail)"


def test_a_consistent_state_passes():
    consistent = state(hands=[["KS"], ["KH"]], tricks=[{"leader": 0, "cards": [[0, "AS"], [1, "AH"]], "winner": 0}],
                       tricks_won=[1, 0])
    assert inconsistency(consistent, DEAL, 2) is None
    assert inconsistency(state(hands=[["KS"], None]), None, 2) is None      # a seat's view


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_default_run_fails_each_false_green_too(tmp_path, mode):
    """By default every reply is also checked against the protocol's schema: a boolean in a
    list of numbers or a legal action listed twice is then a reply of the wrong shape (error)."""
    result, report = _run(tmp_path, mode)
    assert result.returncode == 1, result.stdout + result.stderr
    full = next(line for line in map(json.loads, report.read_text(encoding="utf-8").splitlines())
                if line.get("type") == "case" and line["id"] == FULL.id)
    assert full["outcome"] in {"fail", "error"}, full
