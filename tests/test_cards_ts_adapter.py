"""cards-ts (johnameyer/cards-ts) adapter: its mapping replayed on a recorded exchange (no
node, no engine), and, where the engine is checked out (CARDS_TS_DIR), the suite finding the
same dealer dealing again after a double all-pass."""

from adapter_test_support import ADAPTERS, assert_missing_engine_named, assert_replays, fixture, needs_engine

import cards_ts_engine as adapter
from replay_exchange import check_cases

FIXTURE = "cards_ts_exchange.json"


def test_recorded_exchange_replays_to_the_same_replies():
    assert_replays(adapter.Adapter, FIXTURE)


def test_the_recording_shows_the_same_dealer_after_all_passed():
    recorded = fixture(FIXTURE)
    last = [item for item in recorded["protocol"] if item["request"]["type"] == "act"][-1]["reply"]["state"]
    assert last["phase"] == "deal" and last["hand_points"] == [0, 0] and last["dealer"] == 0    # the rules say 1


def test_deck_order_deals_from_the_dealer_round_the_table():
    hands = [[f"{r}{s}" for r in "9TJQK"] for s in "CDHS"]
    order = adapter.deck_order(hands, "AC", ["AD", "AH", "AS"], dealer=2)
    assert order[:4] == ["9H", "9S", "9C", "9D"]            # hands.dealOut: j = 0 is the dealer himself
    assert order[20] == "AC" and adapter.protocol_card("10H") == "TH"


def test_missing_engine_names_the_variable():
    assert_missing_engine_named("cards_ts_engine.py", "CARDS_TS_DIR")


@needs_engine("CARDS_TS_DIR", "johnameyer/cards-ts")
def test_the_suite_finds_the_same_dealer_redealing():
    case = check_cases(ADAPTERS / "cards_ts_engine.py", ["no-lone-defence-all-pass-deal-passes-left"])[
        "no-lone-defence-all-pass-deal-passes-left"]
    assert case["outcome"] == "fail" and case["failure"]["field"] == "dealer", case
    assert (case["failure"]["expected"], case["failure"]["actual"]) == (1, 0)


def test_a_missing_npm_package_is_one_line_naming_the_engine_and_the_package(tmp_path):
    """esbuild cannot resolve a package cards-ts imports: the adapter says so in one line on
    stderr (status 2), not as a Python traceback with esbuild's message hidden elsewhere."""
    import os
    import subprocess
    import sys
    checkout = tmp_path / "cards-ts"
    for path in ("libs/euchre/src/index.ts", "libs/core/src/index.ts"):
        (checkout / path).parent.mkdir(parents=True, exist_ok=True)
        (checkout / path).write_text("export {};\n")
    esbuild = tmp_path / "esbuild"
    esbuild.write_text("#!/bin/sh\necho '\u2718 [ERROR] Could not resolve \"inquirer-select-line\"' >&2\nexit 1\n")
    esbuild.chmod(0o755)
    env = {**os.environ, "CARDS_TS_DIR": str(checkout), "ESBUILD": str(esbuild)}
    done = subprocess.run([sys.executable, str(ADAPTERS / "cards_ts_engine.py")], input='{"id": 1, "type": "hello"}\n',
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cards-ts:") and "inquirer-select-line" in lines[0], done.stderr


def test_an_esbuild_failure_without_a_missing_package_gives_its_first_error():
    from node_engine import build_failure
    assert build_failure("x", "\u2718 [ERROR] Expected \";\" but found \"}\"\n  more\n") == \
        'x: esbuild failed: \u2718 [ERROR] Expected ";" but found "}"'
