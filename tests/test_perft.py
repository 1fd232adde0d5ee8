"""Perft counts of the corpus, confirmed by counts that share no code with the interpreter:
the brute-force enumerator of tests/perft_oracle.py, and OpenSpiel for the rules it shares."""

from pathlib import Path

import pytest

import openspiel_perft
import perft_oracle
from conformance.cases import load_cases
from reference_impl import Deal, Rules, State
from reference_impl.perft import divide, perft

PERFT_DIR = Path(__file__).resolve().parent.parent / "conformance" / "corpus" / "perft"
CASES, PROBLEMS = load_cases([PERFT_DIR])


def test_the_perft_cases_load():
    assert PROBLEMS == [] and len(CASES) >= 6


def dealt_state(case):
    deal = case.hands[0]["deal"]
    state = State(Rules(case.table), case.setup["dealer"])
    state.deal(Deal(tuple(tuple(h) for h in deal["hands"]), deal.get("upcard"), (), tuple(deal.get("kitty", []))))
    return state


def reference_state(case):
    state = dealt_state(case)
    for step in case.hands[0]["steps"]:
        state.apply(step["action"], step["seat"])
    return state


def oracle_state(case):
    hand = case.hands[0]
    deal = hand["deal"]
    if case.variant != "euchre":          # counted from the first lead the case states
        stated = hand["steps"][-1]["expect"] if hand["steps"] else hand["after_deal"]
        assert stated["phase"] == "play", case.id
        return perft_oracle.play_start(case.table.table, deal["hands"], stated["trump"], stated["to_act"])
    h = perft_oracle.start(case.table.table, case.setup["dealer"], deal["hands"], deal["upcard"])
    for step in hand["steps"]:
        assert h.to_act == step["seat"], (case.id, step)
        h = perft_oracle.apply(h, step["action"])
    return h


def oracle_perft(h, depth):
    if isinstance(h, perft_oracle.Play):
        return perft_oracle.play_perft(h, depth)
    return perft_oracle.perft(h, depth)


def oracle_divide(h, depth):
    if isinstance(h, perft_oracle.Play):
        return {a: perft_oracle.play_perft(perft_oracle.play_apply(h, a), depth - 1) for a in perft_oracle.play_legal(h)}
    return {a: perft_oracle.perft(perft_oracle.apply(h, a), depth - 1) for a in perft_oracle.legal(h)}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_counts_agree_with_the_reference_and_the_brute_force_enumerator(case):
    state, h = reference_state(case), oracle_state(case)
    for count in case.hands[0]["perft"]:
        assert perft(state, count["depth"]) == count["nodes"]
        assert oracle_perft(h, count["depth"]) == count["nodes"], f"{case.id} depth {count['depth']}"
        if "divide" in count:
            assert divide(state, count["depth"]) == count["divide"]
            assert oracle_divide(h, count["depth"]) == count["divide"]


def test_the_play_enumerator_counts_by_hand():
    """Loo's first trick, counted by hand: seat 0 may lead any of 5 cards. After the 7S: seat
    1 must head (9S), seat 2 cannot (8S or 2S), seat 3 must trump (3H or QH), and seat 4 must
    overtrump: the 3H by 6H or Pam (2 ways), the QH by Pam only (1): 1 x 2 x (2 + 1) = 6 ways."""
    case = next(c for c in CASES if c.id == "perft-loo-must-head-trump-overtrump")
    h = oracle_state(case)
    assert len(perft_oracle.play_legal(h)) == 5
    assert perft_oracle.play_perft(perft_oracle.play_apply(h, "play:7S"), 4) == 6


SHARED = [c for c in CASES if c.options == openspiel_perft.SHARED_OPTIONS]


@pytest.mark.parametrize("case", SHARED, ids=lambda c: c.id)
def test_counts_agree_with_openspiel_on_the_rules_it_shares(case):
    pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel) confirms the shared-rules counts")
    hand = case.hands[0]
    deal = hand["deal"]
    state = openspiel_perft.position(case.table.table, case.setup["dealer"], deal["hands"], deal["upcard"], hand["steps"])
    for count in hand["perft"]:
        assert openspiel_perft.perft(state, count["depth"]) == count["nodes"]


def test_there_are_openspiel_confirmed_counts():
    assert len(SHARED) >= 2
    assert all("OpenSpiel euchre (tests/openspiel_perft.py)" in c["confirmed_by"] for case in SHARED for c in case.hands[0]["perft"])
