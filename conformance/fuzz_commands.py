"""``euchre-spec fuzz`` and ``euchre-spec identify``: what an engine really plays.

``fuzz`` plays random games on the engine beside the reference; a divergence does not end
the game, which goes on along the reference's line (said in the output), so that later
phases are reached. Each kind of divergence (clause, phase, fields) is shrunk to a small
case and written as a case file. ``identify`` finds
the option values (house rules) under which the engine agrees best with the reference,
and the deviations that remain under them. Both drive the engine exactly as ``check``
does; both check every argument before the engine starts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

from rich.table import Table

from reference_impl.resolve import ResolvedTable, resolve

from .clip import window_pair
from .console import console, error, escape, is_terminal, plain, say, warn
from .containment import available as contained
from .engine_process import EngineFailure, engine_command, left_behind_total
from .fuzzing.casefile import write_divergence
from .fuzzing.clauses import ClauseIndex
from .fuzzing.coverage import SITUATIONS, Coverage
from .fuzzing.divergence import Divergence
from .fuzzing.identify import Identification, Identifier
from .fuzzing.lockstep import OverlappingEngine, SetupError
from .fuzzing.loop import Fuzzer, FuzzResult
from .fuzzing.options import describe, show
from .report import left_sentence
from .fuzzing.shrink import SHRINK_SECONDS, Shrunk, shrink_divergence
from .usage import (EXIT_FAILED, EXIT_OK, UsageError, output_file, write_atomically, parse_options, positive_int, seconds,
                    whole_number)

DIVERGENCES = 12            # kinds of divergence a fuzz run collects (each is then shrunk) before it stops
PROGRESS_EVERY = float(os.environ.get("EUCHRE_SPEC_PROGRESS_EVERY", 5.0))


def fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}")
    return value


def add_fuzz_commands(sub: Any) -> None:
    """Register ``fuzz`` and ``identify`` on the command line's subparsers."""
    p = sub.add_parser("fuzz", help="random games on an engine beside the reference; each kind of divergence shrunk to a case")
    _engine_arguments(p)
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

    p = sub.add_parser("identify", help="the option values (house rules) an engine really plays, and what deviates")
    _engine_arguments(p)
    p.add_argument("--variant", help="variant id (default: every variant the engine declares)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="an option of the one table sent to the engine (needs --variant; repeatable)")
    p.add_argument("--seed", type=whole_number, default=0, help="random seed (default %(default)s)")
    p.add_argument("--hands", type=positive_int, default=160, metavar="N",
                   help="hands per round of evidence at most (default %(default)s)")
    p.add_argument("--check-hands", type=whole_number, default=400, metavar="N",
                   help="hands fuzzed under the identified rules to find what still deviates (default %(default)s; 0: none)")
    p.add_argument("--no-shrink", action="store_true", help="write the remaining deviations as found, unshrunk")
    p.add_argument("--shrink-time", type=seconds, default=30.0, metavar="S",
                   help="seconds to spend shrinking each deviation (default %(default)s)")
    p.add_argument("--out", default="reports/identify", metavar="DIR",
                   help="where to write the deviations' cases (default %(default)s)")
    p.add_argument("--json", metavar="F", help="also write the identification as JSON")
    p.set_defaults(func=cmd_identify)


def _chosen(table: ResolvedTable) -> dict[str, Any]:
    """The options of a table that differ from their defaults."""
    options = table.table.get("options") or {}
    return {k: v for k, v in table.selected.items() if options.get(k, {}).get("default") != v}


def _option_flags(table: ResolvedTable) -> str:
    return "".join(f" --option {k}={show(v)}" for k, v in sorted(_chosen(table).items()))


def _engine_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", required=True, metavar="CMD", help="the engine's command line (run without a shell), or 'reference'")
    p.add_argument("--timeout", type=seconds, default=10.0, metavar="S", help="seconds to wait for each reply")
    p.add_argument("--start-timeout", type=seconds, default=30.0, metavar="S",
                   help="seconds for the engine to start and answer hello (default %(default)s)")


def _engine_factory(args: argparse.Namespace) -> tuple[list[str], Callable[[], OverlappingEngine]]:
    try:
        argv = engine_command(args.engine)
    except ValueError as exc:
        raise UsageError(f"--engine: {exc}") from None
    return argv, lambda: OverlappingEngine(argv, args.timeout, start_timeout=args.start_timeout)


def _output_dir(path: str) -> Path:
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {path} is a file, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create --out {path}: {exc.strerror or exc}") from None
    if not os.access(out, os.W_OK):
        raise UsageError(f"cannot write in --out {path}")
    return out


class _Progress:
    """Hands played: a bar on a terminal, a line every few seconds in a log."""

    def __init__(self, total: int | None, seconds: float | None, what: str = "hands"):
        self.total, self.what = total, what
        self.started = self.last = time.monotonic()
        self.bar = None
        if is_terminal():
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
            columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
            self.bar = Progress(*columns, console=console, transient=True)
            self.task = self.bar.add_task(what, total=total if total else seconds)

    def __enter__(self) -> "_Progress":
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def update(self, done: int, found: int) -> None:
        now = time.monotonic()
        if self.bar is not None:
            if now - self.last >= 0.1:
                self.last = now
                completed = done if self.total else now - self.started
                self.bar.update(self.task, completed=completed,
                                description=f"{self.what} ({found} divergence{'s' if found != 1 else ''})")
            return
        if now - self.last >= PROGRESS_EVERY:
            self.last = now
            plain(f"progress: {done} {self.what}, {found} divergence(s), {now - self.started:.0f} s")
            sys.stdout.flush()


# -- fuzz -----------------------------------------------------------------------------------------------
def cmd_fuzz(args: argparse.Namespace) -> int:
    if args.views:
        from .fuzz_views_command import cmd_fuzz_views
        return cmd_fuzz_views(args)
    argv, make_engine = _engine_factory(args)
    out = _output_dir(args.out)
    report = _json_report(args.json, "fuzz")
    table = resolve(args.variant, parse_options(args.option))
    hands = args.hands if args.hands or args.time else 1000
    left_before = left_behind_total()
    plain(f"euchre-spec fuzz: {table.id} ({describe(_chosen(table))}) on {' '.join(argv)}, seed {args.seed}, "
          + (f"{hands} hands" if hands else f"{args.time:g} s") + f", {args.jobs} engine(s)")
    with _Progress(hands, args.time) as progress:
        fuzzer = Fuzzer(make_engine, args.variant, table, seed=args.seed, hands=hands, seconds=args.time,
                        jobs=args.jobs, max_divergences=args.divergences, probes=args.probes, progress=progress.update)
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
        records.append(_report_divergence(divergence, args, args.variant, make_engine, table, table, engine_name, argv, out,
                                          f"euchre-spec fuzz --variant {args.variant}{_option_flags(table)} --seed {args.seed}",
                                          written=written))
    left = _say_left(left_before)
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


def _report_divergence(divergence: Divergence, args: argparse.Namespace, variant: str, make_engine: Callable,
                       engine_table: ResolvedTable, reference_table: ResolvedTable, engine_name: str, argv: list[str],
                       out: Path, how: str, prefix: str = "fuzz", written: set[str] | None = None) -> dict[str, Any]:
    """Print a divergence, shrink it, write its case; what the JSON report keeps of it."""
    say(f"[bold red]DIVERGENCE[/] in game {divergence.game}: {escape(divergence.summary())}"
        + (f" (met in {divergence.count} games)" if divergence.count > 1 else ""))
    for difference in divergence.differences[:6]:
        # cut where the two differ, not at the same prefix (which would show two equal texts)
        reference, engine = window_pair(_text(difference.expected), _text(difference.actual))
        plain(f"    field {difference.field}: reference {reference}, engine {engine}")
    plain(f"    rule {divergence.clause}")
    record: dict[str, Any] = {"found": _divergence_json(divergence)}
    shrunk: Shrunk | None = None
    final = divergence
    if not args.no_shrink:
        try:
            shrunk = shrink_divergence(make_engine, variant, engine_table, reference_table, divergence,
                                       seconds=args.shrink_time)
        except (SetupError, EngineFailure) as exc:
            warn(f"not shrunk: {exc}")
        if shrunk is not None:
            final = shrunk.divergence
            plain(f"    shrunk from {shrunk.original_hands} hand(s), {shrunk.original_steps} steps to "
                  f"{final.hands} hand(s), {final.steps} steps ({shrunk.replays} replays, {shrunk.seconds:.1f} s): "
                  f"{final.summary()}")
            record["shrunk"] = {**_divergence_json(final), "replays": shrunk.replays, "seconds": round(shrunk.seconds, 2)}
    from .cases import load_corpus_meta
    path = write_divergence(out, final, variant, engine_table, args.seed, engine_name, how,
                            set(load_corpus_meta().tags), prefix=prefix, written=written)
    record["case"] = str(path)
    record["steps"] = final.steps
    record["hands"] = final.hands
    if final.statable:
        plain(f"    case ({final.steps} steps): {path}")
        plain(f"    reproduce: euchre-spec check --engine {_quote(' '.join(argv))} --corpus {path}")
    else:
        warn(f"the case {path} cannot state what differs ({', '.join(d.field for d in final.differences)}); "
             f"it shows the game only")
        record["reproducible"] = False
    return record


def _confirm_case(record: dict[str, Any], argv: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """Run a written case on the reference and on the engine as ``check`` does; a case that
    does not pass on the one and fail on the other is removed (and the record says why)."""
    from .cases import load_cases
    from .check import run_cases
    from .runner import FAILING

    path = Path(record["case"])
    cases, problems = load_cases([path])
    if problems:
        why = f"not a valid case: {problems[0]}"
    else:
        on_reference = next(run_cases(cases, engine_command("reference"), timeout=args.timeout)).outcome
        on_engine = next(run_cases(cases, argv, timeout=args.timeout)).outcome
        record["outcomes"] = {"reference": on_reference, "engine": on_engine}
        if on_reference == "pass" and on_engine in FAILING:
            return record
        why = f"it does not catch the engine when run with the options it names (reference {on_reference}, engine {on_engine})"
    warn(f"the case {path} is not kept: {why}")
    path.unlink(missing_ok=True)
    record["case"] = None
    record["not_kept"] = why
    return record


def _json_report(path: str | None, kind: str) -> Path | None:
    """The ``--json`` file, checked writable and at once replaced by a record that says the
    run has not ended: a run stopped before its end (Ctrl-C, SIGTERM, SIGKILL) leaves that,
    never the previous run's verdict."""
    if not path:
        return None
    report = output_file(path, "the JSON report")
    write_atomically(report, json.dumps({"type": kind, "complete": False,
                                         "note": "the run did not end: it was stopped or is still running"}) + "\n")
    return report


def _say_left(before: int) -> int | None:
    """How many processes the engines (and the shrinker's) left behind since ``before``,
    said on the console when there were any; None where they cannot be counted (without
    a subreaper, a process that leaves the engine's group is neither found nor counted)."""
    if not contained():
        return None
    left = left_behind_total() - before
    if left:
        warn(left_sentence(left))
    return left


def _quote(text: str) -> str:
    return json.dumps(text) if any(c in text for c in " '\"$") else text


def _text(value: Any) -> str:
    return repr(sorted(value) if isinstance(value, list) and all(isinstance(v, str) for v in value) else value)


def _divergence_json(divergence: Divergence) -> dict[str, Any]:
    return {"game": divergence.game, "count": divergence.count, "kind": [str(k) for k in divergence.kind],
            "where": divergence.position.describe(),
            "phase": divergence.phase, "clause": divergence.clause, "hands": divergence.hands, "steps": divergence.steps,
            "differences": [{"field": d.field, "reference": d.expected, "engine": d.actual} for d in divergence.differences],
            "script": divergence.script.to_json()}


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


# -- identify -------------------------------------------------------------------------------------------
def cmd_identify(args: argparse.Namespace) -> int:
    argv, make_engine = _engine_factory(args)
    out = _output_dir(args.out)
    report = _json_report(args.json, "identify")
    if args.option and not args.variant:
        raise UsageError("--option needs --variant: the options are those of the one table sent")
    left_before = left_behind_total()
    if args.variant:
        variants = [args.variant]
        tables = {args.variant: resolve(args.variant, parse_options(args.option))}
    else:
        try:
            variants = _declared_variants(make_engine)
        except SetupError as exc:
            error(str(exc))
            return EXIT_FAILED
        tables = {variant: resolve(variant) for variant in variants}
    plain(f"euchre-spec identify: {' '.join(argv)}, variant(s) {', '.join(variants)}, seed {args.seed}")
    results: list[Identification] = []
    records = []
    written: set[str] = set()
    failed = False
    for variant in variants:
        sent = tables[variant]
        plain(f"{variant}: the engine is sent {describe(_chosen(sent)) if _chosen(sent) else 'the default options'}")
        identifier = Identifier(make_engine, variant, sent, seed=args.seed, max_hands=args.hands,
                                check_hands=args.check_hands, progress=lambda text: plain(f"  {text}"))
        try:
            result = identifier.run()
        except SetupError as exc:
            error(f"{variant}: {exc}")
            failed = True
            continue
        results.append(result)
        engine_name = (result.hello.get("engine") or {}).get("name", args.engine)
        print_identification(result)
        deviations = []
        reference_table = resolve(variant, result.options)
        for deviation in result.deviations:
            # A case is played with the options it names, by the engine and the reference
            # alike: the identified ones, under which the deviation was found. So it is shrunk
            # with the engine sent them, written with them, and kept only if it passes on the
            # reference and fails on the engine when run as `check` runs it.
            record = _report_divergence(
                deviation, args, variant, make_engine, reference_table, reference_table, engine_name, argv, out,
                f"euchre-spec identify --variant {variant}{_option_flags(sent)} --seed {args.seed}", prefix="identify",
                written=written)
            deviations.append(_confirm_case(record, argv, args))
        records.append({**result.to_json(), "deviations": deviations})
        if result.changed or result.deviations:
            failed = True
    left = _say_left(left_before)
    if report:
        record = {"type": "identify", "complete": True, "engine": argv, "results": records}
        if left is not None:
            record["left_processes"] = left
        write_atomically(report, json.dumps(record, indent=1, default=str) + "\n")
    if not results:
        return EXIT_FAILED
    return EXIT_FAILED if failed else EXIT_OK


def _declared_variants(make_engine: Callable[[], OverlappingEngine]) -> list[str]:
    """The variants the engine's hello declares (every variant for ``"*"``)."""
    from reference_impl.catalog import variant_ids
    engine = make_engine()
    try:
        hello = engine.start()
    except EngineFailure as exc:
        raise SetupError(f"the engine did not start: {exc}") from None
    finally:
        engine.stop()
    declared = hello.get("variants")
    known = variant_ids()
    if declared == "*":
        return list(known)
    chosen = [v for v in (declared or {}) if v in known]
    if not chosen:
        raise SetupError(f"the engine declares no variant this suite knows ({', '.join(declared or {}) or 'none'})")
    return chosen


def print_identification(result: Identification) -> None:
    table = Table(title=f"{result.variant}: options the engine plays ({result.hands:,} hands of evidence, "
                        f"{len(result.rounds)} rounds)", expand=False)
    for column in ("option", "sent", "identified", "verdict", "evidence against the other values"):
        table.add_column(column, overflow="fold")
    for verdict in result.verdicts:
        style = {"differs": "bold yellow", "uncertain": "red"}.get(verdict.status, "")
        evidence = "; ".join(f"{value}: {t['losses']} against, {t['wins']} for" for value, t in verdict.against.items())
        identified = escape(show(verdict.value))
        table.add_row(escape(verdict.key), escape(show(verdict.sent)), f"[{style}]{identified}[/]" if style else identified,
                      escape(verdict.status), escape(evidence))
    console.print(table)
    for note in result.notes:
        warn(note)
    confirmed, uncertain = result.house_rules, result.uncertain
    plain(f"house rules (values other than the ones sent): {describe(confirmed) if confirmed else 'none'}")
    if uncertain:
        plain(f"uncertain, not counted as house rules (the evidence is split; a rule bug fits no value well): "
              f"{describe(uncertain)}")
    if result.check_hands:
        if result.deviations:
            plain(f"deviations that remain under these rules ({result.check_hands:,} hands checked): "
                  f"{len(result.deviations)} kind(s)")
        else:
            plain(f"no deviation remains under these rules ({result.check_hands:,} hands checked)")
