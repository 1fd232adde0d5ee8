"""Benchmark: the leak measure's check of every seat's view at every state, against its anchor.

The anchor is the check as tools/measure_view_leaks.py first made it: each seat's view asked
with ``observation(seat)``, scanned whole for card tokens, and the seat's knowledge rebuilt
from the hand's events at every state. The measured check is
:class:`conformance.fuzzing.leaks.LeakCheck` (one observation shared by the seats, knowledge
grown event by event, only what changed since the seat's last view scanned). Both see the same
states of the same games (the fuzzer's, on the reference); the games are played once and their
states replayed for each, so only the checking is timed. Both must count the same leaking views (none, for the reference's views). Prints CPU seconds per state and the ratio::

    python tools/bench_leak_check.py --games 30 euchre five-hundred
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

try:
    import reference_impl  # noqa: F401  - installed (the compiled wheel): use it
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.fuzzing.hands import random_game                           # noqa: E402
from conformance.fuzzing.leaks import LeakCheck, Tally                       # noqa: E402
from conformance.fuzzing.lockstep import Reference                           # noqa: E402
from conformance.fuzzing.policy import Policy                                # noqa: E402
from conformance.runner.seat_views import card_tokens                               # noqa: E402
from reference_impl import load_rules                                        # noqa: E402
from reference_impl.visibility import visibility_of                          # noqa: E402


def anchor_leaks(state: Any, names: frozenset[str]) -> int:
    """Leaking views at ``state``, as first measured: knowledge from the hand's events afresh,
    each ``observation(seat)`` scanned whole."""
    rules = state.rules
    events = state.events
    start = max(i for i, e in enumerate(events) if e[0] == "deal")
    _, _, _, masks, upcard, _ = events[start]
    known = [set(rules.cards_of(masks[s])) for s in range(rules.n)]
    public = {rules.card_names[upcard]} if upcard >= 0 else set()
    for event in events[start + 1:]:
        if event[0] == "action":
            head, _, card = event[2].partition(":")
            if head == "play":
                public.add(card)
            elif head in ("discard", "give"):
                known[event[1]].add(card)
        elif event[0] in ("take", "swap", "exchange"):
            known[event[1]].update(event[3])
        elif event[0] == "call" and event[3] is not None:
            public.add(event[3])
    vis = visibility_of(rules)
    full = state.observation()["hands"]
    leaking = 0
    for seat in range(rules.n):
        allowed = known[seat] | public
        for owner in range(rules.n):
            if owner != seat and vis.sees(state, "hands", owner, seat):
                allowed.update(full[owner])
        if set(card_tokens(state.observation(seat), names)) - allowed:
            leaking += 1
    return leaking


def replay(rules: Any, variant: str, games: int):
    """The states of the games, replayed on a fresh reference (deals and actions as played)."""
    policy = Policy(rules, Reference(variant, rules.resolved))
    for game in range(games):
        yield from random_game(policy, random.Random(f"bench:{game}"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=["euchre", "five-hundred"])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args(argv)
    print(f"{'table':16} {'states':>8} {'play us':>8} {'anchor us':>10} {'check us':>9} {'ratio':>6}")
    for variant in args.variants:
        rules = load_rules(variant, {})
        names = frozenset(rules.card_names)
        began = time.process_time()
        states = sum(1 for _ in replay(rules, variant, args.games))
        play = time.process_time() - began
        began = time.process_time()
        anchor = sum(anchor_leaks(state, names) for state in replay(rules, variant, args.games))
        anchor_time = time.process_time() - began - play
        tally = Tally()
        began = time.process_time()
        policy = Policy(rules, Reference(variant, rules.resolved))
        for game in range(args.games):
            check = LeakCheck(rules, tally)
            for state in random_game(policy, random.Random(f"bench:{game}")):
                check.check(state)
        check_time = time.process_time() - began - play
        if anchor != tally.leaking:
            print(f"{variant}: the anchor counts {anchor} leaking views, the check {tally.leaking}", file=sys.stderr)
            return 1
        print(f"{variant:16} {states:>8} {1e6 * play / states:>8.1f} {1e6 * anchor_time / states:>10.1f} "
              f"{1e6 * check_time / states:>9.1f} {anchor_time / check_time:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
