"""Reading EGN files: the structure checked as EGN's documentation states it, cards in EGN's
notation, refusals named by their JSON path.

The fixtures in tests/fixtures/egn/ were written for these tests from EGN's specification
(two by hand, the others from seeded games of the reference written in EGN's encoding and
stripped to what real records hold); none comes from EGN's repository. Where a copy of
EGN's own JSON Schema is at hand (../shared/reference/egn/), the checks here are compared
with it.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from conformance.egn.cards import CardError, from_egn, to_egn
from conformance.egn.record import EgnInvalid, EgnUnsupported, parse_record, read_record

FIXTURES = Path(__file__).parent / "fixtures" / "egn"
# EGN's own schema is not ours to ship: it is read from the workspace's shared/ folder beside
# the checkout, or from the file EGN_SCHEMA names (README: "The EGN schema tests").
SCHEMA = Path(os.environ.get("EGN_SCHEMA")
              or Path(__file__).resolve().parents[2] / "shared" / "reference" / "egn" / "egn-schema-v1.json")
EGN_SCHEMA_SKIP = "EGN's JSON Schema is not at"
COLOURS = {"C": "black", "D": "red", "H": "red", "S": "black"}


def egn_validator():
    """EGN's own schema, where the folder beside the project holds it (tests only)."""
    if not SCHEMA.is_file():
        pytest.skip(f"{EGN_SCHEMA_SKIP} {SCHEMA}: set EGN_SCHEMA to its path to run this test")
    import jsonschema
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def sound_names() -> list[str]:
    return sorted(p.name for p in FIXTURES.glob("*.egn") if not p.name.startswith(("invalid-", "unsupported-")))


# -- cards ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("raw, card", [("Jd", "JD"), ("Ts", "TS"), ("9h", "9H"), ("Nc", "9C"), ("AS", "AS"),
                                       ("B", "JK"), ("7d", "7D"), ("8C", "8C")])
def test_egn_cards_are_our_cards(raw, card):
    assert from_egn(raw) == card


def test_bowers_written_r_and_l_need_the_trump_suit():
    assert from_egn("R", "H", COLOURS) == "JH"
    assert from_egn("L", "H", COLOURS) == "JD"
    assert from_egn("L", "C", COLOURS) == "JS"
    with pytest.raises(CardError):
        from_egn("R")
    with pytest.raises(CardError):
        from_egn("L", "NT", COLOURS)


@pytest.mark.parametrize("raw", ["Xs", "Jx", "Xx", "At", "Kn", "Qg", "10h", "", "JK"])
def test_unknown_generic_and_malformed_cards_name_no_card(raw):
    with pytest.raises(CardError):
        from_egn(raw)


def test_our_cards_written_in_egns_canonical_form():
    assert [to_egn(c) for c in ("JD", "TS", "9C", "JK")] == ["Jd", "Ts", "9c", "B"]


# -- files ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sound_names())
def test_every_sound_and_defective_fixture_is_valid_egn(name):
    record = read_record(FIXTURES / name)
    assert record.deals and record.players


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.egn")))
def test_our_structural_checks_agree_with_egns_schema_on_every_fixture(name):
    validator = egn_validator()
    data = fixture(name)
    schema_ok = not list(validator.iter_errors(data))
    try:
        parse_record(data, name)
        ours_ok = True
    except EgnUnsupported:
        ours_ok = True                 # valid EGN that we cannot use
    except EgnInvalid:
        ours_ok = False
    assert ours_ok == schema_ok


def _mutations(base: dict):
    """Small damages to a valid file, each one EGN's schema has a rule about."""
    def edit(fn):
        data = copy.deepcopy(base)
        fn(data)
        return data
    deal = lambda d: d["deals"][0]                                               # noqa: E731
    bid = lambda d: d["deals"][0]["phases"][0]                                   # noqa: E731
    yield "fileType", edit(lambda d: d.update(fileType="Euchre Notation"))
    yield "version 0.9", edit(lambda d: d.update(version="0.9"))
    yield "version 1.5", edit(lambda d: d.update(version="1.5"))
    yield "version 1.4.2", edit(lambda d: d.update(version="1.4.2"))
    yield "unknown top key", edit(lambda d: d.update(match="x"))
    yield "no metadata.players", edit(lambda d: d["metadata"].pop("players"))
    yield "no initialScore", edit(lambda d: d["metadata"].pop("initialScore"))
    yield "three scores", edit(lambda d: d["metadata"].update(initialScore=[0, 0, 0]))
    yield "empty initialScore", edit(lambda d: d["metadata"].update(initialScore=[]))
    yield "a float score", edit(lambda d: d["metadata"].update(initialScore=[0.5, 0]))
    yield "date only", edit(lambda d: d["metadata"].update(date="2026-07-30"))
    yield "local date", edit(lambda d: d["metadata"].update(date="2026-07-30 20:15"))
    yield "zoned date", edit(lambda d: d["metadata"].update(date="2026-07-30T20:15:00+05:30"))
    yield "long title", edit(lambda d: d["metadata"].update(title="t" * 129))
    yield "unknown flag", edit(lambda d: d["metadata"]["ruleset"].update(stick=True))
    yield "flag type", edit(lambda d: d["metadata"]["ruleset"].update(std="yes"))
    yield "loner_lead", edit(lambda d: d["metadata"]["ruleset"].update(loner_lead="LEFT"))
    yield "winning_score 0 alone", edit(lambda d: d["metadata"]["ruleset"].update(winning_score=0))
    yield "num_deals 0 alone", edit(lambda d: d["metadata"]["ruleset"].update(num_deals=0))
    yield "num_deals 4, no target", edit(lambda d: d["metadata"]["ruleset"].update(num_deals=4))
    yield "target and deals", edit(lambda d: d["metadata"]["ruleset"].update(num_deals=4, winning_score=10))
    yield "dealer 10", edit(lambda d: deal(d)["initialState"].update(dealer=10))
    yield "dealer 5", edit(lambda d: deal(d)["initialState"].update(dealer=5))
    yield "no upCard", edit(lambda d: deal(d)["initialState"].pop("upCard"))
    yield "kitty (removed in 1.2)", edit(lambda d: deal(d)["initialState"].update(kitty=["9s", "Ts", "Js"]))
    yield "bad card", edit(lambda d: deal(d)["initialState"].update(upCard="10h"))
    yield "three phases", edit(lambda d: deal(d)["phases"].append(copy.deepcopy(deal(d)["phases"][0])))
    yield "bad call", edit(lambda d: bid(d)["calls"].append("Alone"))
    yield "17 calls", edit(lambda d: bid(d).update(calls=["Pass"] * 17))
    yield "no calls", edit(lambda d: bid(d).pop("calls"))
    yield "annotation key", edit(lambda d: bid(d).update(callAnnotations={"first": ["x"]}))
    yield "exchange without receiver", edit(lambda d: bid(d).update(cardExchanges=[{"cards": ["9s"]}]))
    yield "exchange from the kitty", edit(lambda d: bid(d).update(cardExchanges=[{"receiver": 1, "cards": ["9s"]}]))
    yield "initialLead (removed)", edit(lambda d: deal(d)["phases"][1].update(initialLead=1))
    yield "11 tricks", edit(lambda d: deal(d)["phases"][1].update(tricks=[["9s"]] * 11))
    yield "no deals", edit(lambda d: d.pop("deals"))
    yield "empty deals", edit(lambda d: d.update(deals=[]))
    yield "player object", edit(lambda d: d["metadata"]["players"].__setitem__(0, {"name": "N", "id": "n1"}))
    yield "player object without name", edit(lambda d: d["metadata"]["players"].__setitem__(0, {"id": "n1"}))


