#!/usr/bin/env python3
"""What validating every reply costs: ``euchre-spec check`` with --strict-replies (every
reply of an engine checked against the published protocol schema) side by side with its
anchor, --no-strict-replies (the first reply of each kind only).

Both commands run the reference engine with ``-j 1`` on the same cases, alternating round
by round; each is timed start to exit as a user meets it, in wall time and in CPU time (the
runner and its engine: the CPU time stays meaningful on a busy machine, where wall time
does not). Prints min / median / max per figure and, last, ``strict_over_anchor_cpu=<median>
strict_over_anchor_wall=<median>`` (the default is strict where the CPU ratio is under 1.10).

    python tools/bench_strict_replies.py [--rounds 3] [--variant euchre]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(command: list[str], cwd: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``command`` and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variant", action="append", help="only these variants (default: the whole corpus)")
    args = parser.parse_args()
    base = [sys.executable, "-m", "conformance.cli", "check", "--engine", "reference", "-j", "1"]
    for variant in args.variant or []:
        base += ["--variant", variant]
    figures: dict[str, list[tuple[float, float]]] = {"strict": [], "anchor": []}
    with tempfile.TemporaryDirectory() as work:
        env_root = str(Path(__file__).resolve().parent.parent)
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (env_root, os.environ.get("PYTHONPATH")) if p)
        timed(base + ["--json", "warm.jsonl"], work)          # a warm cache for both
        for _ in range(args.rounds):
            figures["anchor"].append(timed(base + ["--no-strict-replies", "--json", "a.jsonl"], work))
            figures["strict"].append(timed(base + ["--strict-replies", "--json", "s.jsonl"], work))
    for name, values in figures.items():
        for index, label in ((0, "wall"), (1, "cpu")):
            series = sorted(v[index] for v in values)
            print(f"{name:7} {label}: min {series[0]:.2f} s, median {statistics.median(series):.2f} s, max {series[-1]:.2f} s")
    cpu = statistics.median(s[1] for s in figures["strict"]) / statistics.median(a[1] for a in figures["anchor"])
    wall = statistics.median(s[0] for s in figures["strict"]) / statistics.median(a[0] for a in figures["anchor"])
    print(f"strict_over_anchor_cpu={cpu:.3f} strict_over_anchor_wall={wall:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
