#!/usr/bin/env python3
"""Hands per second of ``euchre-spec fuzz`` against the reference engine, against the floor.

The floor is the protocol's own cost: the very requests a fuzzing run sends (recorded in an
untimed run first) replayed to a reference engine process with nothing else done, no
reference beside it, no comparison, no choice of moves. The fuzzing run then does all of
that on the same hands (same seed, so the same games). Engines are started and hold the
rules before any clock starts; rounds alternate between the two, and each figure is the
best of its rounds (the least disturbed by other work on the machine). Also measured: two
engines (-j 2) against one, and the same fuzzing with the engine in this process (no pipes).

    python tools/bench_fuzz.py [--hands 1500] [--rounds 3] [--variant euchre]

Prints the figures and, last, ``fuzz_ratio_vs_floor=<fuzz time / floor time>`` (target at
most 1.5) and ``fuzz_j2_speedup=<hands/s with -j 2 / hands/s with -j 1>``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.runner.engine_process import InProcessEngine, engine_command  # noqa: E402
from conformance.fuzzing.lockstep import OverlappingEngine, rules_message  # noqa: E402
from conformance.fuzzing.loop import Fuzzer  # noqa: E402
from reference_impl.resolve import resolve  # noqa: E402

SEED = 7


class Recording(OverlappingEngine):
    """The reference engine process, keeping every request after the rules."""

    requests: list[dict[str, Any]] = []

    def request(self, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        if message["type"] not in ("hello", "rules", "bye"):
            Recording.requests.append(dict(message))
        return super().request(message, timeout)


def fuzz_seconds(make, table, hands: int, jobs: int = 1) -> tuple[float, int]:
    result = Fuzzer(make, table.id, table, seed=SEED, hands=hands, jobs=jobs).run()
    if result.divergences:
        raise SystemExit(f"the reference diverged from itself: {result.divergences[0].summary()}")
    return result.elapsed, result.hands


def floor_seconds(requests: list[dict[str, Any]], table) -> float:
    """The recorded requests sent to a started reference engine, each reply read and dropped."""
    engine = OverlappingEngine(engine_command("reference"))
    engine.start()
    engine.request(rules_message(table))
    started = time.perf_counter()
    for message in requests:
        engine.request(message)
    elapsed = time.perf_counter() - started
    engine.stop()
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variant", default="euchre")
    args = parser.parse_args()
    table = resolve(args.variant)
    argv = engine_command("reference")

    Recording.requests = []
    fuzz_seconds(lambda: Recording(argv), table, args.hands)          # untimed: what the floor replays
    requests = list(Recording.requests)
    print(f"{args.variant}, {args.hands} hands, {len(requests):,} requests each round, best of {args.rounds} rounds")

    floor, fuzz, fuzz2, inproc = [], [], [], []
    hands = args.hands
    for _ in range(args.rounds):
        floor.append(floor_seconds(requests, table))
        seconds, hands = fuzz_seconds(lambda: OverlappingEngine(argv), table, args.hands)
        fuzz.append(seconds)
        fuzz2.append(fuzz_seconds(lambda: OverlappingEngine(argv), table, args.hands, jobs=2)[0])
        inproc.append(fuzz_seconds(InProcessEngine, table, args.hands)[0])
    best = {name: min(times) for name, times in (("floor", floor), ("fuzz", fuzz), ("fuzz2", fuzz2), ("inproc", inproc))}
    print(f"floor (the same requests replayed, no checking): {hands / best['floor']:8,.0f} hands/s  {best['floor']:.2f} s")
    print(f"fuzz -j 1 (reference engine process):           {hands / best['fuzz']:8,.0f} hands/s  {best['fuzz']:.2f} s")
    print(f"fuzz -j 2:                                       {hands / best['fuzz2']:8,.0f} hands/s  {best['fuzz2']:.2f} s")
    print(f"fuzz with the engine in this process (no pipes): {hands / best['inproc']:8,.0f} hands/s  {best['inproc']:.2f} s")
    print(f"fuzz_ratio_vs_floor={best['fuzz'] / best['floor']:.2f}")
    print(f"fuzz_j2_speedup={best['fuzz'] / best['fuzz2']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
