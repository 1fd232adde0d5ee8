#!/usr/bin/env python3
"""The proof of ``euchre-spec identify``: random fixed option sets recovered.

An engine that wraps the reference, ignores the options it is sent and plays a fixed set
instead (tests/faulty_engines/fixed_options.py) is identified for ``--sets`` random sets
spread over every variant that has options. A set counts as recovered when every option
identify says it observed has the engine's value (or a value it says it could not tell
from the engine's) and fuzzing the engine against the reference under the identified set
finds no deviation at all, so an option it could not observe makes no difference to the
game either. The test suite runs a sample of these sets; this runs them all.

    python tools/identify_fixed_sets.py [--sets 50] [--only INDEX]... [-j 2]

Prints a row per set and, last, ``recovered=K/N``; exit status 0 when every set is.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "faulty_engines"))

from conformance.runner.engine_process import InProcessEngine  # noqa: E402
from conformance.fuzzing.identify import Identification, Identifier  # noqa: E402
from conformance.fuzzing.options import option_values, show, table_for  # noqa: E402
from reference_impl.catalog import variant_ids  # noqa: E402
from reference_impl.resolve import resolve  # noqa: E402

from fixed_options import FixedOptions  # noqa: E402

SETS = 50
CHANGE = 0.3          # each option takes another value than its default this often


def variants_with_options() -> list[str]:
    return [v for v in variant_ids() if any(len(values) > 1 for values in option_values(resolve(v).table).values())]


def random_sets(count: int = SETS, seed: int = 16) -> list[tuple[str, dict[str, Any]]]:
    """``count`` option sets that resolve, spread over the variants that have options."""
    variants = variants_with_options()
    rng = random.Random(seed)
    found: list[tuple[str, dict[str, Any]]] = []
    while len(found) < count:
        variant = variants[len(found) % len(variants)]
        values = option_values(resolve(variant).table)
        for _ in range(100):
            options = {k: rng.choice(v[1:]) for k, v in values.items() if len(v) > 1 and rng.random() < CHANGE}
            if options and table_for(variant, options) is not None:
                found.append((variant, options))
                break
    return found


def identify_fixed(variant: str, fixed: dict[str, Any], seed: int = 0, check_hands: int = 200) -> Identification:
    """Identify the test engine that plays ``fixed`` whatever it is sent (sent: the defaults)."""
    def engine() -> InProcessEngine:
        return InProcessEngine(factory=lambda: FixedOptions({variant: fixed}))

    return Identifier(engine, variant, resolve(variant), seed=seed, check_hands=check_hands).run()


def mismatches(result: Identification, variant: str, fixed: dict[str, Any]) -> list[str]:
    """What identify got wrong about the engine's fixed set (empty: recovered)."""
    truth = table_for(variant, fixed).selected
    wrong = []
    for verdict in result.verdicts:
        if verdict.status in ("not observed", "uncertain"):
            continue
        untold = verdict.status.partition("(not told from ")[2].rstrip(")").split(", ")
        if verdict.value != truth[verdict.key] and show(truth[verdict.key]) not in untold:
            wrong.append(f"{verdict.key}: identified {verdict.value!r} ({verdict.status}), engine plays {truth[verdict.key]!r}")
    wrong += [f"deviation: {d.summary()}" for d in result.deviations]
    return wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", type=int, default=SETS)
    parser.add_argument("--only", type=int, action="append", metavar="INDEX")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    args = parser.parse_args()
    sets = random_sets(args.sets)
    chosen = args.only or list(range(len(sets)))
    started = time.monotonic()

    def one(index: int) -> tuple[int, Identification, list[str]]:
        variant, fixed = sets[index]
        result = identify_fixed(variant, fixed, seed=index)
        return index, result, mismatches(result, variant, fixed)

    recovered = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for index, result, wrong in pool.map(one, chosen):
            variant, fixed = sets[index]
            shown = ", ".join(f"{k}={show(v)}" for k, v in sorted(fixed.items()))
            found = ", ".join(f"{k}={show(v)}" for k, v in sorted(result.changed.items())) or "none"
            verdict = "recovered" if not wrong else "WRONG: " + "; ".join(wrong)
            recovered += not wrong
            print(f"{index:3} {variant}: plays {shown} | identified {found} | {result.hands} hands, "
                  f"{result.check_hands} checked, {result.seconds:.1f} s | {verdict}", flush=True)
    print(f"{time.monotonic() - started:.0f} s")
    print(f"recovered={recovered}/{len(chosen)}")
    return 0 if recovered == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())
