"""euchre-webrtc (JeremyGuinn/euchre-webrtc) adapter: its mapping replayed on a recorded
exchange (no node, no engine), and, where the engine is checked out (EUCHRE_WEBRTC_DIR), the
recording replayed live. The recording is fuzz's case of the deal not passing to seat 0 after
all passed (the engine's ``currentPlayerPosition || currentDealerPosition`` reads seat 0 as
"no one")."""

from adapter_test_support import (assert_missing_engine_named, assert_replays, assert_replays_live, assert_shuffle_gives,
                                  fixture, needs_engine)

import euchre_webrtc_engine as adapter

FIXTURE = "euchre_webrtc_exchange.json"


def test_recorded_exchange_replays_to_the_same_replies():
    assert_replays(adapter.Adapter, FIXTURE)


def test_the_recording_shows_the_deal_staying_with_seat_3_after_all_passed():
    recorded = fixture(FIXTURE)
    acts = [item for item in recorded["protocol"] if item["request"]["type"] == "act"]
    assert len(acts) == 8 and all(item["request"]["action"] == "pass" for item in acts)
    last = acts[-1]["reply"]["state"]
    assert last["phase"] == "deal" and last["hand_points"] == [0, 0]
    assert last["dealer"] == 3          # the rules pass the deal to seat 0


def test_deck_target_deals_three_then_two_to_positions_0_to_3():
    hands = [[f"{r}{s}" for r in "9TJQK"] for s in "CDHS"]
    target = adapter.deck_target(hands, "AC", ["AD", "AH", "AS"])
    assert target[:3] == ["clubs-9", "clubs-10", "clubs-J"] and target[3] == "diamonds-9"
    assert target[12:14] == ["clubs-Q", "clubs-K"] and target[20] == "clubs-A"


def test_shuffle_numbers_make_create_decks_shuffle_give_the_target():
    target = list(reversed(adapter.ENGINE_DECK))
    assert_shuffle_gives(adapter.shuffle_numbers(target), adapter.ENGINE_DECK, target)


def test_card_ids():
    assert adapter.card_id("TH") == "hearts-10" and adapter.token({"suit": "spades", "value": "J"}) == "JS"


def test_missing_engine_names_the_variable():
    assert_missing_engine_named("euchre_webrtc_engine.py", "EUCHRE_WEBRTC_DIR")


@needs_engine("EUCHRE_WEBRTC_DIR", "JeremyGuinn/euchre-webrtc")
def test_recorded_exchange_replays_live():
    assert_replays_live("euchre_webrtc_engine.py", FIXTURE)
