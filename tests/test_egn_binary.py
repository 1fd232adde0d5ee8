"""EGN's binary records (``.egnb``): the condensed bit stream laid out bit by bit as EGN's
binary-format description says, both protocol-buffer layouts written and read, and a binary
record imported as the same case as its JSON form. Every binary record here is written by our
own code from our own fixtures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.egn.binary import BinaryError, decode, encode
from conformance.egn.binary_schema import message_class
from conformance.egn.bitpack import PackError, deck, pack_deal, to_base64url, unpack_deal
from conformance.egn.check import check_file
from conformance.egn.importer import build_case, load_game
from conformance.egn.record import EgnInvalid, read_record

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "egn"
ALL = sorted(p.name for p in FIXTURES.glob("*.egn") if not p.name.startswith(("invalid-", "unsupported-")))
# What the condensed form cannot hold, and says so (the fixture, the reason).
NOT_CONDENSABLE = {
    "farmers.egn": "cardExchanges", "going-under.egn": "cardExchanges", "partners-best.egn": "cardExchanges",
    "no-trump.egn": "call 'n' in the second round", "hand-written-loner.egn": "card 'Nc'", "joker.egn": "'B'",
    "unfinished.egn": "whole tricks only", "defect-extra-play.egn": "whole tricks only",
    "defect-trick-size.egn": "whole tricks only", "defect-dealt-twice.egn": "plays each card once",
    "defect-bad-card.egn": "'7s'", "defect-illegal-call.egn": "call 'c' in the second round",
}


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def same_case(a: dict, b: dict) -> bool:
    return {k: v for k, v in a.items() if k not in ("id", "description")} == \
        {k: v for k, v in b.items() if k not in ("id", "description")}


# -- the bit stream, by hand from the description ---------------------------------------------------
def test_the_pack_is_by_rank_then_suits_s_h_c_d():
    assert deck(9)[:8] == ["9s", "9h", "9c", "9d", "Ts", "Th", "Tc", "Td"] and len(deck(9)) == 24
    assert deck(7)[0] == "7s" and len(deck(7)) == 32


def test_a_version_1_deal_bit_by_bit():
    deal = {"dealNumber": 0, "initialState": {"dealer": 1, "upCard": "9s"}, "phases": [
        {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Pass", "Order"], "isAlone": False},
        {"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": [["Ts", "9h", "Jc", "Ad"]]}]}
    bits = ("0001" "01" "00000" "010"          # version 1, dealer 1 (2 bits), upcard 9s (index 0 of 24), 2 phases
            "0" "0" "1" "0" "0"                # bidding: Pass, Order (stops), not alone, no annotations
            "1" "001"                          # play: 1 trick
            "00100"                            # Ts: index 4 of 24
            "00001"                            # 9h: index 1 of the 23 left
            "01000"                            # Jc: index 8 of the 22 left (9s 9c 9d Th Tc Td Js Jh Jc ...)
            "10100"                            # Ad: the last of 21, index 20
            "0"                                # no annotations
            "0" "1010")                        # no alternative lines, the end marker
    assert pack_deal(deal) == to_base64url(bits)
    assert unpack_deal(to_base64url(bits)) == deal


def test_a_second_round_call_is_the_suits_index_without_the_upcards_suit():
    deal = {"dealNumber": 0, "initialState": {"dealer": 0, "upCard": "Th"},
            "phases": [{"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Pass"] * 5 + ["c"], "isAlone": True}]}
    bits = "0001" "00" "00101" "001" "0" "0000" "00" "10" "1" "0" "0" "1010"   # s c d without hearts: clubs is 2
    assert pack_deal(deal) == to_base64url(bits)
    assert unpack_deal(to_base64url(bits))["phases"][0]["calls"] == ["Pass"] * 5 + ["c"]


def test_a_lone_defence_needs_version_2_and_a_discard_version_3():
    bid = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Order"], "isAlone": True, "aloneDefender": 2}
    deal = {"dealNumber": 0, "initialState": {"dealer": 3, "upCard": "Ad"}, "phases": [bid]}
    bits = ("0010" "011" "011" "00" "10111" "001"          # version 2, dealer 3, 4 players, pack from 9, Ad is 23
            "0" "1" "1" "1" "010" "0" "0" "1010")           # Order, alone, defended by seat 2, no notes
    assert pack_deal(deal) == to_base64url(bits)
    assert unpack_deal(pack_deal(deal)) == deal
    bid.pop("aloneDefender")
    bid["discard"] = "9h"
    bits = ("0011" "011" "011" "00" "10111" "0" "001"       # version 3: no dealt hands recorded
            "0" "1" "1" "0" "1" "00001" "0" "0" "1010")     # alone, undefended, a discard: 9h (index 1 of the pack)
    assert pack_deal(deal) == to_base64url(bits)
    assert unpack_deal(pack_deal(deal)) == deal


def test_annotations_and_alternative_lines_survive_the_bit_stream():
    deal = fixture("hand-written-order.egn")["deals"][0]
    deal["phases"][0]["callAnnotations"] = {"0": ["[?] é, a long note"]}
    deal["alternativeLines"] = [{"branchIndex": 1, "phases": [
        {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Pass", "Order"], "isAlone": False}]}]
    back = unpack_deal(pack_deal(deal))
    assert back["phases"][0]["callAnnotations"] == {"0": ["[?] é, a long note"]}
    assert back["alternativeLines"][0]["branchIndex"] == 1
    assert back["alternativeLines"][0]["phases"][0]["calls"] == ["Pass", "Order"]


@pytest.mark.parametrize("name, reason", sorted(NOT_CONDENSABLE.items()))
def test_what_the_condensed_form_cannot_hold_is_refused_with_the_reason(name, reason):
    with pytest.raises(BinaryError, match=r"\$\.deals\[\d+\]: cannot be condensed: .*" + reason.replace("'", ".")):
        encode(fixture(name), "condensed")
    assert decode(encode(fixture(name), "expanded"))[0]["deals"]          # the expanded layout holds it


def test_a_version_0_deal_has_no_header_and_its_tricks_run_to_the_end_of_the_bits():
    bits = ("10" "00000"                       # dealer 2 (2 bits, as EGN's reader takes it), upcard 9s; "1000"
                                               # is no version header
            "0" "1" "0"                        # Pass, Order, not alone (no annotations in version 0)
            "00100" "00001" "01000" "10100")   # Ts 9h Jc Ad, as in version 1
    deal = unpack_deal(to_base64url(bits))
    assert deal["initialState"] == {"dealer": 2, "upCard": "9s"}
    assert deal["phases"][0]["calls"] == ["Pass", "Order"]
    assert deal["phases"][1]["tricks"] == [["Ts", "9h", "Jc", "Ad"]]


def test_a_bit_stream_no_version_can_read_is_an_error_not_a_guess():
    with pytest.raises(PackError, match="ends early"):
        unpack_deal(to_base64url("0001" "1111"))    # too short for version 1, and for version 0 (dealer, upcard,
                                                    # Order, then no bit for going alone)
    with pytest.raises(PackError, match="index 31 among 24 cards"):
        unpack_deal(to_base64url("1011" "1110"))    # no header; version 0's upcard would be 31 of 24


# -- the files ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("layout", ["condensed", "expanded"])
@pytest.mark.parametrize("name", ALL)
def test_a_binary_record_gives_the_same_case_or_the_same_defect_as_its_json_form(name, layout, tmp_path):
    if layout == "condensed" and name in NOT_CONDENSABLE:
        pytest.skip("the condensed form cannot hold this record (tested above)")
    data = encode(fixture(name), layout)
    assert data[0] == (1 if layout == "condensed" else 0)
    path = tmp_path / (name.replace(".egn", ".egnb" if layout == "condensed" else ".expanded.egnb"))
    path.write_bytes(data)
    record = read_record(path)
    assert record.form == f"binary, {layout}"
    json_report, binary_report = check_file(FIXTURES / name), check_file(path)
    assert (binary_report.kind, binary_report.where(), binary_report.message) == \
        (json_report.kind, json_report.where(), json_report.message)
    assert binary_report.reading == f"EGN {fixture(name)['version']} (binary, {layout})"
    if json_report.case() is not None:
        assert same_case(binary_report.case(), json_report.case())


def test_binary_records_round_trip_through_both_layouts():
    data = fixture("lone-defence.egn")
    expanded, _ = decode(encode(data, "expanded"))
    condensed, _ = decode(encode(data, "condensed"))
    assert expanded == {**data, "deals": expanded["deals"]} and expanded["deals"] == data["deals"]
    assert [d["phases"] for d in condensed["deals"]] == [d["phases"] for d in expanded["deals"]]
    assert encode(expanded, "condensed") == encode(data, "condensed")


def test_a_legacy_binary_record_without_the_layout_byte_is_read_as_condensed(tmp_path):
    data = encode(fixture("hand-written-order.egn"), "condensed")
    path = tmp_path / "legacy.egnb"
    path.write_bytes(data[1:])
    assert read_record(path).form == "binary, condensed"
    assert same_case(build_case(load_game(path), path), build_case(load_game(FIXTURES / "hand-written-order.egn"),
                                                                   FIXTURES / "hand-written-order.egn"))


def test_damaged_binary_files_are_refused_naming_the_file(tmp_path):
    path = tmp_path / "broken.egnb"
    path.write_bytes(b"\x00\x0a\xff\xff")
    with pytest.raises(EgnInvalid, match=r"broken.egnb: \$: not a protocol-buffer EGN record \(expanded layout\)"):
        read_record(path)
    message = message_class("condensed", "EgnFile")(file_type="Euchre Game Notation", version="1.4")
    message.metadata.initial_score.extend([0, 0])
    message.deals.append("AbC-_x")
    path.write_bytes(b"\x01" + message.SerializeToString())
    with pytest.raises(EgnInvalid, match=r"broken.egnb: \$\.deals\[0\]: condensed deal 'AbC-_x'"):
        read_record(path)


def test_export_writes_both_layouts_and_check_reads_them(tmp_path):
    cases = tmp_path / "cases"
    imported = subprocess.run([sys.executable, "-m", "conformance.cli", "egn", "import", "-o", str(cases),
                               str(FIXTURES / "lone-scores.egn"), str(FIXTURES / "farmers.egn")],
                              cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    for form, suffix in (("egnb", ".egnb"), ("expanded-egnb", ".expanded.egnb")):
        out = tmp_path / form
        result = subprocess.run([sys.executable, "-m", "conformance.cli", "egn", "export", "--form", form, "-o",
                                 str(out), str(cases)], cwd=ROOT, capture_output=True, text=True, timeout=600)
        written = sorted(p.name for p in out.iterdir())
        if form == "egnb":                       # farmers passes cards: the condensed form has no place for them
            assert result.returncode == 1 and "cardExchanges" in result.stdout
            assert written == ["egn-lone-scores.egnb"]
        else:
            assert result.returncode == 0, result.stdout + result.stderr
            assert written == ["egn-farmers.expanded.egnb", "egn-lone-scores.expanded.egnb"]
        check = subprocess.run([sys.executable, "-m", "conformance.cli", "egn", "check", *map(str, out.iterdir())],
                               cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert check.returncode == 0, check.stdout + check.stderr
        assert f"(binary, {'condensed' if form == 'egnb' else 'expanded'})" in check.stdout
