#!/usr/bin/env python3
"""Cases per second of the corpus against the reference engine and against the floor.

The floor is tools/replay_engine.py answering every request instantly from a recording of
the reference engine's replies: what remains is the runner, the pipes and the JSON, the
protocol's own cost. Engines are started and shake hands before the clock starts; the
corpus is run several times over in each timed round and rounds alternate between the
engines. Prints cases per second for each, the speed-up of two engines (-j 2) over one, and
as its last line ``ratio_vs_floor=<reference time / floor time>``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.cases import load_cases, load_corpus_meta  # noqa: E402
from conformance.check import by_table  # noqa: E402
from conformance.engine_process import engine_command  # noqa: E402
from conformance.runner import Session  # noqa: E402

REPLAY = [sys.executable, str(ROOT / "tools" / "replay_engine.py")]


def timed_run(argv: list[str], cases, repeat: int, jobs: int = 1) -> float:
    """Seconds to run ``cases`` ``repeat`` times on ``jobs`` already started engines."""
    sessions = [Session(argv) for _ in range(jobs)]
    for session in sessions:
        session.engine.start()
    shares = [cases[i * len(cases) // jobs:(i + 1) * len(cases) // jobs] * repeat for i in range(jobs)]
    failures: list[str] = []

    def work(session: Session, share) -> None:
        for case in share:
            result = session.run(case)
            if result.outcome != "pass":
                failures.append(f"{case.id}: {result.outcome}")

    threads = [threading.Thread(target=work, args=(s, share)) for s, share in zip(sessions, shares)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    for session in sessions:
        session.close()
    if failures:
        raise SystemExit(f"cases did not pass on {' '.join(argv)}: {failures[:5]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="times the corpus is run in each timed round")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds per engine (best counts)")
    args = parser.parse_args()
    cases, problems = load_cases(tags=load_corpus_meta().tags)
    if problems:
        raise SystemExit(f"the corpus has problems: {problems[0]}")
    cases = by_table(cases)          # the order the runner uses
    reference = engine_command("reference")
    with tempfile.TemporaryDirectory() as tmp:
        recording = Path(tmp) / "replies.jsonl"
        timed_run(REPLAY + ["--record", str(recording)], cases, 1)
        replay = REPLAY + ["--replay", str(recording)]
        best_ref = best_floor = best_j2 = float("inf")
        for _ in range(args.rounds):
            best_ref = min(best_ref, timed_run(reference, cases, args.repeat))
            best_floor = min(best_floor, timed_run(replay, cases, args.repeat))
            best_j2 = min(best_j2, timed_run(reference, cases, args.repeat, jobs=2))
    total = len(cases) * args.repeat
    print(f"corpus: {len(cases)} cases, {sum(c.steps for c in cases)} steps; each round runs it {args.repeat} times")
    print(f"reference engine, -j 1: {total / best_ref:,.1f} cases/s ({best_ref:.3f} s)")
    print(f"replay floor,     -j 1: {total / best_floor:,.1f} cases/s ({best_floor:.3f} s)")
    print(f"reference engine, -j 2: {total / best_j2:,.1f} cases/s ({best_j2:.3f} s), speed-up {best_ref / best_j2:.2f}x over -j 1")
    print(f"ratio_vs_floor={best_ref / best_floor:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
