"""``euchre-spec play VARIANT``: random legal self-play, a transcript of one game or a summary of many."""

from __future__ import annotations

import argparse
import contextlib
import random
import shlex
import signal
import time
from typing import Iterator

from rich.table import Table

from reference_impl import load_rules
from reference_impl.selfplay import MAX_HANDS, Summary, play_many, play_random_game, transcript, unit_name

from conformance.cli.signals import ENDING_SIGNALS, main_thread
from conformance.common.console import console, error, escape, plain
from conformance.common.usage import EXIT_FAILED, EXIT_OK, UsageError, parse_options, positive_int, whole_number


@contextlib.contextmanager
def _signals_end_at_once() -> Iterator[None]:
    """While the interpreter plays (nothing to clean up, nothing written yet): Ctrl-C, SIGTERM
    and the other ending signals take their default action, so they end the process at
    once, at any point. A Python handler would run only between bytecodes, and the compiled
    interpreter (the wheel's, built with mypyc) runs none inside its loops: a game that
    never ended could then be stopped by SIGKILL alone."""
    if not main_thread():
        yield
        return
    previous = {}
    for number in (signal.SIGINT, *ENDING_SIGNALS):
        try:
            if signal.getsignal(number) is not signal.SIG_IGN:      # (ignored on purpose: nohup, a background job)
                previous[number] = signal.signal(number, signal.SIG_DFL)
        except (OSError, ValueError):
            pass
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def cmd_play(args: argparse.Namespace) -> int:
    rules = load_rules(args.variant, parse_options(args.option))
    rng = random.Random(args.seed)
    options = ", ".join(f"{k}={v}" for k, v in rules.selected.items()) or "none"
    if args.egn:
        from conformance.cli.egn import check_exportable, egn_output
        if args.games != 1:
            raise UsageError("--egn writes one game: use it with --games 1")
        egn_output(args.egn)
        refused = check_exportable(rules)
        if refused:
            error(f"--egn: {refused}")
            return EXIT_FAILED
    if args.games == 1:
        with _signals_end_at_once():
            state = play_random_game(rules, rng)
        plain(f"{rules.table['title']} ({rules.id}), seed {args.seed}")
        plain(f"options: {options}")
        for line in transcript(rules, state.events):
            plain(line)
        plain(f"Final scores: {state.scores}")
        if args.egn:
            from conformance.cli.egn import write_played_game
            refused = write_played_game(rules, state, args.egn, args.seed)
            if refused:
                error(f"--egn: {refused}")
                return EXIT_FAILED
            plain(f"EGN record written to {args.egn}")
        return EXIT_OK
    summary = Summary()
    started = time.perf_counter()
    with _signals_end_at_once():
        play_many(rules, args.seed, args.games, summary)
    elapsed = time.perf_counter() - started
    table = Table(title=escape(f"{args.games} random games of {rules.id} (seed {args.seed})\noptions: {options}"))
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("games", str(summary.games))
    if summary.endless:
        table.add_row(f"not over after {MAX_HANDS} hands", str(len(summary.endless)))
    table.add_row("hands dealt", str(summary.hands))
    table.add_row("thrown in", str(summary.throw_ins))
    table.add_row("hands per game", f"{summary.hands / summary.games:.2f}" if summary.games else "-")
    table.add_row("lone hands", str(summary.alone))
    table.add_row("lone defences", str(summary.defended_alone))
    for row, count in sorted(summary.rows.items(), key=lambda item: -item[1]):
        table.add_row(escape(f"scored by {row}"), str(count))
    for unit, count in sorted(summary.winners.items(), key=lambda item: (item[0] is None, item[0])):
        table.add_row(escape(f"won by {unit_name(rules, unit)}"), str(count))
    table.add_row("hands per second", f"{summary.hands / max(elapsed, 1e-9):,.0f}")
    console.print(table)
    for game_seed in summary.endless:
        error(f"{rules.id}: a game did not end in {MAX_HANDS} hands; replay it with: "
              f"euchre-spec play {args.variant} --games 1 --seed {game_seed}"
              + "".join(f" --option {shlex.quote(o)}" for o in args.option or []))
    return EXIT_FAILED if summary.endless else EXIT_OK


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``play`` command's options, and the function it runs."""
    p.add_argument("variant", help="variant id or path to a table")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="set an option (repeatable)")
    p.add_argument("--seed", type=whole_number, default=0)
    p.add_argument("--games", type=positive_int, default=1, metavar="N")
    p.add_argument("--egn", metavar="FILE", help="also write the game as an EGN record (with --games 1)")
    p.set_defaults(func=cmd_play)
