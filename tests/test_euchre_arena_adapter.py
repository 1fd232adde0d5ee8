"""euchre-reasoning-arena (estern1011/euchre-reasoning-arena, lib/game) adapter: its mapping
replayed on a recorded exchange (no node, no engine), and, where the engine is checked out
(EUCHRE_ARENA_DIR), the recording replayed live. The recording is fuzz's shrunk case of the
player who sits out leading against a loner: the engine's first lead is always the dealer's
left (``makeTrumpBid`` sets it before asking who sits out)."""

from adapter_test_support import (assert_missing_engine_named, assert_replays, assert_replays_live, assert_shuffle_gives,
                                  fixture, needs_engine)

import euchre_arena_engine as adapter

FIXTURE = "euchre_arena_exchange.json"


def test_recorded_exchange_replays_to_the_same_replies():
    assert_replays(adapter.Adapter, FIXTURE)


def test_the_recording_shows_the_sitting_out_player_to_lead():
    recorded = fixture(FIXTURE)
    acts = [item for item in recorded["protocol"] if item["request"]["type"] == "act"]
    assert [a["request"]["action"] for a in acts] == ["pass", "pass", "order", "alone", "discard:9C"]
    last = acts[-1]["reply"]["state"]
    assert last["phase"] == "play" and last["sitting_out"] == [1]
    assert last["to_act"] == 1          # the rules: the eldest hand still playing, seat 2, leads


def test_deck_target_deals_five_to_each_seat_then_the_upcard():
    hands = [[f"{r}{s}" for r in "9TJQK"] for s in "CDHS"]
    target = adapter.deck_target(hands, "AC", ["AD", "AH", "AS"])
    assert target[:5] == hands[0] and target[15:20] == hands[3] and target[20] == "AC" and target[21:] == ["AD", "AH", "AS"]


def test_shuffle_numbers_make_shuffle_deck_give_the_target():
    target = list(reversed(adapter.ENGINE_DECK))
    assert_shuffle_gives(adapter.shuffle_numbers(target), adapter.ENGINE_DECK, target)


def test_cards():
    assert adapter.engine_card("TH") == {"suit": "hearts", "rank": "10"}
    assert adapter.token({"suit": "spades", "rank": "jack"}) == "JS"


def test_missing_engine_names_the_variable():
    assert_missing_engine_named("euchre_arena_engine.py", "EUCHRE_ARENA_DIR")


@needs_engine("EUCHRE_ARENA_DIR", "estern1011/euchre-reasoning-arena")
def test_recorded_exchange_replays_live():
    assert_replays_live("euchre_arena_engine.py", FIXTURE)
