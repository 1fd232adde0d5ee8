"""Every reader is bounded: each hostile file gives one clear line and exit 1, quickly and in
little memory, never an internal error (exit 3) nor a case file that cannot be loaded.

The files are made here, from a sound record of the fixtures: a 5,000-digit integer in an
``.egn`` and in a JSON ``.emn`` (Python refuses to convert it: an exception, once a crash),
JSON nested 100,000 deep inside a binary ``.emn``, an escaped lone surrogate in a player's
name (once written into a case file that could not be loaded), an ``.egnb`` of more empty
deals than a game has (once decoded into a million objects before any check)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.egn.binary_schema import MAGIC_EXPANDED, MAGIC_MATCH, message_class
from conformance.reports.jsonl import read_jsonl
from robustness_fixtures import ROOT

PY = sys.executable
SOUND = ROOT / "tests" / "fixtures" / "egn" / "buried-upcard.egn"


def hostile(tmp_path: Path, name: str) -> Path:
    base = SOUND.read_text(encoding="utf-8")
    path = tmp_path / name
    if name == "huge-int.egn":
        path.write_text(base.replace('"version": "1.4",', '"version": "1.4", "x": 1' + "0" * 5000 + ",", 1))
    elif name == "surrogate.egn":
        path.write_text(base.replace('"North"', '"No\\ud800rth"', 1))
    elif name == "huge-int.emn":
        match = {"fileType": "Euchre Match Notation", "version": "1.0", "metadata": {"players": []},
                 "games": [{"gameIndex": 1, "players": [], "gameData": json.loads(base)}]}
        path.write_text(json.dumps(match).replace('"gameIndex": 1', '"gameIndex": 1' + "0" * 5000))
    elif name == "deep.emn":
        match = message_class("match", "MatchFile")(file_type="Euchre Match Notation", version="1.0")
        match.games.add(game_index=0, egn_json="[" * 100_000 + "]" * 100_000)
        path.write_bytes(bytes([MAGIC_MATCH]) + match.SerializeToString())
    elif name == "empty-deals.egnb":
        record = message_class("expanded", "EgnFile")(file_type="Euchre Game Notation", version="1.4")
        for _ in range(5000):
            record.deals.add()
        path.write_bytes(bytes([MAGIC_EXPANDED]) + record.SerializeToString())
    return path


@pytest.mark.parametrize("action, name, words", [
    ("check", "huge-int.egn", "an integer of 5001 digits"),
    ("import", "huge-int.egn", "an integer of 5001 digits"),
    ("check", "huge-int.emn", "an integer of 5001 digits"),
    ("check", "deep.emn", "nested more than 64 deep"),
    ("import", "deep.emn", "nested more than 64 deep"),
    ("import", "surrogate.egn", "lone surrogate"),
    ("check", "empty-deals.egnb", "5000 deals, more than a game has"),
])
def test_a_hostile_egn_file_is_one_clear_line(tmp_path, action, name, words):
    path = hostile(tmp_path, name)
    extra = ["--out", str(tmp_path / "cases")] if action == "import" else []
    result = subprocess.run([PY, "-m", "conformance.cli", "egn", action, str(path), *extra], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr
    problems = [line for line in (result.stdout + result.stderr).splitlines() if str(path) in line]
    assert len(problems) == 1 and words in problems[0], result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert not list((tmp_path / "cases").glob("**/*.yaml")) if action == "import" else True


def test_a_report_of_odd_lines_is_read_with_each_line_a_problem(tmp_path):
    path = tmp_path / "r.jsonl"
    header = {"type": "header", "engine": {"name": "x\x1b[2J"}}
    lines = [json.dumps(header), "[" * 100_000 + "]" * 100_000, json.dumps({"type": "case", "id": "a", "failure": 5}),
             json.dumps({"type": "case", "id": ["a"]}), '{"type": "case", "id": "b", "outcome": "pass"}', "x" * 100]
    path.write_text("\n".join(lines) + "\n")
    head, cases, foot, problems = read_jsonl(path)
    assert head["engine"]["name"] == "x\\x1b[2J", "a report's strings are shown as text"
    assert [case["id"] for case in cases] == ["b"] and foot is None
    assert [p.split(":")[0] for p in problems] == ["line 2", "line 3", "line 4", "line 6"], problems
    for command in (["summary", str(path)], ["badge", str(path), "-o", str(tmp_path / "b.svg")], ["diff", str(path), str(path)]):
        result = subprocess.run([PY, "-m", "conformance.cli", "report", *command], cwd=ROOT, capture_output=True,
                                text=True, timeout=60)
        assert result.returncode == 1 and "Traceback" not in result.stderr, (command, result.stderr)
        assert result.stderr.splitlines() == [f"euchre-spec: error: {path}: $: 3 line(s) are not report lines; the first: "
                                              f"line 2: nested more than 64 deep"], result.stderr


def test_a_report_whose_last_line_was_cut_short_is_still_read(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"type": "header", "engine": {"name": "x"}}) + "\n"
                    + json.dumps({"type": "case", "id": "a", "outcome": "pass", "variant": "euchre"}) + '\n{"type": "ca')
    result = subprocess.run([PY, "-m", "conformance.cli", "report", "summary", str(path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0 and "its last line is not a report line" in result.stderr
    assert "Not a whole run" in result.stdout
