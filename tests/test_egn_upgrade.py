"""EGN 1.0 and 1.1 records, read directly: upgraded in memory by EGN's documented changes, the
fields with no meaning for the rules set aside and reported, the redundant 1.0 fields compared
with the replay, and every problem reported at the path the old file has.

The old records are written here, from our own 1.4 fixtures, by the documented differences
(1.1 renamed snake_case keys, 1.2 removed ``kitty`` and ``initialLead``; 1.0 apps also wrote
``timings``, ``views``, ``viewSwitches``, ``videoUrl``): no EGN file is used."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.egn.cards import from_egn
from conformance.egn.check import check_file
from conformance.egn.importer import build_case, load_game
from conformance.egn.record import EgnInvalid, parse_record
from conformance.egn.upgrade import NOT_RULES, upgrade

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "egn"
SOUND = sorted(p.name for p in FIXTURES.glob("*.egn") if not p.name.startswith(("defect-", "invalid-", "unsupported-")))
OLD_NAMES = {"playerCards": "player_cards", "cardExchanges": "card_exchanges", "callAnnotations": "calls_annotations",
             "playAnnotations": "tricks_annotations", "gameId": "match_id"}


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _rename(value, names):
    if isinstance(value, list):
        return [_rename(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _rename(v, names) for k, v in value.items()}
    return value


def old_record(data: dict, version: str, leads: dict[int, int] | None = None,
               kitty: dict[int, list[str]] | None = None, media: bool = True) -> dict:
    """A 1.4 record written as EGN ``version`` (1.0.0 or 1.1.0) by the documented differences:
    the deal's kitty and the play phase's initialLead (removed in 1.2) put back, the snake_case
    keys of 1.0 (renamed in 1.1), and a 1.0 app's video fields."""
    old = copy.deepcopy(data)
    for i, deal in enumerate(old["deals"]):
        deal["initialState"]["kitty"] = (kitty or {}).get(i, ["", "", ""])
        for phase in deal["phases"]:
            if phase["type"] == "TRICK_PLAY" and leads and i in leads:
                phase["initialLead"] = leads[i]
    if version.startswith("1.0"):
        old = _rename(old, OLD_NAMES)
        if media:
            old.update(timings={"0": 0, "1": 1250}, views=[{"id": "default-view", "layout": {"width": 1920}}],
                       viewSwitches={}, videoUrl="")
    old["version"] = version
    return old


def leaders(case: dict) -> dict[int, int]:
    """The seat leading the first trick of each hand of a case (the reference's replay)."""
    out = {}
    for i, hand in enumerate(case["hands"]):
        plays = [s for s in hand["steps"] if s["action"].startswith("play:")]
        if plays:
            out[i] = plays[0]["seat"]
    return out


def case_of(path: Path) -> dict:
    game = load_game(path)
    assert game.defect is None, game.defect
    return build_case(game, path)


def without_description(case: dict) -> dict:
    return {k: v for k, v in case.items() if k not in ("description", "id")}


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0"])
@pytest.mark.parametrize("name", SOUND)
def test_an_old_record_gives_the_same_case_as_its_current_form(name, version, tmp_path):
    current = case_of(FIXTURES / name)
    old = tmp_path / name
    old.write_text(json.dumps(old_record(fixture(name), version, leaders(current))), encoding="utf-8")
    case = case_of(old)
    assert without_description(case) == without_description(current)
    assert f"Read as EGN {version} (JSON), upgraded in memory to 1.4" in case["description"]


def test_the_upgrade_renames_by_the_documented_table_and_sets_aside_what_the_rules_do_not_read():
    current = fixture("hand-written-loner.egn")
    current["deals"][0]["initialState"]["playerCards"] = [[], [], [], []]
    data = old_record(current, "1.0.0", {0: 2}, {0: ["Kc", "", ""]})
    upgraded, report = upgrade(data)
    assert upgraded["version"] == "1.4" and report.version == "1.0.0"
    assert "player_cards" not in json.dumps(upgraded) and "playerCards" in upgraded["deals"][0]["initialState"]
    assert upgraded["metadata"]["gameId"] == data["metadata"]["match_id"]
    assert "calls_annotations" not in json.dumps(upgraded) and "callAnnotations" in upgraded["deals"][0]["phases"][0]
    assert sorted(report.ignored) == sorted(f"$.{k}" for k in ("timings", "views", "viewSwitches", "videoUrl"))
    assert set(NOT_RULES) >= {p[2:] for p in report.ignored}
    assert report.kitty == {0: ["Kc"]} and report.initial_lead == {0: 2}
    assert not any(k in upgraded for k in NOT_RULES) and "kitty" not in json.dumps(upgraded)
    assert "initialLead" not in json.dumps(upgraded)
    assert report.renamed["$.deals[0].initialState.playerCards"] == "$.deals[0].initialState.player_cards"


