#!/usr/bin/env python3
"""Differential testing: the reference interpreter against OpenSpiel's euchre, hand by hand.

Each hand has its own seed: a random dealer, a random deal, then random legal actions chosen
from the reference's legal set, applied to both engines. At every step the seat to act and
the whole legal action set must agree; every trick must go to the same player; every hand
must score the same points. The rules are the ones OpenSpiel implements (the ``openspiel``
preset), with and without its lone defender. The first divergence stops the run and prints
the seed and the actions that reproduce it.

    python tools/differential.py --hands 100000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools" / "adapters"))

from openspiel_engine import Adapter  # noqa: E402

from reference_impl import State, load_rules  # noqa: E402


class Divergence(Exception):
    pass


def play_hand(rules, adapter: Adapter, seed: int, lone_defender: bool) -> int:
    """Play one hand on both engines; return the number of steps compared."""
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    deal = rules.random_deal(rng, dealer)
    ours = State(rules, dealer)
    ours.deal(deal)
    adapter.handle({"type": "new_game", "dealer": dealer})
    adapter.handle({"type": "deal", "hands": [list(h) for h in deal.hands], "upcard": deal.upcard})
    history: list[str] = []

    def diverged(what: str, mine, theirs) -> Divergence:
        return Divergence(f"seed {seed} (lone defender {lone_defender}), after {history}: {what}: "
                          f"reference {mine!r}, OpenSpiel {theirs!r}")

    steps = 0
    tricks_seen = 0
    while ours.current_player() is not None:
        theirs_state = adapter.state
        if theirs_state.current_player() != ours.to_act:
            raise diverged("seat to act", ours.to_act, theirs_state.current_player())
        legal = ours.legal_actions()
        if set(legal) != set(adapter.legal_tokens()):
            raise diverged("legal actions", sorted(legal), sorted(adapter.legal_tokens()))
        action = rng.choice(legal)
        history.append(action)
        ours.apply(action)
        theirs_state.apply_action(adapter_action(adapter, action))
        steps += 1
        while tricks_seen < len(ours.tricks):
            mine = ours.tricks[tricks_seen][2]
            theirs = theirs_state.tricks()[tricks_seen].winner()
            if mine != theirs:
                raise diverged(f"winner of trick {tricks_seen + 1}", mine, theirs)
            tricks_seen += 1
    if not adapter.state.is_terminal():
        raise diverged("end of the hand", "scored", "still playing")
    theirs_points = adapter.observation()["hand_points"]
    if ours.hand_points != theirs_points:
        raise diverged("hand points", ours.hand_points, theirs_points)
    return steps


def adapter_action(adapter: Adapter, token: str) -> int:
    action = adapter.action_id(token)
    if action is None or action not in adapter.state.legal_actions():
        raise Divergence(f"OpenSpiel has no legal action for {token}")
    return action


def run(hands: int, seed: int, report_every: float = 10.0) -> tuple[int, int]:
    """Play ``hands`` hands for each lone-defender setting; return (hands, steps) compared."""
    total_hands = total_steps = 0
    started = last = time.perf_counter()
    for lone_defender in (False, True):
        rules = load_rules("openspiel", {"defending-alone": lone_defender})
        adapter = Adapter()
        adapter.handle({"type": "rules", "variant": "openspiel", "table": rules.table})
        for index in range(hands):
            total_steps += play_hand(rules, adapter, seed * 10_000_000 + index, lone_defender)
            total_hands += 1
            now = time.perf_counter()
            if now - last > report_every:
                print(f"  {total_hands:,} hands, {total_steps:,} steps compared ({total_hands / (now - started):,.0f} hands/s)",
                      flush=True)
                last = now
    return total_hands, total_steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=100_000, help="hands per lone-defender setting")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    try:
        hands, steps = run(args.hands, args.seed)
    except Divergence as exc:
        print(f"DIVERGENCE: {exc}")
        return 1
    print(f"no divergence in {hands:,} hands ({steps:,} steps, every legal set, trick winner and score compared) "
          f"in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
