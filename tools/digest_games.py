#!/usr/bin/env python3
"""A digest of seeded random games on every variant, through the public API only.

Two builds of the interpreter that print the same digest played the same games: every
legal action list, every action, every observation. `.ci/check-wheel` compares the compiled
wheel with the pure-Python source this way. Usage: ``python tools/digest_games.py [GAMES]``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from reference_impl import load_rules, new_game
from reference_impl.catalog import variant_ids
from reference_impl.selfplay import random_action


def digest(games: int) -> str:
    h = hashlib.sha256()
    for variant in variant_ids():
        rules = load_rules(variant)
        for seed in range(games):
            rng = random.Random(seed)
            state = new_game(rules, rng=rng)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.deal_random(rng)
                    continue
                legal = state.legal_actions()
                action = random_action(rng, state)
                h.update(json.dumps([legal, action], separators=(",", ":")).encode())
                state.apply(action)
            h.update(json.dumps(state.observation(), sort_keys=True, separators=(",", ":")).encode())
    return h.hexdigest()


if __name__ == "__main__":
    import reference_impl.state as state_module
    print(digest(int(sys.argv[1]) if len(sys.argv) > 1 else 20), state_module.__file__.rsplit(".", 1)[-1])
