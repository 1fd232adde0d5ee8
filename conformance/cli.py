"""The ``euchre-spec`` command line: one entry point for the spec, the interpreter and the suite."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Sequence

from rich.console import Console
from rich.table import Table

from reference_impl import SpecError, load_rules
from reference_impl.catalog import variant_ids
from reference_impl.resolve import resolve
from reference_impl.selfplay import EndlessGame, Summary, play_random_game, transcript, unit_name
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
    table.add_column("id", no_wrap=True)
    for column in ("title", "players", "cards", "options", "summary"):
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


def _shard(text: str) -> tuple[int, int]:
    k, sep, n = text.partition("/")
    try:
        shard = (int(k), int(n))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--shard expects K/N, got {text!r}") from None
    if not sep or not 1 <= shard[0] <= shard[1]:
        raise argparse.ArgumentTypeError(f"--shard expects K/N with 1 <= K <= N, got {text!r}")
    return shard


def cmd_engine(args: argparse.Namespace) -> int:
    from .reference_engine import main as serve
    return serve()


def cmd_check(args: argparse.Namespace) -> int:
    from .check import SkipList, run_cases, select
    from .cases import Case, load_cases, load_corpus_meta
    from .engine_process import engine_command
    from .report import JsonlReport, footer, header, print_failures, summary_tables, write_junit, write_tap
    from .runner import FAILING, CaseResult, Failure
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    try:
        argv = engine_command(args.engine)
    except ValueError as exc:
        err_console.print(f"error: --engine: {exc}")
        return 2
    meta = load_corpus_meta()
    cases, problems = load_cases([Path(p) for p in args.corpus] if args.corpus else None, meta.tags)
    chosen = select(cases, args.variant, args.case, args.shard)
    skips = SkipList.read(args.skip) if args.skip else None
    broken = [CaseResult(Case.unreadable(p), "error", 0.0, Failure(where="case file", message=str(p))) for p in problems]
    if not chosen and not broken:
        err_console.print("error: no case matches the selection")
        return 2
    tables = {}
    for case in chosen:
        tables.setdefault(f"{case.variant} {json.dumps(case.table.selected, sort_keys=True)}",
                          {"variant": case.variant, "options": case.table.selected, "sha256": case.table.sha256})
    report_path = Path(args.json)
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report = JsonlReport(report_path)
    hello: dict = {}
    results: list[CaseResult] = list(broken)
    started = time.monotonic()
    header_written = False

    def write_header() -> None:
        nonlocal header_written
        if not header_written:
            report.write(header(argv, hello or None, meta.version, tables, sys.argv[1:]))
            header_written = True
            for result in broken:
                report.write(result.to_json())

    def on_hello(reply: dict) -> None:
        if not hello:
            hello.update(reply)

    console.print(f"euchre-spec check: {len(chosen)} case(s) on {' '.join(argv)} with {args.jobs} engine(s)")
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task("cases", total=len(chosen))
        for result in run_cases(chosen, argv, jobs=args.jobs, timeout=args.timeout, case_timeout=args.case_timeout,
                                skips=skips, max_fail=args.max_fail, strict_replies=args.strict_replies,
                                hello_callback=on_hello):
            write_header()
            report.write(result.to_json())
            results.append(result)
            progress.advance(task)
    write_header()
    failing = [r for r in results if r.outcome in FAILING]
    exit_code = 1 if failing else 0
    report.write(footer(results, time.monotonic() - started, exit_code))
    report.close()
    engine_name = (hello.get("engine") or {}).get("name", args.engine)
    if args.junit:
        write_junit(args.junit, results, engine_name)
    if args.tap:
        write_tap(args.tap, results)
    if args.write_baseline:
        count = SkipList.write(args.write_baseline, results)
        console.print(f"baseline: {count} failing case(s) written to {args.write_baseline}")
    for table in summary_tables(results):
        console.print(table)
    print_failures(console, results)
    counts = ", ".join(f"{n} {o}" for o, n in sorted(Counter(r.outcome for r in results).items()))
    console.print(f"{len(results)} case(s): {counts}. Report: {report_path}")
    return exit_code


def cmd_mutants(args: argparse.Namespace) -> int:
    import fnmatch
    from .cases import load_cases, load_corpus_meta
    from .mutation import MUTANTS_DIR, mutants, run_mutants

    if not MUTANTS_DIR.is_dir():
        err_console.print(f"error: no mutants folder at {MUTANTS_DIR} (run from a checkout of the repository)")
        return 2
    cases, problems = load_cases([Path(p) for p in args.corpus] if args.corpus else None, load_corpus_meta().tags)
    if problems:
        for problem in problems:
            err_console.print(f"error: {problem}", soft_wrap=True)
        return 2
    names = [n for n in mutants() if not args.only or any(fnmatch.fnmatchcase(n, g) for g in args.only)]
    if not names:
        err_console.print("error: no mutant matches")
        return 2
    started = time.monotonic()
    with console.status(f"running {len(names)} mutants against {len(cases)} cases ..."):
        results = run_mutants(cases, names, jobs=args.jobs)
    table = Table(title=f"Mutants ({len(cases)} cases)")
    for column in ("mutant", "seeded bug", "caught by", "outcome", "cases run"):
        table.add_column(column, overflow="fold")
    for result in results:
        by = result.caught_by
        outcome = (by.outcome + (f" ({by.failure.field})" if by.failure and by.failure.field else "")) if by else ""
        if result.status == "broken":
            outcome = f"[bold red]BROKEN MUTANT[/]: {outcome}: {by.failure.message if by.failure else ''}"
        table.add_row(result.name, result.bug, by.case.id if by else "[bold red]SURVIVED[/]", outcome, str(result.cases_run))
    console.print(table)
    missed = [f"{r.name} ({r.status})" for r in results if not r.caught]
    score = 100 * (len(results) - len(missed)) / len(results)
    console.print(f"mutation score {score:.0f}%: {len(results) - len(missed)} of {len(results)} mutants caught"
                  f" in {time.monotonic() - started:.1f} s" + (f"; not caught: {', '.join(missed)}" if missed else ""))
    return 1 if missed else 0


def cmd_corpus_generate(args: argparse.Namespace) -> int:
    from . import CORPUS_DIR
    from .generate import generate

    variants = args.variant or variant_ids()
    out = Path(args.out) if args.out else CORPUS_DIR / "generated"
    total = 0
    for variant in variants:
        written = generate(variant, out, seed=args.seed, hands_per_combination=args.hands, games_per_combination=args.games)
        total += len(written)
        console.print(f"{variant}: {len(written)} generated case(s) in {out}")
    console.print(f"{total} case(s) written")
    return 0


def cmd_corpus_lint(args: argparse.Namespace) -> int:
    from .lint import lint

    report = lint(jobs=args.jobs)
    for problem in report.problems:
        console.print(f"[red]error[/red] {problem}", soft_wrap=True, markup=False)
    table = Table(title="Clause coverage (anchor -> cases)")
    for column in ("variant", "clause", "cases", "examples"):
        table.add_column(column, overflow="fold")
    for (variant, clause), ids in sorted(report.coverage.items()):
        if ids:
            count, examples = str(len(ids)), ", ".join(sorted(ids)[:3])
        elif (variant, clause) in report.inherited:
            count, examples = "0", f"as in {report.inherited[(variant, clause)]} (the same clause)"
        else:
            count, examples = "[bold red]0[/]", ""
        table.add_row(variant, clause, count, examples)
    console.print(table)
    uncovered = [f"{v}#{c}" for v, c in report.uncovered()]
    console.print(f"{report.cases} case(s), {len(report.coverage)} clause(s), {len(uncovered)} uncovered, "
                  f"{len(report.problems)} problem(s)" + (f"; uncovered: {', '.join(uncovered)}" if uncovered else ""))
    return 1 if report.problems or uncovered else 0


def cmd_corpus_stats(args: argparse.Namespace) -> int:
    from .cases import load_cases, load_corpus_meta

    meta = load_corpus_meta()
    cases, problems = load_cases(tags=meta.tags)
    for title, key in (("variant", lambda c: [c.variant]),
                       ("option", lambda c: [f"{c.variant}: {k}={v}" for k, v in sorted(c.options.items())] or [f"{c.variant}: defaults"]),
                       ("tag", lambda c: c.tags)):
        counts = Counter(name for case in cases for name in key(case))
        table = Table(title=f"Cases per {title}")
        table.add_column(title)
        table.add_column("cases", justify="right")
        table.add_column("steps", justify="right")
        steps = Counter()
        for case in cases:
            for name in key(case):
                steps[name] += case.steps
        for name, count in sorted(counts.items()):
            table.add_row(name, str(count), str(steps[name]))
        console.print(table)
    console.print(f"corpus {meta.version}: {len(cases)} case(s), {sum(c.steps for c in cases)} step(s), "
                  f"{sum(1 for c in cases if 'generated' in c.tags)} generated, {len(problems)} unreadable")
    return 1 if problems else 0


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

    p = sub.add_parser("engine", help="run the reference engine on stdin/stdout (the JSON Lines protocol)")
    p.set_defaults(func=cmd_engine)

    p = sub.add_parser("check", help="check an engine against the corpus")
    p.add_argument("--engine", required=True, metavar="CMD", help="the engine's command line (run without a shell), or 'reference'")
    p.add_argument("--variant", help="only cases of this variant")
    p.add_argument("--case", action="append", metavar="GLOB", help="only cases whose id matches (repeatable)")
    p.add_argument("--corpus", action="append", metavar="PATH", help="case files or directories (default: the built-in corpus)")
    p.add_argument("--skip", metavar="FILE", help="skip (baseline) file: failures listed are expected")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="engines run in parallel")
    p.add_argument("--shard", type=_shard, metavar="K/N", help="run only the K-th of N shares of the cases")
    p.add_argument("--timeout", type=float, default=10.0, metavar="S", help="seconds to wait for each reply")
    p.add_argument("--case-timeout", type=float, default=60.0, metavar="S", help="seconds for a whole case")
    p.add_argument("--json", default="reports/report.jsonl", metavar="F", help="JSON Lines report (default %(default)s)")
    p.add_argument("--junit", metavar="F", help="also write JUnit XML")
    p.add_argument("--tap", metavar="F", help="also write TAP")
    p.add_argument("--max-fail", type=int, metavar="N", help="stop starting cases after N unexpected failures")
    p.add_argument("--write-baseline", metavar="F", help="write the failing cases as a skip file")
    p.add_argument("--strict-replies", action="store_true", help="validate every reply against its schema (slower)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("mutants", help="run the corpus against every mutant engine (tools/mutants); each must be caught")
    p.add_argument("--only", action="append", metavar="GLOB", help="only mutants whose name matches (repeatable)")
    p.add_argument("-j", "--jobs", type=int, default=2, metavar="N", help="mutants run in parallel")
    p.add_argument("--corpus", action="append", metavar="PATH", help="case files or directories (default: the whole corpus)")
    p.set_defaults(func=cmd_mutants)

    corpus = sub.add_parser("corpus", help="generate, lint and count the corpus").add_subparsers(dest="corpus_command", required=True)
    p = corpus.add_parser("generate", help="write generated cases (seeded random deals and play) under conformance/corpus/generated")
    p.add_argument("--variant", action="append", help="variant(s) to generate for (default: every variant)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hands", type=int, default=6, help="single-hand cases per option combination")
    p.add_argument("--games", type=int, default=1, help="whole-game cases per option combination")
    p.add_argument("--out", help="output folder (default: conformance/corpus/generated)")
    p.set_defaults(func=cmd_corpus_generate)
    p = corpus.add_parser("lint", help="schema, ids, tags and anchors, replay on the reference engine, clause coverage")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.set_defaults(func=cmd_corpus_lint)
    p = corpus.add_parser("stats", help="cases per variant, option and tag")
    p.set_defaults(func=cmd_corpus_stats)
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
    except EndlessGame as exc:
        err_console.print(f"error: {exc}")
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
