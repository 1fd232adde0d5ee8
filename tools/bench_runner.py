#!/usr/bin/env python3
"""The runner's speed: ``euchre-spec check`` with one engine and two, and against its floor.

Everything is timed as a user meets it: the ``euchre-spec check`` command, start to exit
(imports, loading the corpus from a warm cache, starting engines, every case, the report),
on a corpus of at least 2,000 cases (the built-in corpus and generated cases added to it,
in a temporary folder). Three commands alternate in each round:

- the reference engine with ``-j 1`` and with ``-j 2``: ``speedup_j2`` is the first time
  over the second (the issue's target: at least 1.6 on two cores). ``bound_j2`` is the most
  any runner could get here: the ``-j 1`` run already keeps its runner and its engine busy
  side by side (CPU over wall time, c cores), so two cores allow at most 2 / c;
- the floor, ``-j 1``: the same command with tools/replay_engine.py answering every request
  at once from a recording of the reference's replies, so it has exactly the same fixed
  costs (the same process, corpus, report) and only the engine's work left out.
  ``ratio_vs_floor`` is the reference's time over the floor's (target at most 1.5);
- the reference engine with ``-j 1`` and an empty cache (a first run): ``cold_vs_warm`` is
  its time over the warm ``-j 1`` time (target at most 1.3);
- the reference engine with ``-j 1 --no-strict-replies`` (the schema checked on the first
  reply of each kind only): ``strict_replies`` is the default ``-j 1`` run (every reply
  validated) over it;
- the reference engine with ``-j 1`` and the runner's consistency check of every state reply
  (``conformance/runner/state_consistency.py``) switched off in its process: ``consistency`` is the
  default ``-j 1`` run over it.

The last two are small differences on a whole run, so they are given in CPU seconds too (the
runner and its engines, from the children's resource usage), which stay meaningful on a busy
machine where wall time does not.

    python tools/bench_runner.py [--rounds 3] [--hands 3] [--seed 99]

Prints each figure as min / median / max over the rounds and, last,
``speedup_j2=<median> bound_j2=<median> ratio_vs_floor=<median> cold_vs_warm=<median> strict_replies_cpu=<median>
consistency_cpu=<median>``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPLAY = ROOT / "tools" / "replay_engine.py"
MIN_CASES = 2000
# ``euchre-spec`` with the check of every state reply against itself and the deal left out.
WITHOUT_CONSISTENCY = ("import sys; from conformance.runner import play; "
                       "play.CasePlayer._check_consistent = lambda self, state, where: None; "
                       "from conformance.cli import main; sys.exit(main(sys.argv[1:]))")


def euchre_spec() -> list[str]:
    """The installed command where there is one (a compiled build), else this checkout's."""
    installed = shutil.which("euchre-spec", path=str(Path(sys.executable).parent))
    return [installed] if installed else [sys.executable, "-m", "conformance"]


def build_corpus(folder: Path, hands: int, seed: int) -> int:
    """The built-in corpus plus generated cases in ``folder``; the number of cases."""
    from conformance import CORPUS_DIR
    from conformance.cases import load_cases, load_corpus_meta

    shutil.copytree(CORPUS_DIR, folder, dirs_exist_ok=True)
    extra = folder / "bench-generated"
    while True:
        subprocess.run(euchre_spec() + ["corpus", "generate", "--seed", str(seed), "--hands", str(hands),
                                        "--games", "0", "--out", str(extra)], check=True, capture_output=True)
        cases, problems = load_cases([str(folder)], load_corpus_meta().tags)
        if problems:
            raise SystemExit(f"the benchmark corpus has problems: {problems[0]}")
        if len(cases) >= MIN_CASES:
            return len(cases)
        hands, seed = hands + 1, seed + 1


def check(engine: str, corpus: Path, jobs: int, report: Path, cache: Path | None = None) -> float:
    """Seconds for one ``euchre-spec check`` run, which must pass (``cache``: an empty cache
    folder to start from, for a cold run)."""
    return timed(engine, corpus, jobs, report, cache)[0]


