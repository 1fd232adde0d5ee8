"""Measure what the reference's seat views leak, hide and forget, over the fuzzer's random games of every table.

The counting is :mod:`conformance.fuzzing.leaks` (what is checked, and why checking only what
changed between steps is as strict as scanning each view whole); the games are the fuzzer's
(:mod:`conformance.fuzzing.hands`): game ``g`` of seed ``s`` here is game ``g`` of
``fuzz --seed s``, played on the reference alone.

Run it on the build users install (the compiled wheel), from outside the checkout::

    EUCHRE_SPEC_COMPILE=1 pip wheel --no-deps -w /tmp/wheel .   # in the checkout
    python -m venv /tmp/leaks && /tmp/leaks/bin/pip install /tmp/wheel/euchre_spec-*.whl
    cd /tmp && nice -n 10 /tmp/leaks/bin/python /path/to/tools/measure_view_leaks.py --games 10000 --out leaks.jsonl

Each chunk of games is appended to ``--out`` as one JSON line when it is done, and a run
given the same file skips the chunks already there: a long run stopped is resumed, and
nothing measured is lost. ``--before`` measures the views as the reference gave them before
visibility was data (:func:`conformance.fuzzing.leaks.pre_fix_views`). The exit status is 1
when any view leaked, hid or forgot.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

try:
    import reference_impl  # noqa: F401  - installed (the compiled wheel): use it, not the checkout
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.fuzzing.leaks import Tally, measure, pre_fix_views, reference_views  # noqa: E402
from conformance.fuzzing.lockstep import Reference                                 # noqa: E402
from conformance.fuzzing.policy import Policy                                      # noqa: E402
from reference_impl import load_rules                                              # noqa: E402
from reference_impl.catalog import variant_ids                                     # noqa: E402
from reference_impl.resolve import resolve                                         # noqa: E402

FIELDS = ("games", "states", "views", "other_views", "leaking", "hiding", "forgetting")


def build_name() -> str:
    """Which interpreter is measured: the compiled build (mypyc) or pure Python."""
    import reference_impl.state as state_module
    kind = "pure Python" if str(state_module.__file__).endswith(".py") else "compiled"
    return f"{kind} ({Path(str(state_module.__file__)).parent})"


def parse_options(texts: list[str]) -> dict[str, dict[str, Any]]:
    chosen: dict[str, dict[str, Any]] = {}
    for text in texts:
        variant, _, setting = text.partition(":")
        key, _, value = setting.partition("=")
        parsed: Any = int(value) if value.lstrip("-").isdigit() else {"true": True, "false": False}.get(value, value)
        chosen.setdefault(variant, {})[key] = parsed
    return chosen


def done_chunks(out: Path | None) -> dict[tuple, dict[str, Any]]:
    found: dict[tuple, dict[str, Any]] = {}
    if out is None or not out.exists():
        return found
    for line in out.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            found[(row["table"], row["mode"], row["seed"], row["first_game"], row["games"])] = row
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", help="table ids (default: every table)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--chunk", type=int, default=500, help="games per line of --out")
    parser.add_argument("--out", type=Path, help="JSON Lines file the chunks are appended to (and resumed from)")
    parser.add_argument("--before", action="store_true", help="the views as they were before visibility was data")
    parser.add_argument("--option", action="append", default=[], metavar="VARIANT:KEY=VALUE",
                        help="an option for one table (repeatable)")
    args = parser.parse_args(argv)
    chosen = parse_options(args.option)
    variants = args.variants or variant_ids()
    mode = "before" if args.before else "reference"
    views_of = pre_fix_views if args.before else reference_views
    done = done_chunks(args.out)
    print(f"views: {mode}; interpreter: {build_name()}", flush=True)
    print(f"{'table':28} {'games':>6} {'states':>9} {'views':>10} {'other-seat':>10} {'leaking':>9} {'hiding':>7} "
          f"{'forgetting':>10} {'s':>7}", flush=True)
    total = Tally()
    for variant in variants:
        options = chosen.get(variant, {})
        label = variant + ("" if not options else " " + ",".join(f"{k}={v}" for k, v in options.items()))
        rules = load_rules(variant, options)
        policy = Policy(rules, Reference(variant, resolve(variant, options)))
        tally = Tally()
        for first in range(0, args.games, args.chunk):
            size = min(args.chunk, args.games - first)
            key = (label, mode, args.seed, first, size)
            if key in done:
                row = done[key]
                part = Tally(**{f: row[f] for f in FIELDS}, seconds=row["seconds"], example=row.get("example", ""))
            else:
                part = measure(rules, policy, size, args.seed, views_of, first_game=first)
                if args.out is not None:
                    row = {"table": label, "mode": mode, "seed": args.seed, "first_game": first, "games": size,
                           **{f: getattr(part, f) for f in FIELDS if f != "games"},
                           "seconds": round(part.seconds, 1), "example": part.example, "build": build_name()}
                    with args.out.open("a", encoding="utf-8") as handle:
                        handle.write(json.dumps(row) + "\n")
            tally.add(part)
        share = f" ({100 * tally.leaking / tally.other_views:.1f}% of other-seat views leak)" if tally.leaking else ""
        print(f"{label:28} {tally.games:>6} {tally.states:>9} {tally.views:>10} {tally.other_views:>10} {tally.leaking:>9} "
              f"{tally.hiding:>7} {tally.forgetting:>10} {tally.seconds:>7.0f}{share}", flush=True)
        if tally.example:
            print(f"    e.g. {tally.example}", flush=True)
        total.add(tally)
    print(f"{'total':28} {total.games:>6} {total.states:>9} {total.views:>10} {total.other_views:>10} {total.leaking:>9} "
          f"{total.hiding:>7} {total.forgetting:>10} {total.seconds:>7.0f}")
    return 1 if total.leaking or total.hiding or total.forgetting else 0


if __name__ == "__main__":
    sys.exit(main())
