#!/usr/bin/env python3
"""Random hands per second through the public step API, ours beside OpenSpiel's euchre.

Both engines are driven the same way from Python: for each hand a fresh state, the deal
(our seeded shuffle; OpenSpiel's chance actions chosen at random), then at every decision
``legal_actions()`` and ``apply()`` of a uniformly random choice, until the hand is scored.
The rules are set to match as closely as the two allow: stick the dealer, no lone defence.
Rounds alternate between the engines so that machine noise hits both alike; the best round
of each counts. The last line is ``ratio_vs_openspiel=<ours/theirs>``.

Needs ``pip install open-spiel`` (part of ``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference_impl import State, load_rules  # noqa: E402

OPTIONS = {"stick-the-dealer": True, "defending-alone": False}


def ours(seconds: float, seed: int) -> float:
    rules = load_rules("euchre", OPTIONS)
    rng = random.Random(seed)
    choice = rng.choice
    hands, dealer = 0, 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(200):
            state = State(rules, dealer)
            state.deal_random(rng)
            while not state.is_chance_node() and not state.is_terminal():
                state.apply(choice(state.legal_actions()))
            dealer = (dealer + 1) % 4
        hands += 200
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - started)


def openspiel(seconds: float, seed: int) -> float:
    import pyspiel

    game = pyspiel.load_game("euchre(stick_the_dealer=true,allow_lone_defender=false)")
    rng = random.Random(seed)
    choice = rng.choice
    hands = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(200):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
        hands += 200
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each timed round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per engine, alternating")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: pip install open-spiel", file=sys.stderr)
        return 2
    best_ours = best_theirs = 0.0
    for round_ in range(args.rounds):
        a = ours(args.seconds, args.seed + round_)
        b = openspiel(args.seconds, args.seed + round_)
        print(f"round {round_ + 1}: reference_impl {a:,.0f} hands/s   openspiel {b:,.0f} hands/s")
        best_ours, best_theirs = max(best_ours, a), max(best_theirs, b)
    print(f"best: reference_impl {best_ours:,.0f} hands/s, openspiel {best_theirs:,.0f} hands/s (Python loop)")
    print(f"ratio_vs_openspiel={best_ours / best_theirs:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
