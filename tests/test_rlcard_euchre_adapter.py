"""RLCard-Euchre adapter (W23-Euchre-Reinforcement-Learning and euchre_rl): its token and
deal mappings on a recorded exchange (no engine needed), and, where a copy is checked out
(RLCARD_EUCHRE_DIR), the recorded exchange replayed live and the suite finding its scoring
defect (a euchre on 3-4 defender tricks scored 1) and its trick-winner defect."""

import os

import pytest

from adapter_test_support import ADAPTERS, assert_missing_engine_named, assert_replays_live, first_exchange, fixture, needs_engine

import rlcard_euchre_engine as adapter
from replay_exchange import check_cases

FIXTURE = "rlcard_euchre_exchange.json"


def test_the_recorded_deal_was_dealt_as_asked():
    deal = first_exchange(fixture(FIXTURE), "deal")
    assert deal["reply"]["state"]["hands"] == deal["request"]["hands"]
    assert deal["reply"]["state"]["legal"] == ["order", "pass"]          # RLCard's ['pick', 'pass']


def test_every_recorded_action_maps_to_the_engine_and_back():
    actions = {a for item in fixture(FIXTURE)["protocol"] for a in (item["reply"].get("state") or {}).get("legal", [])}
    assert {"order", "pass"} <= actions and any(a.startswith("play:") for a in actions)
    for action in actions:
        assert adapter.protocol_action(adapter.engine_action(action)) == action


def test_custom_deck_follows_the_engines_documented_layout():
    # utils.init_euchre_deck: left of dealer 0-4, across 5-9, right 10-14, dealer 15-19, kitty (turned card first)
    hands = [["9C", "TC", "JC", "QC", "KC"], ["9D", "TD", "JD", "QD", "KD"], ["9H", "TH", "JH", "QH", "KH"],
             ["9S", "TS", "JS", "QS", "KS"]]
    deck = adapter.deal_order(hands, "AC", ["AD", "AH", "AS"], dealer=3)
    assert deck[:5] == ["C9", "CT", "CJ", "CQ", "CK"] and deck[15:20] == ["S9", "ST", "SJ", "SQ", "SK"]
    assert deck[20] == "CA"
    # euchre_rl: five cards to seats 0-3 and then the turned card, each by deck.pop() from the end
    popped = list(reversed(adapter.pop_order(hands, "AC", ["AD", "AH", "AS"])))
    assert popped[:5] == ["C9", "CT", "CJ", "CQ", "CK"] and popped[20] == "CA"


def test_missing_engine_names_the_variable():
    assert_missing_engine_named("rlcard_euchre_engine.py", "RLCARD_EUCHRE_DIR")


@needs_engine("RLCARD_EUCHRE_DIR", "an RLCard-Euchre copy")
def test_recorded_exchange_replays_live():
    if "euchre_trick" in os.listdir(os.environ["RLCARD_EUCHRE_DIR"]):
        pytest.skip("the fixture was recorded on the W23 copy (its hello names it)")
    assert_replays_live("rlcard_euchre_engine.py", FIXTURE)


@needs_engine("RLCARD_EUCHRE_DIR", "an RLCard-Euchre copy")
def test_the_suite_finds_the_scoring_and_trick_defects():
    cases = check_cases(ADAPTERS / "rlcard_euchre_engine.py", ["stuck-dealer-no-lone-hands-*"])
    scoring = cases["stuck-dealer-no-lone-hands-euchre-scores-two"]
    assert scoring["outcome"] == "fail" and scoring["failure"]["field"] == "hand_points", scoring
    assert (scoring["failure"]["expected"], scoring["failure"]["actual"]) == ([2, 0], [1, 0])
    trick = cases["stuck-dealer-no-lone-hands-trump-beats-later-plain-card"]
    assert trick["outcome"] == "fail" and trick["failure"]["field"] == "trick_winner", trick


@needs_engine("RLCARD_EUCHRE_DIR", "an RLCard-Euchre copy")
def test_fuzz_views_finds_what_each_copy_tells_its_players_of_the_dealers_discard():
    """A seat's view is RLCard's ``get_state`` for that player: the W23 copy puts the dealer's
    discard in every player's state (a leak), euchre_rl in none, not even the dealer's (forgotten)."""
    import sys

    from conformance.runner.engine_process import EngineProcess
    from conformance.fuzzing.views import ViewFuzzer
    from reference_impl.resolve import resolve

    w23 = "euchre_trick" not in os.listdir(os.environ["RLCARD_EUCHRE_DIR"])
    engine = EngineProcess([sys.executable, str(ADAPTERS / "rlcard_euchre_engine.py")], 10.0)
    table = resolve("euchre", {"stick-the-dealer": True, "going-alone": False, "first-dealer": "random"})
    try:
        result = ViewFuzzer(engine, table, seed=0, hands=60, max_findings=3, compare_reference=False).run()
    finally:
        engine.stop()
    found = {(finding.kind, finding.field) for finding in result.findings}
    assert (("leak", "discards") if w23 else ("forgotten", "discards")) in found, found
