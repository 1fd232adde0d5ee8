"""Properties of random legal games of every variant under random option combinations,
checked at every step against the independent reading in ``oracle.py``: cards are
conserved, each trick has one card from each player in the hand and goes to the holder of
the strongest card, every legal play set follows the follow-suit rule, every hand scores
what the scoring table says, and the game ends exactly when a side reaches the target."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from support import option_strategy
from reference_impl import load_rules, new_game
from reference_impl.catalog import variant_ids
from reference_impl.selfplay import random_action

VARIANTS = variant_ids()


def option_sets(variant: str):
    return option_strategy(variant)


def reached(rules, score: int) -> bool:
    if rules.count_down:
        return score <= rules.target
    return rules.target > 0 and score >= rules.target


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first (a set of cards as a bit mask;
    a bit past the pack's last card is kept, so that conservation still catches it). Walking
    only the set bits, not every card of the pack, was a tenth of this file's time."""
    assert mask >= 0, mask
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def all_cards(state) -> list[int]:
    """Every card the state accounts for, wherever it is."""
    cards = [c for hand in state.hands for c in _bits(hand)]
    cards += _bits(state.widow)
    cards += [card for _, card in state.trick]
    cards += [card for _, plays, _ in state.tricks for _, card in plays]
    cards += state.discarded + state.kitty
    cards += state.gift                     # a packet being passed, card by card, to a lone bidder
    if state.upcard >= 0 and not state.upcard_taken:
        cards.append(state.upcard)
    if state.phase == "take-best":
        cards.append(state.offered)
    return cards


# Random play may never finish some games: in Buck Euchre with euchred-maker=five-only a
# random bidder is euchred so often that the scores climb away from zero (about 11,000 hands
# without an end). Every property is checked at every step, so a game is cut off after this
# many hands, and only a game that ended is checked for how it ended.
MAX_HANDS = 80


def check_game(rules, rng: random.Random) -> int:
    """Play one random game (at most MAX_HANDS hands), checking every property; return the
    number of hands."""
    table = rules.table
    state = new_game(rules, rng=rng)
    seen = 0
    named = None           # the suit named for a master card led at no-trumps, this trick
    counters = {c["id"]: [c.get("start", 0)] * (rules.n if c["per"] == "player" else len(rules.units))
                for c in table.get("counters", [])}
    choices: list = []     # (seat, action, the actions it had) this hand: the oracle reads a forced contract from them
    while not state.is_terminal():
        if state.is_chance_node():
            assert not any(reached(rules, s) for s in state.scores) or "play-on" in rules.simultaneous \
                or rules.table["game"].get("win-requires"), "the game should have ended"
            if state.hand_number >= MAX_HANDS:
                return state.hand_number
            state.deal_random(rng)
            choices = []
        else:
            assert sorted(all_cards(state)) == list(range(rules.n_cards)), "cards are conserved"
            obs = state.observation()
            legal = state.legal_actions()
            assert legal, "a seat to act always has an action"
            if obs["phase"] == "play":
                hand = obs["hands"][obs["to_act"]]
                current = obs["tricks"][-1] if obs["tricks"] and obs["tricks"][-1]["winner"] is None else None
                trick = [tuple(p) for p in current["cards"]] if current else []
                assert {t[5:] for t in legal} == oracle.legal_plays(table, obs["trump"], hand, trick, named)
            action = random_action(rng, state)
            choices.append((obs["to_act"], action, list(legal)))
            state.apply(action)
        for event in state.events[seen:]:
            if event[0] == "master-suit":
                named = event[1]
            elif event[0] == "trick":
                check_trick(rules, state, event, named)
                named = None
            elif event[0] == "score":
                check_score(rules, state, event, counters, choices)
        seen = len(state.events)
    winners = [u for u, score in enumerate(state.scores) if reached(rules, score)]
    lost = [u for u, score in enumerate(state.scores) if rules.lose_at is not None and score <= rules.lose_at]
    deals_done = rules.deals and state.hand_number >= rules.deals
    assert winners or lost or deals_done
    if state.winner is not None and winners and not deals_done:
        assert state.winner in winners
    return state.hand_number


def check_trick(rules, state, event, named) -> None:
    obs = state.observation()
    _, leader, plays, winner = event
    seats = [seat for seat, _ in plays]
    assert len(seats) == len(set(seats)) == rules.n - len(obs["sitting_out"]), "one card from each active player"
    assert not set(seats) & set(obs["sitting_out"])
    cards = [(seat, rules.card_names[card]) for seat, card in plays]
    assert winner == oracle.trick_winner(rules.table, obs["trump"], cards, named), cards


def check_score(rules, state, event, counters, choices) -> None:
    obs = state.observation()
    _, row, points, scores = event
    # every trick is played, unless a side conceded the hand (then none is)
    assert sum(obs["tricks_won"]) == (0 if obs.get("conceded") else rules.hand_size)
    before = [score - gained for score, gained in zip(scores, points)]
    hand = {key: obs.get(key) for key in ("maker", "partner", "alone", "defender_alone", "contract", "trump", "tricks",
                                          "tricks_won", "sitting_out", "renege_claims", "stood", "conceded")}
    hand["forced_contract"] = oracle.forced_contract(hand, choices)
    expected_row, expected = oracle.hand_points(rules.table, hand, before)
    oracle.count(rules.table, hand, counters, expected)
    assert (row, list(points)) == (expected_row, expected)
    assert obs.get("counters", {}) == counters


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_keep_every_rule(variant):
    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(options=option_sets(variant), seed=st.integers(0, 2**32 - 1))
    def check(options, seed):
        check_game(load_rules(variant, options), random.Random(seed))
    check()


@pytest.mark.parametrize("variant", VARIANTS)
def test_many_default_games_keep_every_rule(variant):
    rules = load_rules(variant)
    rng = random.Random(2024)
    hands = sum(check_game(rules, rng) for _ in range(15))
    assert hands >= 15
