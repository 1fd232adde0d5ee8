#!/usr/bin/env python3
"""The pytest plugin with a skip file: no dearer than a plain run.

An engine with a rule bug (a mutant: reneging allowed) fails most euchre cases. Its failures
are written as a baseline by ``euchre-spec check --write-baseline``; then the euchre cases
are run under pytest twice per round, alternately: plain (every failure reported) and with
``--euchre-skip`` (every listed failure an xfail). Each run is timed start to exit.

Before the fix, pytest formatted the traceback of every ``xfail()`` call with the source of
each frame (about 0.4 s per case): 183 xfails took 75 s where the plain run took 9.6 s. The
plugin now reports an xfail by its reason.

    python tools/bench_plugin_skip.py [--rounds 3] [--mutant reneging-allowed]

Prints each run's seconds and, last, ``plain=<median> skip=<median> skip_over_plain=<ratio>``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(command: list[str], cwd: Path) -> float:
    started = time.monotonic()
    subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=1800)
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mutant", default="reneging-allowed")
    parser.add_argument("--variant", default="euchre")
    args = parser.parse_args()
    engine = f"{sys.executable} -m conformance.mutants {args.mutant}"
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        subprocess.run([sys.executable, "-m", "conformance", "check", "--engine", engine, "--variant", args.variant,
                        "--json", "r.jsonl", "--write-baseline", "base.txt"], cwd=work, capture_output=True, timeout=1800)
        listed = sum(1 for line in (work / "base.txt").read_text().splitlines() if line and not line.startswith("#"))
        print(f"{listed} known failures in the baseline of {args.mutant}")
        pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", "--euchre-engine", engine,
                  "--euchre-variant", args.variant]
        plain, skip = [], []
        for round_number in range(1, args.rounds + 1):
            plain.append(timed(pytest, work))
            skip.append(timed(pytest + ["--euchre-skip", "base.txt"], work))
            print(f"round {round_number}: plain {plain[-1]:.1f} s, with the skip file {skip[-1]:.1f} s")
    p, s = statistics.median(plain), statistics.median(skip)
    print(f"plain={p:.2f} skip={s:.2f} skip_over_plain={s / p:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
