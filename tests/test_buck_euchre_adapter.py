"""buckEuchre (doenjon/buckEuchre) adapter on the buck-euchre-auction table: its mapping
replayed on a recorded exchange (no node, no engine), and, where the engine is checked out
(BUCK_EUCHRE_DIR), the table's cases of its own readings passing."""

from adapter_test_support import ADAPTERS, assert_missing_engine_named, assert_replays, fixture, needs_engine

import buck_euchre_engine as adapter
from replay_exchange import check_cases

FIXTURE = "buck_euchre_exchange.json"


def test_recorded_exchange_replays_to_the_same_replies():
    assert_replays(adapter.Adapter, FIXTURE)


def test_the_recording_asks_stay_or_drop_from_the_makers_left():
    recorded = fixture(FIXTURE)
    states = [item["reply"]["state"] for item in recorded["protocol"]
              if item["request"]["type"] in ("act", "deal") and item["reply"].get("state")]
    asked = [s["to_act"] for s in states if s["phase"] == "stay-or-drop"]
    maker = next(s["maker"] for s in states if s["phase"] == "stay-or-drop")
    assert len(asked) >= 2 and asked == [(maker + k) % 4 for k in (1, 2, 3)][:len(asked)]


def test_deck_order_and_card_ids():
    hands = [[f"{r}{s}" for r in "9TJQK"] for s in "CDHS"]
    order = adapter.deck_order(hands, "AC", ["AD", "AH", "AS"])
    assert order[:4] == ["CLUBS_9", "DIAMONDS_9", "HEARTS_9", "SPADES_9"] and order[20] == "CLUBS_ACE"
    assert adapter.token({"suit": "HEARTS", "rank": "10"}) == "TH"


def test_missing_engine_names_the_variable():
    assert_missing_engine_named("buck_euchre_engine.py", "BUCK_EUCHRE_DIR")


@needs_engine("BUCK_EUCHRE_DIR", "doenjon/buckEuchre")
def test_the_table_of_its_readings_runs():
    cases = check_cases(ADAPTERS / "buck_euchre_engine.py", ["buck-auction-*"])
    assert cases["buck-auction-euchred-five-only"]["outcome"] == "pass", cases["buck-auction-euchred-five-only"]
    assert {c["outcome"] for c in cases.values()} <= {"pass", "fail", "unsupported"}
