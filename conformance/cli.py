"""The ``euchre-spec`` command line: one entry point for the spec, the interpreter and the suite."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Sequence

from rich.console import Console
from rich.table import Table

from reference_impl import SpecError, load_rules
from reference_impl.catalog import variant_ids, variant_path
from reference_impl.resolve import resolve
from reference_impl.selfplay import Summary, play_random_game, transcript, unit_name
from reference_impl.validate import variant_problems

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``["stick-the-dealer=true"]`` -> ``{"stick-the-dealer": "true"}``."""
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SpecError(f"--option expects KEY=VALUE, got {pair!r}")
        options[key.strip()] = value.strip()
    return options


def cmd_variants(args: argparse.Namespace) -> int:
    table = Table(title="Variants")
    for column in ("id", "title", "players", "cards", "options", "summary"):
        table.add_column(column, overflow="fold")
    for variant in variant_ids():
        resolved = resolve(variant)
        t = resolved.table
        n_cards = len(t["deck"]["suits"]) * len(t["deck"]["ranks"]) + len(t["deck"].get("extra", []))
        table.add_row(variant, t["title"], str(t["players"]["count"]), str(n_cards),
                      str(len(t.get("options", {}))), t["summary"])
    console.print(table)
    return 0


def _yaml_files(paths: Sequence[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.y*ml") if p.suffix in (".yaml", ".yml"))
        else:
            files.append(path)
    return files


def cmd_validate(args: argparse.Namespace) -> int:
    files = _yaml_files(args.paths)
    if not files:
        err_console.print("validate: no YAML files found in " + ", ".join(args.paths))
        return 1
    failed = 0
    for path in files:
        problems = variant_problems(path)
        if problems:
            failed += 1
            for problem in problems:
                console.print(f"[red]error[/red] {problem}", soft_wrap=True)
        else:
            console.print(f"[green]ok[/green]    {path}")
    console.print(f"{len(files) - failed} of {len(files)} file(s) valid")
    return 1 if failed else 0


def cmd_play(args: argparse.Namespace) -> int:
    rules = load_rules(args.variant, parse_options(args.option))
    rng = random.Random(args.seed)
    if args.games == 1:
        state = play_random_game(rules, rng)
        options = ", ".join(f"{k}={v}" for k, v in rules.selected.items())
        console.print(f"{rules.table['title']} ({rules.id}), seed {args.seed}")
        console.print(f"options: {options}")
        for line in transcript(rules, state.events):
            console.print(line, soft_wrap=True)
        console.print(f"Final scores: {state.scores}")
        return 0
    summary = Summary()
    started = time.perf_counter()
    for _ in range(args.games):
        summary.add(play_random_game(rules, rng))
    elapsed = time.perf_counter() - started
    table = Table(title=f"{args.games} random games of {rules.id} (seed {args.seed})")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("games", str(summary.games))
    table.add_row("hands dealt", str(summary.hands))
    table.add_row("thrown in", str(summary.throw_ins))
    table.add_row("hands per game", f"{summary.hands / summary.games:.2f}")
    table.add_row("lone hands", str(summary.alone))
    table.add_row("lone defences", str(summary.defended_alone))
    for row, count in sorted(summary.rows.items(), key=lambda item: -item[1]):
        table.add_row(f"scored by {row}", str(count))
    for unit, count in sorted(summary.winners.items(), key=lambda item: (item[0] is None, item[0])):
        table.add_row(f"won by {unit_name(rules, unit)}", str(count))
    table.add_row("hands per second", f"{summary.hands / elapsed:,.0f}")
    console.print(table)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="euchre-spec", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("variants", help="list the variants with a one-line summary")
    p.set_defaults(func=cmd_variants)

    p = sub.add_parser("validate", help="check rule tables (files or directories) against the schema and the semantic rules")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("play", help="random legal self-play: a transcript of one game, or a summary of many")
    p.add_argument("variant", help="variant id or path to a table")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="set an option (repeatable)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--games", type=int, default=1)
    p.set_defaults(func=cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except SpecError as exc:
        for problem in exc.problems:
            err_console.print(f"error: {problem}", soft_wrap=True)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
