"""funEuchre (seanwolter/funEuchre, packages/game-rules) adapter: its mapping replayed on a
recorded exchange (no node, no engine), and, where the engine is checked out (FUN_EUCHRE_DIR),
the recording replayed live. The recording is fuzz's shrunk case of the dealer whose partner
goes alone still taking the upcard: the engine makes the dealer's exchange itself
(``dealerExchangeRequired`` whoever sits out), choosing his discard for him."""

from adapter_test_support import assert_missing_engine_named, assert_replays, assert_replays_live, fixture, needs_engine

import fun_euchre_engine as adapter

FIXTURE = "fun_euchre_exchange.json"


def test_recorded_exchange_replays_to_the_same_replies():
    assert_replays(adapter.Adapter, FIXTURE)


def test_the_recording_shows_the_sitting_out_dealer_discarding_the_card_the_engine_chose():
    recorded = fixture(FIXTURE)
    acts = [item for item in recorded["protocol"] if item["request"]["type"] == "act"]
    assert [a["request"]["action"] for a in acts] == ["pass", "order", "alone"]
    last = acts[-1]["reply"]["state"]
    # seat 3 alone, the dealer (seat 1) sits out: by the rules play starts, seat 2 leading
    assert last["sitting_out"] == [1] and last["alone"] is True
    assert last["phase"] == "discard" and last["to_act"] == 1
    assert len(last["legal"]) == 1 and len(last["hands"][1]) == 6 and "JS" in last["hands"][1]


def test_deal_order_is_three_then_two_from_the_dealers_left():
    hands = [[f"{r}{s}" for r in "9TJQK"] for s in "CDHS"]
    order = adapter.deal_order(3, hands, "AC", ["AD", "AH", "AS"])
    assert order[:3] == ["9C", "TC", "JC"] and order[9:12] == ["9S", "TS", "JS"]
    assert order[12:14] == ["QC", "KC"] and order[20:] == ["AC", "AD", "AH", "AS"]


def test_cards():
    assert adapter.engine_card("TH") == {"suit": "hearts", "rank": "10"} and adapter.token({"suit": "spades", "rank": "J"}) == "JS"


def test_missing_engine_names_the_variable():
    assert_missing_engine_named("fun_euchre_engine.py", "FUN_EUCHRE_DIR")


@needs_engine("FUN_EUCHRE_DIR", "seanwolter/funEuchre")
def test_recorded_exchange_replays_live():
    assert_replays_live("fun_euchre_engine.py", FIXTURE)