@pytest.mark.parametrize("what, data", list(_mutations(fixture("hand-written-loner.egn"))),
                         ids=[what for what, _ in _mutations(fixture("hand-written-loner.egn"))])
def test_a_damaged_file_is_refused_exactly_when_egns_schema_refuses_it(what, data):
    validator = egn_validator()
    schema_ok = not list(validator.iter_errors(data))
    if what == "date only" and "date-time" not in validator.format_checker.checkers:
        schema_ok = False              # EGN's validator checks the format (ajv-formats); this jsonschema cannot
    try:
        parse_record(data, "x.egn")
        ours_ok = True
    except EgnUnsupported:
        ours_ok = True
    except EgnInvalid:
        ours_ok = False
    assert ours_ok == schema_ok, what


def test_a_refusal_names_the_path_and_says_what_is_wrong():
    with pytest.raises(EgnInvalid) as caught:
        read_record(FIXTURES / "invalid-structure.egn")
    text = str(caught.value)
    assert "invalid-structure.egn: $.metadata: missing required key 'initialScore'" in text
    assert "$.metadata.round: unknown key 'round'" in text
    assert "$.deals[0].initialState.upCard: '10h' is not an EGN card" in text
    with pytest.raises(EgnInvalid, match=r"\$\.metadata\.ruleset: winning_score and num_deals may not both be given"):
        read_record(FIXTURES / "invalid-both-limits.egn")


def test_a_version_before_1_0_is_refused_naming_the_versions_read():
    data = fixture("hand-written-order.egn")
    data["version"] = "0.9"
    with pytest.raises(EgnInvalid, match=r"\$\.version: '0\.9' is not a version of EGN \(1\.0 to 1\.4\)"):
        parse_record(data)


def test_not_json_and_not_utf8_are_refused_in_one_line(tmp_path):
    bad = tmp_path / "bad.egn"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(EgnInvalid, match=r"bad.egn: \$: not JSON"):
        read_record(bad)
    bad.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(EgnInvalid, match="not UTF-8"):
        read_record(bad)


def test_a_damaged_condensed_deal_is_invalid_and_a_match_file_is_no_single_game():
    data = fixture("hand-written-order.egn")
    data["deals"] = ["AbC-_x"]
    with pytest.raises(EgnInvalid, match=r"\$\.deals\[0\]: a condensed deal that does not decode"):
        parse_record(data)
    with pytest.raises(EgnUnsupported, match="match file"):
        parse_record({"fileType": "Euchre Match Notation", "version": "1.0", "games": []})


def test_the_ruleset_defaults_are_egns_and_a_fixed_deal_game_has_no_target():
    record = parse_record(fixture("hand-written-order.egn"))
    assert record.flag("std") is True and record.flag("loner_lead") == "LEFT_OF_DEALER"
    assert record.flag("defend_alone") is False and record.flag("winning_score") == 10
    fixed = parse_record(fixture("num-deals.egn"))
    assert fixed.flag("num_deals") == 4 and fixed.flag("winning_score") == 0


def test_a_record_keeps_what_it_says():
    record = read_record(FIXTURES / "hand-written-loner.egn")
    assert record.players == ["Ann", "Ben", "Cat", "Dan"]
    assert record.initial_score == [9, 9] and record.final_score == [9, 10]
    deal = record.deals[0]
    assert (deal.dealer, deal.upcard, deal.calls, deal.alone, deal.discard) == (0, "Ah", ["Pass", "Pass", "Order"], True, "Qs")
    assert deal.tricks[1] == ["R", "Ah", "Tc"]
    assert deal.call_annotations == {2: ["[!]A strong order, alone"]}
