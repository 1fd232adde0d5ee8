"""euchre-plt (crashka/euchre-plt) adapter: its mappings on a recorded exchange (no engine
needed), and, where the engine is checked out (EUCHRE_PLT_DIR), the exchange replayed live
and the corpus run on it: the hand probe found no defect, the suite finds one order of
steps (the dealer discards before a lone defence is offered)."""

import pytest

from adapter_test_support import ADAPTERS, FIXTURES, engine_present, missing_engine_message

from replay_exchange import check_cases, load, replay_live

FIXTURE = FIXTURES / "euchre_plt_exchange.json"


def test_the_recorded_exchange_shows_the_deal_and_the_discard_before_the_lone_defence():
    fixture = load(FIXTURE)
    deal = next(item for item in fixture["protocol"] if item["request"]["type"] == "deal")
    assert deal["reply"]["state"]["hands"] == deal["request"]["hands"]
    phases = [item["reply"]["state"]["phase"] for item in fixture["protocol"] if item["request"]["type"] == "act"
              and item["reply"].get("ok")]
    assert phases[:2] == ["alone", "discard"]          # order, alone: then euchre-plt asks the dealer's discard


def test_missing_engine_names_the_variable():
    status, stderr = missing_engine_message("euchre_plt_engine.py", "EUCHRE_PLT_DIR")
    assert status == 2 and "EUCHRE_PLT_DIR" in stderr


@pytest.mark.skipif(not engine_present("EUCHRE_PLT_DIR"), reason="set EUCHRE_PLT_DIR to a checkout of crashka/euchre-plt")
def test_recorded_exchange_replays_live():
    for recorded, now in replay_live(ADAPTERS / "euchre_plt_engine.py", load(FIXTURE)):
        assert now == recorded


@pytest.mark.skipif(not engine_present("EUCHRE_PLT_DIR"), reason="set EUCHRE_PLT_DIR to a checkout of crashka/euchre-plt")
def test_the_corpus_passes_but_for_the_order_of_discard_and_lone_defence():
    cases = check_cases(ADAPTERS / "euchre_plt_engine.py", ["made-three-tricks", "trump-rank-order", "lone-maker-euchred"])
    assert cases["made-three-tricks"]["outcome"] == "pass" and cases["trump-rank-order"]["outcome"] == "pass"
    lone = cases["lone-maker-euchred"]
    assert lone["outcome"] == "fail" and lone["failure"]["field"] == "to_act", lone
