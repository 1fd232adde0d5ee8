"""Option combinations of standard Euchre resolve, compile and play a game.

Euchre has too many options for every combination (twenty options, millions of
selections), so the sweep plays a pairwise covering set (every pair of values of every two
options that may go together) and a seeded sample of random valid selections; a selection
that breaks a value's ``requires`` is refused with both options named.
"""

import random

import pytest

from conformance.corpus_tools.generate import clashes, pairwise_combinations
from reference_impl import SpecError, load_rules
from reference_impl.options import meets, values_of
from reference_impl.resolve import resolve
from reference_impl.selfplay import play_random_game

OPTIONS = resolve("euchre").table["options"]
KEYS = sorted(OPTIONS)
VALUES = {key: values_of(OPTIONS[key]) for key in KEYS}
REQUIRES = {(key, choice["value"]): choice["requires"] for key in KEYS
            for choice in OPTIONS[key].get("choices", []) if choice.get("requires")}
PAIRWISE = pairwise_combinations(VALUES, seed=5, requires=REQUIRES)
SHARDS = 4


def valid(selection: dict) -> bool:
    return all(meets(wanted, selection[other]) for (key, value), needs in REQUIRES.items()
               if selection.get(key) == value for other, wanted in needs.items())


def random_selections(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        selection = {key: rng.choice(VALUES[key]) for key in KEYS}
        if valid(selection):
            found.append(selection)
    return found


SAMPLE = random_selections(120, seed=11)


def test_the_pairwise_set_covers_every_compatible_pair():
    for i, a in enumerate(KEYS):
        for b in KEYS[i + 1:]:
            for va in VALUES[a]:
                for vb in VALUES[b]:
                    if not clashes(REQUIRES, a, va, b, vb):
                        assert any(c[a] == va and c[b] == vb for c in PAIRWISE), (a, va, b, vb)
    assert all(valid(c) for c in PAIRWISE)


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_selection_plays_a_game(shard):
    selections = PAIRWISE + SAMPLE
    for index in range(shard, len(selections), SHARDS):
        options = selections[index]
        rules = load_rules("euchre", options)
        assert rules.selected == options
        state = play_random_game(rules, random.Random(index))
        assert state.is_terminal()
        if state.winner is not None:
            others = [s for u, s in enumerate(state.scores) if u != state.winner]
            assert state.scores[state.winner] >= rules.target or state.scores[state.winner] > max(others)


def test_a_selection_breaking_a_requirement_is_refused_naming_both_options():
    with pytest.raises(SpecError) as refused:
        load_rules("euchre", {"going-alone": False, "alone-declared": "after-exchange"})
    assert "alone-declared=after-exchange needs going-alone to be true, not false" in str(refused.value)
