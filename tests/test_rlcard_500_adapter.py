"""rlcard-500 (campbellborder/rlcard-500) adapter on five-hundred-four: its mappings on a
recorded exchange (no engine needed), and, where the engine is checked out (RLCARD_500_DIR),
the exchange replayed live and the suite finding its two known defects: after three passes
the fourth player may not pass, and points for defence tricks carry a side past 490."""

from adapter_test_support import ADAPTERS, assert_missing_engine_named, assert_replays_live, first_exchange, fixture, needs_engine

import rlcard_500_engine as adapter
from replay_exchange import check_cases

FIXTURE = "rlcard_500_exchange.json"


def test_the_recorded_deal_was_dealt_as_asked_and_the_fourth_player_could_not_pass():
    recorded = fixture(FIXTURE)
    deal = first_exchange(recorded, "deal")
    assert deal["reply"]["state"]["hands"] == deal["request"]["hands"]
    acts = [item for item in recorded["protocol"] if item["request"]["type"] == "act"]
    assert "pass" not in acts[2]["reply"]["state"]["legal"]            # after three passes: recorded from the engine
    assert acts[3]["reply"] == {"ok": False, "error": {"category": "illegal_action",
                                                       "message": "rlcard-500's judger does not list 'pass'"}}


def test_deck_order_follows_deal_cards():
    hands = [[f"{r}{s}" for r in "56789TJQKA"] for s in "SCDH"]
    deck = adapter.deck_order(hands, ["4D", "4H", "JK"])
    popped = list(reversed(deck))
    assert popped[:3] == hands[0][:3] and popped[3:6] == hands[1][:3] and popped[12] == "4D"
    assert adapter.card_token("RJ") == adapter.card_token("RJS") == "JK" and adapter.bid_token("M") == "bid:misere"


def test_missing_engine_names_the_variable():
    assert_missing_engine_named("rlcard_500_engine.py", "RLCARD_500_DIR")


@needs_engine("RLCARD_500_DIR", "campbellborder/rlcard-500")
def test_recorded_exchange_replays_live():
    assert_replays_live("rlcard_500_engine.py", FIXTURE)


@needs_engine("RLCARD_500_DIR", "campbellborder/rlcard-500")
def test_a_case_whose_first_dealer_is_cut_is_not_run_and_says_why():
    # The engine's game draws its first dealer at random (FiveHundredGame.init_game), so it
    # cannot cut for the deal; its hello declines first-dealer, and the case is not run
    # rather than failed by the refusal of its new_game.
    case = "gen-five-hundred-four-1000128"
    found = check_cases(ADAPTERS / "rlcard_500_engine.py", [case])[case]
    assert found["outcome"] == "unsupported", found
    assert "first dealer chosen from cards (new_game with first_dealer) is declined in hello: rlcard-500 cannot " \
           "cut for the first deal" in found["detail"], found


@needs_engine("RLCARD_500_DIR", "campbellborder/rlcard-500")
def test_the_suite_finds_both_defects():
    cases = check_cases(ADAPTERS / "rlcard_500_engine.py", ["five-hundred-four-no-bid-thrown-in", "five-hundred-four-defence-stops-at-490"])
    no_bid = cases["five-hundred-four-no-bid-thrown-in"]
    # the case is made without misère; the engine declares misere-and-open only, under which the
    # case's moves and results stay and only its legal bids differ: it runs with those sets
    # re-derived by the reference, and fails where the fourth player, after three passes, is
    # not offered the pass the rules give him
    assert no_bid["outcome"] == "fail" and "legal sets re-derived" in no_bid["detail"], no_bid
    failure = no_bid["failure"]
    assert (failure["hand"], failure["step"], failure["field"]) == (1, 4, "legal"), failure
    assert "pass" in failure["expected"] and "pass" not in failure["actual"], failure
    defence = cases["five-hundred-four-defence-stops-at-490"]
    assert defence["outcome"] == "fail" and defence["failure"]["field"] == "hand_points", defence


@needs_engine("RLCARD_500_DIR", "campbellborder/rlcard-500")
def test_fuzz_views_finds_that_the_declarer_forgets_the_cards_he_laid_away():
    """A seat's view is the game's ``get_state`` for that player (its hand alone): the declarer's
    three discards from the kitty are in no state of his."""
    import sys

    from conformance.runner.engine_process import EngineProcess
    from conformance.fuzzing.views import ViewFuzzer
    from reference_impl.resolve import resolve

    engine = EngineProcess([sys.executable, str(ADAPTERS / "rlcard_500_engine.py")], 10.0)
    try:
        result = ViewFuzzer(engine, resolve("five-hundred-four", {"misere": "misere-and-open"}), seed=0, hands=100,
                            max_findings=2, compare_reference=False).run()
    finally:
        engine.stop()
    assert ("forgotten", "discards") in {(finding.kind, finding.field) for finding in result.findings}
