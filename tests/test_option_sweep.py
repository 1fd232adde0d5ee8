"""Every combination of every option of standard Euchre resolves, compiles and plays a game."""

import itertools
import random

import pytest

from reference_impl import load_rules
from reference_impl.resolve import resolve
from reference_impl.selfplay import play_random_game

OPTIONS = resolve("euchre").table["options"]
KEYS = sorted(OPTIONS)
COMBINATIONS = list(itertools.product(*([c["value"] for c in OPTIONS[k]["choices"]] for k in KEYS)))
SHARDS = 8


def test_the_sweep_covers_every_combination():
    expected = 1
    for key in KEYS:
        expected *= len(OPTIONS[key]["choices"])
    assert len(COMBINATIONS) == expected and len(set(COMBINATIONS)) == expected


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_option_combination_plays_a_game(shard):
    for index in range(shard, len(COMBINATIONS), SHARDS):
        options = dict(zip(KEYS, COMBINATIONS[index]))
        rules = load_rules("euchre", options)
        assert rules.selected == options
        state = play_random_game(rules, random.Random(index))
        assert state.is_terminal()
        assert state.scores[state.winner] >= rules.target
