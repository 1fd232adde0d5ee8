"""The adapters of the four TypeScript engines driven through node (euchre-webrtc,
euchre-reasoning-arena, funEuchre, moltblox): each adapter's mapping replayed on its recorded
exchange (no node, no engine), the recording replayed live where the engine is checked out, the
missing engine's message naming its variable, the shuffle numbers laying out the runner's deal;
then, per engine, what its recording shows (fuzz's shrunk case of one of its defects) and how
its cards and pack map.

The recordings:

- euchre-webrtc: the deal not passing to seat 0 after all passed (the engine's
  ``currentPlayerPosition || currentDealerPosition`` reads seat 0 as "no one").
- euchre-reasoning-arena: the player who sits out leading against a loner (``makeTrumpBid``
  sets the first lead, always the dealer's left, before asking who sits out).
- funEuchre: the dealer whose partner goes alone still taking the upcard (the engine makes the
  dealer's exchange itself, ``dealerExchangeRequired`` whoever sits out, choosing his discard).
- moltblox: the dealer whose partner goes alone still taking the upcard (its ``go_alone`` puts
  the upcard in the dealer's hand whoever sits out).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import pytest

from adapter_test_support import (assert_missing_engine_named, assert_replays, assert_replays_live, assert_shuffle_gives,
                                  engine_present, fixture)


@dataclass(frozen=True)
class Engine:
    module: str             # the adapter, tools/adapters/<module>.py
    fixture: str            # its recorded exchange, tests/fixtures/adapters/
    variable: str           # the variable naming its checkout
    checkout: str           # of what
    shuffles: bool          # whether the adapter lays out the deal through the engine's own shuffle

    @property
    def adapter(self) -> Any:
        return importlib.import_module(self.module)


ENGINES = {
    "euchre-webrtc": Engine("euchre_webrtc_engine", "euchre_webrtc_exchange.json", "EUCHRE_WEBRTC_DIR",
                            "JeremyGuinn/euchre-webrtc", True),
    "euchre-arena": Engine("euchre_arena_engine", "euchre_arena_exchange.json", "EUCHRE_ARENA_DIR",
                           "estern1011/euchre-reasoning-arena", True),
    "fun-euchre": Engine("fun_euchre_engine", "fun_euchre_exchange.json", "FUN_EUCHRE_DIR", "seanwolter/funEuchre", False),
    "moltblox": Engine("moltblox_euchre_engine", "moltblox_exchange.json", "MOLTBLOX_DIR", "Halldon-Inc/moltblox", True),
}
NAMES = sorted(ENGINES)


def acts_of(name: str) -> list[dict[str, Any]]:
    recorded = fixture(ENGINES[name].fixture)
    return [item for item in recorded["protocol"] if item["request"]["type"] == "act"]


# -- what every one of them is checked on ----------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_recorded_exchange_replays_to_the_same_replies(name):
    assert_replays(ENGINES[name].adapter.Adapter, ENGINES[name].fixture)


@pytest.mark.parametrize("name", NAMES)
def test_missing_engine_names_the_variable(name):
    engine = ENGINES[name]
    assert_missing_engine_named(f"{engine.module}.py", engine.variable)


@pytest.mark.parametrize("name", [n for n in NAMES if ENGINES[n].shuffles])
def test_shuffle_numbers_make_the_engines_shuffle_give_the_target(name):
    adapter = ENGINES[name].adapter
    target = list(reversed(adapter.ENGINE_DECK))
    assert_shuffle_gives(adapter.shuffle_numbers(target), adapter.ENGINE_DECK, target)


@pytest.mark.parametrize("name", NAMES)
def test_recorded_exchange_replays_live(name):
    engine = ENGINES[name]
    if not engine_present(engine.variable):
        pytest.skip(f"set {engine.variable} to a checkout of {engine.checkout}")
    assert_replays_live(f"{engine.module}.py", engine.fixture)


# -- what each recording shows ---------------------------------------------------------------------
def test_webrtc_recording_shows_the_deal_staying_with_seat_3_after_all_passed():
    acts = acts_of("euchre-webrtc")
    assert len(acts) == 8 and all(item["request"]["action"] == "pass" for item in acts)
    last = acts[-1]["reply"]["state"]
    assert last["phase"] == "deal" and last["hand_points"] == [0, 0]
    assert last["dealer"] == 3          # the rules pass the deal to seat 0


def test_arena_recording_shows_the_sitting_out_player_to_lead():
    acts = acts_of("euchre-arena")
    assert [a["request"]["action"] for a in acts] == ["pass", "pass", "order", "alone", "discard:9C"]
    last = acts[-1]["reply"]["state"]
    assert last["phase"] == "play" and last["sitting_out"] == [1]
    assert last["to_act"] == 1          # the rules: the eldest hand still playing, seat 2, leads


def test_fun_euchre_recording_shows_the_sitting_out_dealer_discarding_the_card_the_engine_chose():
    acts = acts_of("fun-euchre")
    assert [a["request"]["action"] for a in acts] == ["pass", "order", "alone"]
    last = acts[-1]["reply"]["state"]
    # seat 3 alone, the dealer (seat 1) sits out: by the rules play starts, seat 2 leading
    assert last["sitting_out"] == [1] and last["alone"] is True
    assert last["phase"] == "discard" and last["to_act"] == 1
    assert len(last["legal"]) == 1 and len(last["hands"][1]) == 6 and "JS" in last["hands"][1]


def test_moltblox_recording_shows_the_sitting_out_dealer_holding_the_upcard():
    acts = acts_of("moltblox")
    assert [a["request"]["action"] for a in acts] == ["pass", "order", "alone"]
    last = acts[-1]["reply"]["state"]
    # seat 1 alone, the dealer (seat 3) sits out: by the rules play starts, seat 0 leading
    assert last["sitting_out"] == [3] and last["phase"] == "discard" and last["to_act"] == 3
    assert len(last["hands"][3]) == 6 and "JS" in last["hands"][3]


# -- each engine's pack and cards --------------------------------------------------------------------
HANDS = [[f"{r}{s}" for r in "9TJQK"] for s in "CDHS"]


def test_webrtc_deck_target_deals_three_then_two_to_positions_0_to_3():
    adapter = ENGINES["euchre-webrtc"].adapter
    target = adapter.deck_target(HANDS, "AC", ["AD", "AH", "AS"])
    assert target[:3] == ["clubs-9", "clubs-10", "clubs-J"] and target[3] == "diamonds-9"
    assert target[12:14] == ["clubs-Q", "clubs-K"] and target[20] == "clubs-A"
    assert adapter.card_id("TH") == "hearts-10" and adapter.token({"suit": "spades", "value": "J"}) == "JS"


def test_arena_deck_target_deals_five_to_each_seat_then_the_upcard():
    adapter = ENGINES["euchre-arena"].adapter
    target = adapter.deck_target(HANDS, "AC", ["AD", "AH", "AS"])
    assert target[:5] == HANDS[0] and target[15:20] == HANDS[3] and target[20] == "AC" and target[21:] == ["AD", "AH", "AS"]
    assert adapter.engine_card("TH") == {"suit": "hearts", "rank": "10"}
    assert adapter.token({"suit": "spades", "rank": "jack"}) == "JS"


def test_fun_euchre_deal_order_is_three_then_two_from_the_dealers_left():
    adapter = ENGINES["fun-euchre"].adapter
    order = adapter.deal_order(3, HANDS, "AC", ["AD", "AH", "AS"])
    assert order[:3] == ["9C", "TC", "JC"] and order[9:12] == ["9S", "TS", "JS"]
    assert order[12:14] == ["QC", "KC"] and order[20:] == ["AC", "AD", "AH", "AS"]
    assert adapter.engine_card("TH") == {"suit": "hearts", "rank": "10"} and adapter.token({"suit": "spades", "rank": "J"}) == "JS"


def test_moltblox_deck_target_pops_five_to_each_player_then_the_upcard():
    adapter = ENGINES["moltblox"].adapter
    popped = list(reversed(adapter.deck_target(HANDS, "AC", ["AD", "AH", "AS"])))
    assert popped[:5] == HANDS[0] and popped[15:20] == HANDS[3] and popped[20] == "AC"
    assert adapter.token({"rank": 10, "suit": 2}) == "TH" and adapter.token({"rank": 11, "suit": 3}) == "JS"
