"""``euchre-spec fuzz``: what an engine really plays, beside the reference.

``fuzz`` plays random games on the engine beside the reference; a divergence does not end
the game, which goes on along the reference's line (said in the output), so that later
phases are reached. Each kind of divergence (clause, phase, fields) is shrunk to a small
case and written as a case file. It drives the engine exactly as ``check`` does, and checks
every argument before the engine starts. ``--views`` is :mod:`conformance.cli.fuzz_views`.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.table import Table

from reference_impl.resolve import ResolvedTable, resolve

from conformance.common.console import console, error, escape, plain, say, warn
from conformance.common.progress import Progress
from conformance.runner.engine_process import left_behind_total
from conformance.fuzzing.clauses import ClauseIndex
from conformance.fuzzing.coverage import SITUATIONS, Coverage
from conformance.fuzzing.lockstep import SetupError
from conformance.fuzzing.loop import Fuzzer, FuzzResult
from conformance.fuzzing.options import describe
from conformance.fuzzing.shrink import SHRINK_SECONDS
from conformance.cli.engine_runs import (chosen_options, engine_arguments, engine_factory, json_report, option_flags,
                                         report_divergence, say_left)
from conformance.common.usage import (EXIT_FAILED, EXIT_OK, output_folder, write_atomically, parse_options, positive_int,
                                      seconds, whole_number)

DIVERGENCES = 12            # kinds of divergence a fuzz run collects (each is then shrunk) before it stops


def fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``fuzz`` command's options, and the function it runs."""
    engine_arguments(p)
    p.add_argument("--variant", default="euchre", help="variant id or path to a table (default %(default)s)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="set an option (repeatable)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--hands", type=positive_int, metavar="N", help="hands to play (default 1000)")
    budget.add_argument("--time", type=seconds, metavar="S", help="seconds to play instead")
    p.add_argument("--seed", type=whole_number, default=0, help="random seed (default %(default)s)")
    p.add_argument("-j", "--jobs", type=positive_int, default=1, metavar="N", help="engines run in parallel")
    p.add_argument("--divergences", type=positive_int, default=DIVERGENCES, metavar="N",
                   help="stop after N divergences of different kinds (default %(default)s; 1: at the first)")
    p.add_argument("--probes", type=fraction, default=0.03, metavar="P",
                   help="share of steps preceded by a request the rules refuse (default %(default)s)")
    p.add_argument("--no-shrink", action="store_true", help="write the divergence as found, unshrunk")
    p.add_argument("--shrink-time", type=seconds, default=SHRINK_SECONDS, metavar="S",
                   help="seconds to spend shrinking each divergence (default %(default)s)")
    p.add_argument("--out", default="reports/fuzz", metavar="DIR", help="where to write the cases (default %(default)s)")
    p.add_argument("--json", metavar="F", help="also write the run as JSON")
    p.add_argument("--views", action="store_true",
                   help="test the engine's seat views as information flow (no leak, nothing forgotten, one public part)")
    p.add_argument("--flow-only", action="store_true",
                   help="with --views: only the information-flow tests, not each view against the reference's "
                        "(an engine whose views carry fields of its own, as an adapter's information state)")
    p.set_defaults(func=cmd_fuzz)


# -- fuzz -----------------------------------------------------------------------------------------------
def cmd_fuzz(args: argparse.Namespace) -> int:
    if args.views:
        from conformance.cli.fuzz_views import cmd_fuzz_views
        return cmd_fuzz_views(args)
    argv, make_engine = engine_factory(args)
    out = output_folder(args.out, "--out")
    report = json_report(args.json, "fuzz")
    table = resolve(args.variant, parse_options(args.option))
    hands = args.hands if args.hands or args.time else 1000
    left_before = left_behind_total()
    plain(f"euchre-spec fuzz: {table.id} ({describe(chosen_options(table))}) on {' '.join(argv)}, seed {args.seed}, "
          + (f"{hands} hands" if hands else f"{args.time:g} s") + f", {args.jobs} engine(s)")
    with Progress("hands", hands, args.time) as progress:
        def shown(done: int, found: int) -> None:
            progress.update(done, f"{found} divergence(s)", f"{found} divergence{'s' if found != 1 else ''}")
        fuzzer = Fuzzer(make_engine, args.variant, table, seed=args.seed, hands=hands, seconds=args.time,
                        jobs=args.jobs, max_divergences=args.divergences, probes=args.probes, progress=shown)
        try:
            result = fuzzer.run()
        except SetupError as exc:
            error(str(exc))
            return EXIT_FAILED
    engine_name = (result.hello.get("engine") or {}).get("name", args.engine)
    if result.hands:
        plain(f"{result.hands:,} hands ({result.games:,} games, {result.steps:,} steps, {result.coverage.probes:,} "
              f"refusals probed) in {result.elapsed:.1f} s: {result.hands_per_second:,.0f} hands/s")
    else:       # diverged in the first hand: no rate, no coverage to speak of
        plain(f"diverged before any hand was played in full ({result.steps:,} steps, {result.elapsed:.1f} s)")
    for note in result.notes:
        warn(note)
    past = went_past(result)
    if past:
        plain(past)
    if result.hands:
        print_coverage(result.coverage, ClauseIndex(table.table))
    records: list[dict[str, Any]] = []
    written: set[str] = set()
    for divergence in result.divergences:
        records.append(report_divergence(divergence, args, args.variant, make_engine, table, table, engine_name, argv, out,
                                          f"euchre-spec fuzz --variant {args.variant}{option_flags(table)} --seed {args.seed}",
                                          written=written))
    left = say_left(left_before)
    if report:
        record = {**_fuzz_json(args, argv, table, result, records), "complete": True}
        if left is not None:
            record["left_processes"] = left
        write_atomically(report, json.dumps(record, indent=1, default=str) + "\n")
    if result.divergences:
        played = f"{result.hands:,} hands played in full" if result.hands else "in the first hand"
        say(f"[bold red]DIVERGED[/] {len(result.divergences)} kind(s) of divergence ({played})")
        return EXIT_FAILED
    say(f"[bold green]AGREED[/] on every step of {result.hands:,} hands")
    return EXIT_OK


def went_past(result: FuzzResult) -> str | None:
    """How the games went on past their divergences, in one line (None if none had to)."""
    parts = []
    if result.narrowed:
        parts.append(f"{result.narrowed:,} move(s) chosen among those both offer where the legal sets differed")
    if result.taken_back:
        parts.append(f"{result.taken_back:,} move(s) the engine refused taken back on the reference and another chosen")
    if result.resumed:
        parts.append(f"{result.resumed:,} time(s) the engine left the reference's line: the reference played the hand "
                     f"out and both went on from its next dealer and scores")
    if not parts:
        return None
    return "past each divergence the game went on along the reference's line: " + "; ".join(parts)


def _fuzz_json(args: argparse.Namespace, argv: list[str], table: ResolvedTable, result: FuzzResult,
               records: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "fuzz", "engine": argv, "hello": result.hello, "variant": table.id, "options": table.selected,
            "sha256": table.sha256, "seed": args.seed, "hands": result.hands, "games": result.games, "steps": result.steps,
            "seconds": round(result.elapsed, 3), "hands_per_second": round(result.hands_per_second, 1),
            "coverage": result.coverage.to_json(ClauseIndex(table.table)), "notes": result.notes,
            "went_past": {"line": "reference", "narrowed": result.narrowed, "taken_back": result.taken_back,
                          "resumed": result.resumed},
            "divergences": records}


def print_coverage(coverage: Coverage, index: ClauseIndex) -> None:
    """Two tables: the rare situations reached (hands), and each clause exercised (steps)."""
    table = Table(title="Situations reached", expand=False)
    table.add_column("situation")
    table.add_column("hands", justify="right")
    table.add_column("share", justify="right")
    for situation in SITUATIONS:
        count = coverage.situations.get(situation, 0)
        table.add_row(escape(situation), f"{count:,}", f"{100 * count / coverage.hands:.1f}%" if coverage.hands else "")
    console.print(table)
    clauses = coverage.clauses(index)
    table = Table(title="Clauses exercised", expand=False)
    table.add_column("clause")
    table.add_column("steps or hands", justify="right")
    for clause in index.ids:
        count = clauses.get(clause, 0)
        table.add_row(escape(clause), f"{count:,}" if count else "[yellow]never[/]")
    console.print(table)
    never = [c for c in index.ids if not clauses.get(c)]
    plain(f"clauses exercised: {len(index.ids) - len(never)} of {len(index.ids)}"
          + (f"; never: {', '.join(never)}" if never else ""))