def test_a_problem_in_an_old_record_is_reported_at_the_files_own_path():
    data = old_record(fixture("buried-upcard.egn"), "1.0.0")
    data["deals"][0]["initialState"]["player_cards"][1][0] = "10h"
    with pytest.raises(EgnInvalid) as caught:
        parse_record(data, "old.egn")
    text = str(caught.value)
    assert "old.egn: $.deals[0].initialState.player_cards[1][0]: '10h' is not an EGN card" in text
    assert "(EGN 1.0.0, read as 1.4)" in text


def test_an_unknown_key_of_an_old_record_is_still_refused():
    data = old_record(fixture("hand-written-order.egn"), "1.1.0")
    data["deals"][0]["initialState"]["hands"] = []
    with pytest.raises(EgnInvalid, match=r"\$\.deals\[0\]\.initialState\.hands: unknown key 'hands'"):
        parse_record(data, "old.egn")


def test_check_names_the_version_read_the_fields_ignored_and_compares_the_redundant_ones(tmp_path):
    current = case_of(FIXTURES / "hand-written-order.egn")
    good = tmp_path / "good.egn"
    good.write_text(json.dumps(old_record(fixture("hand-written-order.egn"), "1.0.0", leaders(current))), "utf-8")
    report = check_file(good)
    assert report.ok, report.message
    assert report.reading.startswith("EGN 1.0.0 (JSON), upgraded in memory to 1.4")
    assert "ignored (no meaning for the rules): $.timings, $.views, $.viewSwitches, $.videoUrl" in report.reading
    assert report.redundant == ["agree with the replay (initialLead in 1 deal(s), kitty in 0)"]
    assert report.to_json()["ignored"] == ["$.timings", "$.views", "$.viewSwitches", "$.videoUrl"]

    lead = leaders(current)[0]
    played = current["hands"][0]["steps"][-1]["action"].split(":")[1]          # a card the record plays
    raw = played[0] + played[1].lower()
    assert from_egn(raw) == played
    wrong = tmp_path / "wrong.egn"
    wrong.write_text(json.dumps(old_record(fixture("hand-written-order.egn"), "1.0.0", {0: (lead + 1) % 4},
                                           {0: [raw, "", ""]})), "utf-8")
    report = check_file(wrong)
    assert report.ok                                   # the fields EGN itself dropped do not make the game
    assert f"deal 1: initialLead names seat {(lead + 1) % 4}, but seat {lead} leads the first trick by the rules" \
        in report.redundant
    assert f"deal 1: the kitty lists {raw}, which is played" in report.redundant


def test_a_defective_old_record_is_refused_at_its_defect(tmp_path):
    current = check_file(FIXTURES / "defect-upcard-played.egn")
    old = tmp_path / "old.egn"
    old.write_text(json.dumps(old_record(fixture("defect-upcard-played.egn"), "1.0.0")), "utf-8")
    report = check_file(old)
    assert report.kind == current.kind == "upcard-played"
    assert (report.deal, report.trick, report.seat, report.message) == \
        (current.deal, current.trick, current.seat, current.message)


def test_the_command_line_says_which_version_it_read(tmp_path):
    old = tmp_path / "old.egn"
    old.write_text(json.dumps(old_record(fixture("hand-written-order.egn"), "1.0.0")), "utf-8")
    out = tmp_path / "cases"
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "egn", "import", "-o", str(out), str(old)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "read: EGN 1.0.0 (JSON), upgraded in memory to 1.4" in result.stdout
    assert "ignored (no meaning for the rules): $.timings" in result.stdout
    assert (out / "egn-old.yaml").is_file()
