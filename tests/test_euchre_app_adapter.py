"""67cards (sclarke500/euchre-app) adapter: its mapping replayed on a recorded exchange (no
node, no engine), and, where the engine is checked out (EUCHRE_APP_DIR), the suite finding
the three defects a hand probe found."""

from adapter_test_support import (ADAPTERS, assert_missing_engine_named, assert_replays, assert_shuffle_gives, first_exchange,
                                  fixture, needs_engine)

import euchre_app_engine as adapter
from replay_exchange import check_cases

FIXTURE = "euchre_app_exchange.json"


def test_recorded_exchange_replays_to_the_same_replies():
    assert_replays(adapter.Adapter, FIXTURE)


def test_the_recording_shows_the_engine_accepting_another_suit_in_round_one():
    deal = first_exchange(fixture(FIXTURE), "deal")
    assert set(deal["reply"]["state"]["legal"]) == {"pass", "order", "call:C", "call:D", "call:H", "call:S"}
    assert deal["reply"]["state"]["hands"] == deal["request"]["hands"]      # the shuffle numbers laid the deal out


def test_shuffle_numbers_make_the_engines_fisher_yates_give_the_target():
    target = list(reversed(adapter.ENGINE_DECK))
    assert_shuffle_gives(adapter.shuffle_numbers(target), adapter.ENGINE_DECK, target)


def test_card_ids():
    assert adapter.card_id("TH") == "hearts-10" and adapter.token({"suit": "spades", "rank": "J"}) == "JS"


def test_missing_engine_names_the_variable():
    assert_missing_engine_named("euchre_app_engine.py", "EUCHRE_APP_DIR")


@needs_engine("EUCHRE_APP_DIR", "sclarke500/euchre-app")
def test_the_suite_finds_the_three_bidding_defects():
    cases = check_cases(ADAPTERS / "euchre_app_engine.py", ["no-lone-defence-round-*"])
    for case_id, clause in (("no-lone-defence-round-1-only-the-upcard-suit", "round-1"),
                            ("no-lone-defence-round-2-turned-down-suit-refused", "turned-down-suit"),
                            ("no-lone-defence-round-2-upcard-not-ordered", "round-2")):
        failure = cases[case_id].get("failure") or {}
        assert cases[case_id]["outcome"] == "fail" and failure.get("actual") == "accepted", cases[case_id]
        assert failure["clause"]["id"] == clause
