"""What fuzz and identify print, for an author reading it: an early divergence without empty
sections, only confirmed house rules named as such, clipped values cut where they differ."""

from __future__ import annotations

import subprocess
import sys

from conformance.common.clip import MAX_ITEMS, MAX_TEXT, clip, clip_pair, window_pair
from conformance.fuzzing.identify import Identification, Verdict
from conformance.corpus_tools.mutation import mutant_command


def run_cli(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env={"COLUMNS": "200", "PATH": ""})


def test_a_divergence_in_the_first_hand_prints_no_empty_rate_or_tables(tmp_path):
    engine = " ".join(mutant_command("dealer-does-not-pick-up"))
    done = run_cli("fuzz", "--engine", engine, "--hands", "100", "--divergences", "1", "--out", "fz", "--no-shrink",
                   cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "diverged before any hand was played in full" in done.stdout
    assert "DIVERGED 1 kind(s) of divergence (in the first hand)" in done.stdout
    assert "\n0 hands" not in done.stdout
    for empty in ("hands/s", "Situations reached", "Clauses exercised", "never:"):
        assert empty not in done.stdout, empty
    assert "rule dealer-pickup" in done.stdout


def test_only_confirmed_values_are_house_rules():
    verdicts = [Verdict("game-target", 10, 7, "uncertain"), Verdict("going-alone", True, False, "differs"),
                Verdict("benny", None, None, "as sent")]
    result = Identification("euchre", {"game-target": 10, "going-alone": True, "benny": None},
                            {"game-target": 7, "going-alone": False, "benny": None}, verdicts, [], 100, 1.0)
    assert result.house_rules == {"going-alone": False} and result.uncertain == {"game-target": 7}
    assert result.to_json()["house_rules"] == {"going-alone": False}
    assert result.to_json()["uncertain"] == {"game-target": 7}


def test_identify_prints_an_uncertain_value_apart(capsys):
    from conformance.cli.identify import print_identification

    verdicts = [Verdict("game-target", 10, 7, "uncertain")]
    print_identification(Identification("euchre", {"game-target": 10}, {"game-target": 7}, verdicts, [], 100, 1.0))
    out = capsys.readouterr().out
    assert "house rules (values other than the ones sent): none" in out
    assert "uncertain, not counted as house rules" in out and "game-target=7" in out


def test_two_long_lists_that_differ_late_stay_different_when_clipped():
    left = [f"play:{i}" for i in range(300)]
    right = left[:250] + ["play:X"] + left[251:]
    assert clip(left) == clip(right)                       # clipped alone: the difference is cut off
    a, b = clip_pair(left, right)
    assert a != b and a[0] == b[0] == "… [248 equal entries]" and "play:X" in b and "play:250" in a
    assert len(a) <= MAX_ITEMS + 2


def test_nested_values_and_long_texts_are_cut_where_they_differ():
    tricks = [{"leader": 0, "cards": [[s, f"C{i}{s}"] for s in range(4)], "winner": 0} for i in range(5)]
    other = [dict(t) for t in tricks]
    other[4] = {**tricks[4], "winner": 3}
    assert clip_pair(tricks, other)[1][4]["winner"] == 3
    text = "x" * 5000
    a, b = clip_pair(text + "A", text + "B")
    assert a != b and a.startswith("[") and a.endswith("A") and b.endswith("B")
    shown, told = window_pair(repr(tricks), repr(other), 160)
    assert shown != told and len(shown) <= 162 and "'winner': 0}]" in shown and "'winner': 3}]" in told
    assert clip_pair("short", "also short") == ("short", "also short") and len(clip("y" * (MAX_TEXT + 5))) > MAX_TEXT
