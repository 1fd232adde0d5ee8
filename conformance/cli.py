"""The ``euchre-spec`` command line: one entry point for the spec, the interpreter and the suite.

Exit status (docs/cli.md): 0 everything passed; 1 a case failed or an input (a table, a
case, an option) was refused; 2 the command line itself was wrong; 3 an internal error of
euchre-spec (a bug: the message says where the traceback was saved); 130 interrupted by
Ctrl-C or SIGTERM. A user's mistake never shows a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shlex
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from rich.table import Table

from reference_impl import SpecError, load_rules
from reference_impl.cards import pack_cards
from reference_impl.catalog import variant_ids
from reference_impl.resolve import resolve
from reference_impl.selfplay import MAX_HANDS, EndlessGame, Summary, play_many, play_random_game, transcript, unit_name
from reference_impl.validate import variant_problems

from . import PROTOCOL_SEMVER, __version__
from .console import console, error, escape, plain, say, warn

from .usage import (EXIT_FAILED, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError,  # noqa: F401
                    existing_path, output_file, parse_options, percent, positive_int, readable_file, seconds,
                    shard, whole_number)


# -- commands ------------------------------------------------------------------------------------
def cmd_variants(args: argparse.Namespace) -> int:
    if getattr(args, "name", None):
        from .explain import explain_variant
        return explain_variant(args.name, args.option_key)
    from .listing import field, fits_table, print_lines, wrapped
    wide = fits_table("variants")
    listed: list[str] = []
    table = Table(title="Variants", expand=False)
    table.add_column("id", no_wrap=True, style="bold")
    table.add_column("players", justify="right", no_wrap=True)
    table.add_column("cards", justify="right", no_wrap=True)
    table.add_column("options", justify="right", no_wrap=True)
    table.add_column("title and summary", ratio=1, min_width=24)
    broken: list[tuple[str, SpecError]] = []
    for variant in variant_ids():
        try:
            t = resolve(variant).table
        except SpecError as exc:        # one bad table of one's own hides none of the others
            broken.append((variant, exc))
            continue
        n_cards = len(pack_cards(t["deck"]))
        if not wide:        # a list: the id whole on its line, the rest indented and wrapped at spaces
            listed += ["", f"{variant}: {t['title']}",
                       *field("players, cards, options", f"{t['players']['count']}, {n_cards}, {len(t.get('options', {}))}"),
                       *wrapped(t["summary"])]
            continue
        table.add_row(escape(variant), str(t["players"]["count"]), str(n_cards), str(len(t.get("options", {}))),
                      f"{escape(t['title'])}\n[dim]{escape(t['summary'])}[/]")
    if wide:
        console.print(table)
    else:
        print_lines(["Variants (euchre-spec variants NAME explains one's options)"] + listed)
    for variant, exc in broken:     # listed on stderr, the exit status staying 0: the listing worked
        for problem in exc.problems:
            warn(f"{variant} is not listed, its table is refused: {problem}")
    return EXIT_OK


def _yaml_files(paths: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.y*ml") if p.suffix in (".yaml", ".yml"))
        else:
            files.append(path)
    return files


def cmd_validate(args: argparse.Namespace) -> int:
    files = _yaml_files(args.paths)
    if not files:
        raise UsageError("no YAML files found in " + ", ".join(map(str, args.paths)))
    failed = 0
    for path in files:
        problems = variant_problems(path)
        if problems:
            failed += 1
            for problem in problems:
                say(f"[red]error[/red] {escape(str(problem))}")
        else:
            say(f"[green]ok[/green]    {escape(str(path))}")
    plain(f"{len(files) - failed} of {len(files)} file(s) valid")
    return EXIT_FAILED if failed else EXIT_OK


@contextlib.contextmanager
def _signals_end_at_once() -> Iterator[None]:
    """While the interpreter plays (nothing to clean up, nothing written yet): Ctrl-C, SIGTERM
    and the other ending signals take their default action, so they end the process at
    once, at any point. A Python handler would run only between bytecodes, and the compiled
    interpreter (the wheel's, built with mypyc) runs none inside its loops: a game that
    never ended could then be stopped by SIGKILL alone."""
    if not _main_thread():
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
        from .egn_commands import check_exportable, egn_output
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
            from .egn_commands import write_played_game
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


def cmd_engine(args: argparse.Namespace) -> int:
    from .reference_engine import main as serve
    return serve()


def cmd_protocol(args: argparse.Namespace) -> int:
    from reference_impl.catalog import spec_root
    page = spec_root() / "protocol.md"
    if args.path:
        plain(str(page))
    else:
        sys.stdout.write(page.read_text(encoding="utf-8"))
    return EXIT_OK


def schema_names() -> list[str]:
    """The schemas `euchre-spec schema` knows: `variant`, `case`, `protocol/<message>`."""
    from reference_impl.catalog import schema_dir
    root = schema_dir()
    return sorted(str(p.relative_to(root)).removesuffix(".schema.json") for p in root.rglob("*.schema.json"))


def cmd_schema(args: argparse.Namespace) -> int:
    """Print a JSON Schema, so that an editor can check a table or case written outside a
    checkout (the `# yaml-language-server: $schema=` line needs a file or URL)."""
    from reference_impl.catalog import schema_dir
    names = schema_names()
    if args.name not in names:
        raise UsageError(f"unknown schema {args.name!r} (known: {', '.join(names)})")
    path = schema_dir() / f"{args.name}.schema.json"
    if args.path:
        plain(str(path))
    else:
        sys.stdout.write(path.read_text(encoding="utf-8"))
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    from .check_command import run_check
    return run_check(args)


def cmd_mutants(args: argparse.Namespace) -> int:
    import fnmatch

    from .cases import load_cases, load_corpus_meta
    from .mutation import mutants, run_mutants

    cases, problems = load_cases(list(args.corpus) if args.corpus else None, load_corpus_meta().tags)
    if problems:
        for problem in problems:
            error(str(problem))
        return EXIT_FAILED
    names = [n for n in mutants() if not args.only or any(fnmatch.fnmatchcase(n, g) for g in args.only)]
    if not names:
        raise UsageError("no mutant matches " + ", ".join(args.only or []))
    started = time.monotonic()
    with console.status(f"running {len(names)} mutants against {len(cases)} cases ..."):
        results = run_mutants(cases, names, jobs=args.jobs)
    table = Table(title=f"Mutants ({len(cases)} cases)")
    for column in ("mutant", "seeded bug", "caught by", "outcome", "cases run"):
        table.add_column(column, overflow="fold")
    for result in results:
        by = result.caught_by
        outcome = escape(by.outcome + (f" ({by.failure.field})" if by.failure and by.failure.field else "")
                         + (f", rule {by.failure.clause['id']}" if by.failure and by.failure.clause else "")) if by else ""
        if by and by.internal_error:
            outcome += f" [bold red]INTERNAL ERROR[/]: {escape(by.internal_error)}"
        if result.status == "broken":
            outcome = f"[bold red]BROKEN MUTANT[/]: {outcome}: {escape(by.failure.message if by.failure else '')}"
        table.add_row(escape(result.name), escape(result.bug), escape(by.case.id) if by else "[bold red]SURVIVED[/]",
                      outcome, str(result.cases_run))
    console.print(table)
    missed = [f"{r.name} ({r.status})" for r in results if not r.caught]
    score = 100 * (len(results) - len(missed)) / len(results)
    plain(f"mutation score {score:.0f}%: {len(results) - len(missed)} of {len(results)} mutants caught"
          f" in {time.monotonic() - started:.1f} s" + (f"; not caught: {', '.join(missed)}" if missed else ""))
    internal = [r.name for r in results if r.caught_by and r.caught_by.internal_error]
    if internal:
        error(f"internal error of euchre-spec while citing the rule for {', '.join(internal)}; please report it")
        return EXIT_INTERNAL
    return EXIT_FAILED if missed else EXIT_OK


def cmd_cache(args: argparse.Namespace) -> int:
    from reference_impl import cache
    root = cache.cache_root()
    if root is None:
        plain("the cache is off (EUCHRE_SPEC_CACHE=off)")
        return EXIT_OK
    if args.cache_command == "clear":
        removed = cache.clear()
        plain(f"removed {removed} cached answer(s) from {root}")
    else:
        entries, size = cache.usage()
        plain(f"{root}: {entries} cached answer(s), {size / 1e6:.1f} MB (at most {cache.MAX_TOTAL / 1e6:.0f} MB are kept)")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    from .corpus_commands import add_corpus_commands
    from .fuzz_commands import add_fuzz_commands

    parser = argparse.ArgumentParser(
        prog="euchre-spec", description="The Euchre family's rules as data, a reference interpreter and a conformance "
        "suite for any Euchre engine.", epilog="Exit status: 0 all passed, 1 failures or invalid input, 2 usage, "
        "3 internal error, 130 interrupted. See docs/cli.md.")
    parser.add_argument("--version", action="version", version=version_text())
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("variants", help="list the variants with a one-line summary; with NAME, its options explained")
    p.add_argument("name", nargs="?", metavar="NAME", help="a variant: its options, values, meanings and sources")
    p.add_argument("option_key", nargs="?", metavar="OPTION", help="one option of it, each value in detail")
    p.set_defaults(func=cmd_variants)

    p = sub.add_parser("validate", help="check rule tables (files or folders) against the schema and the semantic rules")
    p.add_argument("paths", nargs="+", metavar="PATH", type=existing_path)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("play", help="random legal self-play: a transcript of one game, or a summary of many")
    p.add_argument("variant", help="variant id or path to a table")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="set an option (repeatable)")
    p.add_argument("--seed", type=whole_number, default=0)
    p.add_argument("--games", type=positive_int, default=1, metavar="N")
    p.add_argument("--egn", metavar="FILE", help="also write the game as an EGN record (with --games 1)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("engine", help="run the reference engine on stdin/stdout (the JSON Lines protocol)")
    p.set_defaults(func=cmd_engine)

    p = sub.add_parser("protocol", help="print the engine protocol page of this version (Markdown)")
    p.add_argument("--path", action="store_true", help="print where the page is installed instead")
    p.set_defaults(func=cmd_protocol)

    p = sub.add_parser("schema", help="print a JSON Schema (variant, case, protocol/<message>), for editors")
    p.add_argument("name", nargs="?", default="variant", metavar="NAME", help="variant (default), case or protocol/<message>")
    p.add_argument("--path", action="store_true", help="print where the schema is installed instead")
    p.set_defaults(func=cmd_schema)

    # a short usage line: a mistake is one line of usage and one of error, whatever options check grows
    p = sub.add_parser("check", help="check an engine against the corpus",
                       usage="euchre-spec check --engine CMD [options] (euchre-spec check -h lists them)")
    p.add_argument("--engine", required=True, metavar="CMD", help="the engine's command line (run without a shell), or 'reference'")
    p.add_argument("--variant", help="only cases of this variant")
    p.add_argument("--case", action="append", metavar="GLOB", help="only cases whose id matches (repeatable)")
    p.add_argument("--corpus", action="append", metavar="PATH", type=existing_path,
                   help="case files or folders (default: the built-in corpus)")
    p.add_argument("--skip", metavar="FILE", type=readable_file, help="skip (baseline) file: failures listed are expected")
    p.add_argument("-j", "--jobs", type=positive_int, default=1, metavar="N", help="engines run in parallel")
    p.add_argument("--shard", type=shard, metavar="K/N", help="run only the K-th of N shares of the cases")
    p.add_argument("--timeout", type=seconds, default=10.0, metavar="S", help="seconds to wait for each reply")
    p.add_argument("--case-timeout", type=seconds, default=60.0, metavar="S", help="seconds for a whole case")
    p.add_argument("--start-timeout", type=seconds, default=30.0, metavar="S",
                   help="seconds for the engine to start and answer hello (default %(default)s; never less than --timeout)")
    p.add_argument("--json", default="reports/report.jsonl", metavar="F", help="JSON Lines report (default %(default)s)")
    p.add_argument("--junit", metavar="F", help="also write JUnit XML")
    p.add_argument("--tap", metavar="F", help="also write TAP")
    p.add_argument("--max-fail", type=positive_int, metavar="N", help="stop starting cases after N unexpected failures")
    p.add_argument("--give-up-after", type=whole_number, default=5, metavar="N",
                   help="stop when the engine fails to start or answer in N cases in a row (0: never; default %(default)s)")
    p.add_argument("--allow-fixed", action="store_true",
                   help="a case of the skip file that now passes is a warning, not a failure")
    p.add_argument("--write-baseline", metavar="F", help="write the failing cases as a skip file")
    p.add_argument("--strict-replies", action=argparse.BooleanOptionalAction, default=True,
                   help="validate every reply against its schema (the default; --no-strict-replies: the first of each kind)")
    p.add_argument("--require", action="store_true",
                   help="fail the run unless every selected case ran (none unsupported by the engine's hello)")
    p.add_argument("--fail-under", type=percent, metavar="PCT",
                   help="fail the run when less than PCT%% of the selected cases ran")
    p.add_argument("--generate", type=whole_number, default=0, metavar="N",
                   help="also run N cases generated for exactly the rules the engine's hello declares")
    p.add_argument("--seed", type=whole_number, default=1, help="seed of the generated cases (default %(default)s)")
    p.add_argument("--generated-out", default="euchre-spec-generated", metavar="DIR",
                   help="where generated cases that fail are written (default %(default)s)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("mutants", help="run the corpus against every mutant engine (conformance/mutants); each must be caught")
    p.add_argument("--only", action="append", metavar="GLOB", help="only mutants whose name matches (repeatable)")
    p.add_argument("-j", "--jobs", type=positive_int, default=2, metavar="N", help="mutants run in parallel")
    p.add_argument("--corpus", action="append", metavar="PATH", type=existing_path,
                   help="case files or folders (default: the whole corpus)")
    p.set_defaults(func=cmd_mutants)

    add_corpus_commands(sub)
    from .egn_commands import add_egn_commands; add_egn_commands(sub)  # noqa: E702 - egn import | check | export
    add_fuzz_commands(sub)
    from .report_tools import add_report_commands; add_report_commands(sub)  # noqa: E702 - report diff | badge | summary | history

    cache = sub.add_parser("cache", help="the on-disk cache of parsed and validated files")
    cache_sub = cache.add_subparsers(dest="cache_command", required=True, metavar="ACTION")
    cache_sub.add_parser("info", help="where the cache is and how large").set_defaults(func=cmd_cache)
    cache_sub.add_parser("clear", help="empty the cache").set_defaults(func=cmd_cache)
    return parser


def version_text() -> str:
    from .cases import load_corpus_meta
    try:
        corpus = load_corpus_meta().version
    except SpecError:
        corpus = "unknown"
    return f"euchre-spec {__version__} (corpus {corpus}, protocol {PROTOCOL_SEMVER})"


def _internal_error(exc: BaseException) -> int:
    """Save the traceback of a bug and say where, in one message."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        handle, path = tempfile.mkstemp(prefix="euchre-spec-crash-", suffix=".txt")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(f"euchre-spec {__version__}\ncommand: {sys.argv!r}\n\n{text}")
        where = f"the traceback is in {path}"
    except OSError:
        where = "traceback:\n" + text
    error(f"internal error: {type(exc).__name__}: {exc}. This is a bug in euchre-spec {__version__}, not in your "
          f"input; please report it with the command line and {where}")
    return EXIT_INTERNAL


# Signals whose default action ends a process without a word: each ends a run as Ctrl-C does
# (the engines killed, the reports closed and saying so, exit 130). SIGHUP is a closed
# terminal, SIGALRM or SIGXCPU a limit of the job's; SIGQUIT is left to dump core as asked.
ENDING_SIGNALS = tuple(getattr(signal, name) for name in (
    "SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM", "SIGPROF", "SIGXCPU", "SIGIO", "SIGPWR")
    if hasattr(signal, name))


class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal; ``name`` says which (``SIGTERM``, ``SIGHUP``...)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def _on_sigterm(signum: int, frame: object) -> None:
    raise Interrupted(signal.Signals(signum).name)


def _catch_ending_signals() -> dict[int, Any]:
    """Have every ending signal raise :class:`Interrupted`; the handlers it replaced."""
    previous = {}
    for number in ENDING_SIGNALS:
        try:
            previous[number] = signal.signal(number, _on_sigterm)
        except (OSError, ValueError):
            pass
    return previous


def main(argv: Sequence[str] | None = None) -> int:
    from .engine_process import allow_starts, kill_all

    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable = args.func
    previous = _catch_ending_signals() if _main_thread() else None
    try:
        return handler(args)
    except UsageError as exc:
        error(str(exc))
        return EXIT_USAGE
    except SpecError as exc:
        for problem in exc.problems:
            error(str(problem))
        return EXIT_FAILED
    except EndlessGame as exc:
        error(str(exc))
        return EXIT_FAILED
    except KeyboardInterrupt as exc:
        kill_all()
        error(f"interrupted by {exc.name}" if isinstance(exc, Interrupted) else "interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - anything else is a bug of ours, said as such
        kill_all()
        return _internal_error(exc)
    finally:
        allow_starts()
        for number, handler_before in (previous or {}).items():
            signal.signal(number, handler_before)


def _main_thread() -> bool:
    import threading
    return threading.current_thread() is threading.main_thread()


def _silence_stdout() -> None:
    """After a closed pipe (``euchre-spec ... | head``), make the interpreter's final flush quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