def timed(engine: str, corpus: Path, jobs: int, report: Path, cache: Path | None = None,
          extra: tuple[str, ...] = (), command: list[str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (the command and its engines) of one ``euchre-spec check`` run
    (``extra``: more options; ``command``: another command than ``euchre-spec``)."""
    argv = (command or euchre_spec()) + ["check", "--engine", engine, "--corpus", str(corpus), "-j", str(jobs),
                                         "--json", str(report), "--timeout", "60", *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    env = {**os.environ, "COLUMNS": "120", **({"EUCHRE_SPEC_CACHE": str(cache)} if cache else {})}
    result = subprocess.run(argv, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({result.returncode}):\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=3, help="generated single-hand cases per option combination")
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--only-checks", action="store_true",
                        help="only the default -j 1 run and its two anchors (strict replies, consistency)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        count = build_corpus(corpus, args.hands, args.seed)
        recording = Path(tmp) / "replies.jsonl"
        report = Path(tmp) / "report.jsonl"
        python = sys.executable
        # Untimed: warms the cache with the corpus and records the reference's replies.
        check(f"{python} {REPLAY} --record {recording}", corpus, 1, report)
        floor_engine = f"{python} {REPLAY} --replay {recording}"
        one, two, floor, cold = [], [], [], []
        default, lenient, unchecked = [], [], []      # (wall, cpu) of -j 1 and of its two anchors
        for round_number in range(args.rounds):
            default.append(timed("reference", corpus, 1, report))
            one.append(default[-1][0])
            lenient.append(timed("reference", corpus, 1, report, extra=("--no-strict-replies",)))
            unchecked.append(timed("reference", corpus, 1, report, command=[python, "-c", WITHOUT_CONSISTENCY]))
            if args.only_checks:
                continue
            floor.append(check(floor_engine, corpus, 1, report))
            two.append(check("reference", corpus, 2, report))
            cold.append(check("reference", corpus, 1, report, cache=Path(tmp) / f"cold-cache-{round_number}"))
    print(f"corpus: {count} cases (the built-in corpus and generated ones); {args.rounds} rounds; "
          f"{os.cpu_count()} cores; seconds as min / median / max")
    for name, runs in (("reference engine -j 1", default), ("  --no-strict-replies", lenient),
                       ("  no consistency check", unchecked)):
        print(f"{name:22}: wall {spread([w for w, _ in runs])} s, cpu {spread([c for _, c in runs])} s")
    strict = {kind: [a[k] / b[k] for a, b in zip(default, lenient)] for k, kind in enumerate(("wall", "cpu"))}
    consistency = {kind: [a[k] / b[k] for a, b in zip(default, unchecked)] for k, kind in enumerate(("wall", "cpu"))}
    print(f"strict replies over the first of each kind: wall {spread(strict['wall'])}, cpu {spread(strict['cpu'])}")
    print(f"consistency check over none: wall {spread(consistency['wall'])}, cpu {spread(consistency['cpu'])}")
    checks = f"strict_replies_cpu={statistics.median(strict['cpu']):.3f} " \
             f"consistency_cpu={statistics.median(consistency['cpu']):.3f}"
    if args.only_checks:
        print(checks)
        return 0
    speedups = [a / b for a, b in zip(one, two)]
    ratios = [a / b for a, b in zip(one, floor)]
    colds = [a / b for a, b in zip(cold, one)]
    print(f"reference engine -j 1: {spread(one)} s ({count / statistics.median(one):,.0f} cases/s)")
    print(f"reference engine -j 2: {spread(two)} s ({count / statistics.median(two):,.0f} cases/s)")
    print(f"replay floor     -j 1: {spread(floor)} s")
    print(f"reference engine -j 1, cold cache: {spread(cold)} s")
    # -j 1 already runs the runner and its engine side by side: a run that keeps c cores busy
    # can be sped up at most cores / c times, whatever the runner does
    busy = statistics.median(cpu / wall for wall, cpu in default)
    bound = min(2.0, (os.cpu_count() or 1) / busy)
    print(f"speed-up of -j 2: {spread(speedups)} (at most {bound:.2f} here: -j 1 keeps {busy:.2f} cores busy); "
          f"reference over floor: {spread(ratios)}; cold over warm: {spread(colds)}")
    print(f"speedup_j2={statistics.median(speedups):.2f} bound_j2={bound:.2f} ratio_vs_floor={statistics.median(ratios):.2f} "
          f"cold_vs_warm={statistics.median(colds):.2f} {checks}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
