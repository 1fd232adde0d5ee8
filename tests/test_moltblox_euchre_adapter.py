"""moltblox's EuchreGame (Halldon-Inc/moltblox, packages/game-builder) adapter: its mapping
replayed on a recorded exchange (no node, no engine), and, where the engine is checked out
(MOLTBLOX_DIR), the recording replayed live. The recording is fuzz's shrunk case of the dealer
whose partner goes alone still taking the upcard (its ``go_alone`` puts the upcard in the
dealer's hand whoever sits out)."""

from adapter_test_support import (assert_missing_engine_named, assert_replays, assert_replays_live, assert_shuffle_gives,
                                  fixture, needs_engine)

import moltblox_euchre_engine as adapter

FIXTURE = "moltblox_exchange.json"


def test_recorded_exchange_replays_to_the_same_replies():
    assert_replays(adapter.Adapter, FIXTURE)


def test_the_recording_shows_the_sitting_out_dealer_holding_the_upcard():
    recorded = fixture(FIXTURE)
    acts = [item for item in recorded["protocol"] if item["request"]["type"] == "act"]
    assert [a["request"]["action"] for a in acts] == ["pass", "order", "alone"]
    last = acts[-1]["reply"]["state"]
    # seat 1 alone, the dealer (seat 3) sits out: by the rules play starts, seat 0 leading
    assert last["sitting_out"] == [3] and last["phase"] == "discard" and last["to_act"] == 3
    assert len(last["hands"][3]) == 6 and "JS" in last["hands"][3]


def test_deck_target_pops_five_to_each_player_then_the_upcard():
    hands = [[f"{r}{s}" for r in "9TJQK"] for s in "CDHS"]
    target = adapter.deck_target(hands, "AC", ["AD", "AH", "AS"])
    popped = list(reversed(target))
    assert popped[:5] == hands[0] and popped[15:20] == hands[3] and popped[20] == "AC"


def test_shuffle_numbers_make_create_euchre_deck_give_the_target():
    target = list(reversed(adapter.ENGINE_DECK))
    assert_shuffle_gives(adapter.shuffle_numbers(target), adapter.ENGINE_DECK, target)


def test_cards():
    assert adapter.token({"rank": 10, "suit": 2}) == "TH" and adapter.token({"rank": 11, "suit": 3}) == "JS"


def test_missing_engine_names_the_variable():
    assert_missing_engine_named("moltblox_euchre_engine.py", "MOLTBLOX_DIR")


@needs_engine("MOLTBLOX_DIR", "Halldon-Inc/moltblox")
def test_recorded_exchange_replays_live():
    assert_replays_live("moltblox_euchre_engine.py", FIXTURE)
