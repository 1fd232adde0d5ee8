#!/usr/bin/env python3
"""Differential testing: the reference interpreter against OpenSpiel's euchre, by `euchre-spec fuzz`.

OpenSpiel's euchre runs behind its adapter (tools/adapters/openspiel_engine.py); ``fuzz``
plays random deals and moves (biased towards round 2, stuck dealers, lone hands and lone
defences) on it beside the reference, comparing every step, under the rules OpenSpiel
implements (the ``openspiel`` preset), without and with its lone defender. The first
divergence is shrunk and written as a case file under ``--out``.

    python tools/differential.py --hands 100000 [--seed 1] [-j 2] [--variant openspiel]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.cli import main as euchre_spec  # noqa: E402

ADAPTER = ROOT / "tools" / "adapters" / "openspiel_engine.py"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=100_000, help="hands per lone-defender setting")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--variant", default="openspiel", help="the rules to hold OpenSpiel to (default %(default)s)")
    parser.add_argument("--out", default="reports/differential", help="where a divergence's case is written")
    args = parser.parse_args()
    for lone_defender in ("false", "true"):
        status = euchre_spec(["fuzz", "--engine", f"{sys.executable} {ADAPTER}", "--variant", args.variant,
                              "--option", f"defending-alone={lone_defender}", "--hands", str(args.hands),
                              "--seed", str(args.seed), "-j", str(args.jobs), "--out", args.out])
        if status:
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
