"""Properties of random legal games under random option combinations, checked at every step
against the independent reading in ``oracle.py``."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from reference_impl import load_rules, new_game
from reference_impl.resolve import resolve

OPTIONS = resolve("euchre").table["options"]
option_sets = st.fixed_dictionaries({key: st.sampled_from([c["value"] for c in option["choices"]])
                                     for key, option in OPTIONS.items()})


def all_cards(state) -> list[int]:
    """Every card the state accounts for, wherever it is."""
    cards = [c for hand in state.hands for c in range(state.rules.n_cards) if hand >> c & 1]
    cards += [c for c in range(state.rules.n_cards) if state.widow >> c & 1]
    cards += [card for _, card in state.trick]
    cards += [card for _, plays, _ in state.tricks for _, card in plays]
    cards += state.discarded + state.kitty
    if state.upcard >= 0 and not state.upcard_taken:
        cards.append(state.upcard)
    if state.phase == "take-best":
        cards.append(state.offered)
    return cards


def check_game(rules, rng: random.Random) -> int:
    """Play one random game, checking every property; return the number of hands."""
    table = rules.table
    state = new_game(rules, rng=rng)
    seen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            assert all(score < rules.target for score in state.scores), "the game should have ended"
            state.deal_random(rng)
        else:
            cards = all_cards(state)
            assert sorted(cards) == list(range(rules.n_cards)), "cards are conserved"
            obs = state.observation()
            legal = state.legal_actions()
            assert legal, "a seat to act always has an action"
            if obs["phase"] == "play":
                hand = obs["hands"][obs["to_act"]]
                trick = [(s, c) for s, c in obs["tricks"][-1]["cards"]] if obs["tricks"] and obs["tricks"][-1]["winner"] is None else []
                assert {t[5:] for t in legal} == oracle.legal_plays(table, obs["trump"], hand, trick)
            state.apply(rng.choice(legal))
        for event in state.events[seen:]:
            check_event(rules, state, event)
        seen = len(state.events)
    winner = state.winner
    assert state.scores[winner] >= rules.target
    assert sum(score >= rules.target for score in state.scores) == 1
    return state.hand_number


def check_event(rules, state, event) -> None:
    table = rules.table
    obs = state.observation()
    if event[0] == "trick":
        _, leader, plays, winner = event
        seats = [seat for seat, _ in plays]
        assert len(seats) == len(set(seats)) == rules.n - len(obs["sitting_out"]), "one card from each active player"
        assert not set(seats) & set(obs["sitting_out"])
        named = [(seat, rules.card_names[card]) for seat, card in plays]
        assert winner == oracle.trick_winner(table, obs["trump"], named), named
    elif event[0] == "score":
        _, row, points, _ = event
        maker = obs["maker"]
        side = [s for s in range(rules.n) if rules.unit_of[s] == rules.unit_of[maker]]
        maker_tricks = sum(obs["tricks_won"][s] for s in side)
        assert sum(obs["tricks_won"]) == rules.hand_size
        expected = oracle.hand_points(table, maker_tricks, obs["alone"], obs["defender_alone"] is not None,
                                      rules.unit_of[maker], len(rules.units))
        assert (row, list(points)) == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=option_sets, seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_rule(options, seed):
    rules = load_rules("euchre", options)
    check_game(rules, random.Random(seed))


def test_many_default_games_keep_every_rule():
    rules = load_rules("euchre")
    rng = random.Random(2024)
    hands = sum(check_game(rules, rng) for _ in range(40))
    assert hands >= 40 * 3
