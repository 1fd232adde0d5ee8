"""``euchre-spec mutants``: the corpus run against every mutant engine (conformance/mutants); each must be caught."""

from __future__ import annotations

import argparse
import time

from rich.table import Table

from conformance.common.console import console, error, escape, plain
from conformance.common.usage import EXIT_FAILED, EXIT_INTERNAL, EXIT_OK, UsageError, existing_path, positive_int


def cmd_mutants(args: argparse.Namespace) -> int:
    import fnmatch

    from conformance.cases import load_cases, load_corpus_meta
    from conformance.corpus_tools.mutation import mutants, run_mutants

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


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``mutants`` command's options, and the function it runs."""
    p.add_argument("--only", action="append", metavar="GLOB", help="only mutants whose name matches (repeatable)")
    p.add_argument("-j", "--jobs", type=positive_int, default=2, metavar="N", help="mutants run in parallel")
    p.add_argument("--corpus", action="append", metavar="PATH", type=existing_path,
                   help="case files or folders (default: the whole corpus)")
    p.set_defaults(func=cmd_mutants)
