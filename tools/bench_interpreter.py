#!/usr/bin/env python3
"""Random hands per second through the public API, ours beside OpenSpiel's euchre.

The same rules on both sides: our `openspiel` preset (the rules OpenSpiel's `euchre`
implements with its default parameters) against `pyspiel.load_game("euchre")`. Both are
driven the same way from Python, through public calls only: for each hand a new game
(`new_game` / `new_initial_state`), the deal (`deal_random` / OpenSpiel's chance actions
chosen at random), then at each decision `legal_actions()` and `apply()` of a uniformly
random choice until the hand is scored.

Each round times a fixed number of hands on CPU time (`time.process_time`) with the process
pinned to one core; rounds alternate ours, theirs, ours, ... and each pair gives a ratio, so
that drift of the machine hits both sides of a pair alike. A second pair of loops times the
deal alone on each side; subtracting it gives the decisions only (the deal differs most
between the two: ours shuffles once, OpenSpiel applies 21 chance actions).

The last line is ``ratio_vs_openspiel=<median> decisions_ratio=<median>`` (ours / theirs,
above 1 is faster than OpenSpiel); the line before gives min / median / max of the pairs.
Needs ``pip install open-spiel`` (part of ``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

try:                                   # the installed package (compiled, where it was built so)
    import reference_impl  # noqa: F401
except ImportError:                    # a checkout that was never installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference_impl import load_rules, new_game  # noqa: E402
import reference_impl.state as _state_module  # noqa: E402


def ours_hands(hands: int, seed: int, decisions: bool = True) -> float:
    """CPU seconds for ``hands`` hands (or their deals only)."""
    rules = load_rules("openspiel")
    rng = random.Random(seed)
    choice = rng.choice
    started = time.process_time()
    for hand in range(hands):
        state = new_game(rules, dealer=hand % 4)
        state.deal_random(rng)
        if decisions:
            while not state.is_terminal() and not state.is_chance_node():
                state.apply(choice(state.legal_actions()))
    return time.process_time() - started


def openspiel_hands(hands: int, seed: int, decisions: bool = True) -> float:
    import pyspiel

    game = pyspiel.load_game("euchre")
    rng = random.Random(seed)
    choice = rng.choice
    started = time.process_time()
    for _ in range(hands):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(choice(state.legal_actions()))
        if decisions:
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
    return time.process_time() - started


def pin_to_one_core() -> str:
    try:
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity here)"


def spread(values: list[float]) -> str:
    return f"min {min(values):.2f} / median {statistics.median(values):.2f} / max {max(values):.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20_000, help="hands per timed round")
    parser.add_argument("--pairs", type=int, default=5, help="paired rounds (ours, theirs); the median counts")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: pip install open-spiel", file=sys.stderr)
        return 2
    build = "compiled (mypyc)" if not _state_module.__file__.endswith(".py") else "pure Python"
    print(f"interpreter: {build}; {pin_to_one_core()}; {args.hands} hands a round, {args.pairs} pairs, CPU time", flush=True)
    ours_hands(200, args.seed), openspiel_hands(200, args.seed)          # warm up: imports, caches
    ratios, decision_ratios = [], []
    for pair in range(args.pairs):
        seed = args.seed + pair
        ours_total, theirs_total = ours_hands(args.hands, seed), openspiel_hands(args.hands, seed)
        ours_deal, theirs_deal = ours_hands(args.hands, seed, False), openspiel_hands(args.hands, seed, False)
        ours_rate, theirs_rate = args.hands / ours_total, args.hands / theirs_total
        ours_decide = (ours_total - ours_deal) / args.hands * 1e6
        theirs_decide = (theirs_total - theirs_deal) / args.hands * 1e6
        ratios.append(ours_rate / theirs_rate)
        decision_ratios.append(theirs_decide / ours_decide)
        print(f"pair {pair + 1}: ours {ours_rate:,.0f} hands/s ({ours_decide:.1f} µs deciding, "
              f"{ours_deal / args.hands * 1e6:.1f} µs dealing), OpenSpiel {theirs_rate:,.0f} hands/s "
              f"({theirs_decide:.1f} µs deciding, {theirs_deal / args.hands * 1e6:.1f} µs dealing): "
              f"{ratios[-1]:.2f}x, decisions {decision_ratios[-1]:.2f}x", flush=True)
    print(f"ratio_vs_openspiel {spread(ratios)}; decisions_ratio {spread(decision_ratios)}")
    print(f"ratio_vs_openspiel={statistics.median(ratios):.2f} decisions_ratio={statistics.median(decision_ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
