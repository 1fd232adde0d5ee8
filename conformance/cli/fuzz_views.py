"""``euchre-spec fuzz --views``: an engine's seat views tested as information flow
(:mod:`conformance.fuzzing.views`); each finding written as a case."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from reference_impl.resolve import resolve

from conformance.cli.engine_runs import chosen_options
from conformance.common.console import error, plain, say, warn
from conformance.runner.engine_process import EngineFailure, EngineProcess, engine_command
from conformance.fuzzing.options import describe
from conformance.fuzzing.views import ViewFuzzer, write_finding
from conformance.common.usage import EXIT_FAILED, EXIT_OK, UsageError, output_file, output_folder, parse_options


def cmd_fuzz_views(args: argparse.Namespace) -> int:
    try:
        argv = engine_command(args.engine)
    except ValueError as exc:
        raise UsageError(f"--engine: {exc}") from None
    out = output_folder(args.out, "--out")
    report = output_file(args.json, "the JSON report") if args.json else None
    table = resolve(args.variant, parse_options(args.option))
    hands = args.hands or 200
    plain(f"euchre-spec fuzz --views: {table.id} ({describe(chosen_options(table))}) on {' '.join(argv)}, seed {args.seed}, "
          f"{hands} hands")
    engine = EngineProcess(argv, args.timeout, start_timeout=args.start_timeout)
    try:
        fuzzer = ViewFuzzer(engine, table, seed=args.seed, hands=hands, max_findings=args.divergences,
                            compare_reference=not args.flow_only)
        try:
            result = fuzzer.run()
        except EngineFailure as exc:
            error(f"the engine failed: {exc}")
            return EXIT_FAILED
        engine_name = ((engine.hello or {}).get("engine") or {}).get("name", args.engine)
    finally:
        engine.stop()
    for note in result.notes:
        warn(note)
    plain(f"{result.hands:,} hands, {result.points:,} points tested: {result.leak_tests:,} worlds resampled "
          f"(no leak), {result.forgotten_tests:,} changed (nothing forgotten)"
          + (f"; {result.refused:,} hands left where the engine refused a request" if result.refused else ""))
    records: list[dict[str, Any]] = []
    for finding in result.findings:
        path = write_finding(out, finding, table, args.seed, engine_name)
        say(f"[red]{finding.kind}[/red]: {finding.message} (seat {finding.seat}, after {finding.point} actions; "
            f"field {finding.field}): expected {finding.expected!r}, engine {finding.actual!r}"
            + (f"; met at {result.times_found(finding):,} points in all" if result.times_found(finding) > 1 else ""))
        plain(f"  written as {path}")
        records.append({"kind": finding.kind, "seat": finding.seat, "point": finding.point, "field": finding.field,
                        "message": finding.message, "times_found": result.times_found(finding), "case": _shown(path)})
    if report:
        report.write_text(json.dumps({"variant": table.id, "options": table.selected, "seed": args.seed,
                                      "hands": result.hands, "points": result.points, "leak_tests": result.leak_tests,
                                      "forgotten_tests": result.forgotten_tests, "refused": result.refused, "findings": records,
                                      "notes": result.notes}, indent=1, default=str) + "\n", encoding="utf-8")
    if result.findings:
        return EXIT_FAILED
    if result.notes and not result.points:
        return EXIT_FAILED
    say("[green]no view leaked, hid or forgot anything[/green]")
    return EXIT_OK


def _shown(path: Path) -> str:
    """A case's path as the report keeps it: relative to the folder the run started in, when it is under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
