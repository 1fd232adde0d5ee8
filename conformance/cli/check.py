"""``euchre-spec check``: run the corpus against an engine and write every report.

Everything a user can get wrong is found before the first case runs (the engine command,
the skip file, the report paths); the JSON Lines report is written case by case, so a run
that is interrupted or gives up early still leaves every result it had, with a footer that
says why it stopped.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Callable

from reference_impl.catalog import variant_path

from conformance import CORPUS_DIR
from conformance.cases import Case, Corpus, case_files, load_cases, load_corpus_meta
from conformance.corpus_tools.stamp import CorpusIdentity, corpus_digest, current_identity, file_digest
from conformance.reports.claim import claims_of_results, shortfall
from conformance.reports.claim import to_json as claim_json
from conformance.runner.skip_list import SkipList
from conformance.runner.run import CaseRun
from conformance.runner.selection import select
from conformance.common.usage import (EXIT_FAILED, EXIT_INTERNAL, EXIT_OK, UsageError, existing_path, invalidate,
                                      output_file, percent, positive_int, readable_file, seconds, shard, whole_number)
from conformance.common.console import error, plain, warn
from conformance.runner.containment import available as contained
from conformance.runner.engine_process import (EngineFailure, EngineProcess, engine_command, kill_all,
                                               left_behind_total)
from conformance.reports.jsonl import footer, header
from conformance.reports.reporters import (ConsoleSummary, JsonlReporter, JunitReporter, ProgressReporter, Reporter,
                                          RunEnd, Subscribers, TapReporter)
from conformance.runner.results import FAILING, CaseResult, Failure

def corpus_meta(paths: list[Path] | None) -> Corpus:
    """The version and tags of the corpus in use: a folder given with ``--corpus`` that
    holds its own ``corpus.yaml`` (an exported corpus) speaks for itself."""
    if paths and len(paths) == 1 and paths[0].is_dir() and (paths[0] / "corpus.yaml").is_file():
        return load_corpus_meta(paths[0])
    return load_corpus_meta()


def corpus_identity(paths: list[Path] | None) -> CorpusIdentity:
    """The corpus the report names: the built-in corpus (or an exported one given as the
    folder), by the digest of the case files it holds now; case files of one's own, by the
    digest of those files."""
    if paths and len(paths) == 1 and paths[0].is_dir() and (paths[0] / "corpus.yaml").is_file():
        return current_identity(paths[0])
    if not paths:
        return current_identity()
    digests = {_case_name(p): file_digest(p) for p in case_files(paths)}
    return CorpusIdentity(load_corpus_meta().version, corpus_digest(digests), len(digests))


def _case_name(path: Path) -> str:
    """A case file's name in a digest: its path in the built-in corpus, else under the
    working folder, else its file name (never a path of this machine)."""
    resolved = Path(path).resolve()
    for root in (CORPUS_DIR, Path.cwd()):
        try:
            return resolved.relative_to(Path(root).resolve()).as_posix()
        except ValueError:
            continue
    return resolved.name


def start_problem(argv: list[str]) -> str | None:
    """Why the engine's program cannot be started at all (missing, not executable), or None:
    said in one line before the run, whose cases then report the crash as usual."""
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        path = Path(program)
        if not path.exists():
            return f"{program}: no such file"
        if path.is_dir():
            return f"{program}: is a folder, not a program"
        if not os.access(path, os.X_OK):
            return f"{program}: not executable (chmod +x {program}, or give its interpreter: \"python3 {program}\")"
        return None
    if shutil.which(program) is None:
        return f"{program}: not found on PATH"
    return None


def generated_for_engine(argv: list[str], args: argparse.Namespace) -> list[tuple[Case, str]]:
    """``--generate N``: the engine's hello, read once, and N cases made for what it declares."""
    from conformance.corpus_tools.generated_check import generated_cases     # the generator: --generate alone needs it
    engine = EngineProcess(argv, timeout=args.timeout, start_timeout=args.start_timeout)
    try:
        hello = engine.start()
    except EngineFailure as exc:
        error(f"--generate: no cases generated: the engine did not answer hello ({exc})")
        return []
    finally:
        engine.stop()
    made = generated_cases(hello, args.generate, args.seed, Path(args.generated_out), args.variant)
    if not made:
        warn("--generate: the engine declares no variant of this suite" + (f" matching --variant {args.variant}" if args.variant else ""))
    return made


def subscribed(report_path: Path, report_header: Callable[[], dict], unreadable: list[CaseResult],
               junit: Path | None, tap: Path | None, summary: ConsoleSummary | None = None) -> Subscribers:
    """The reports a check writes, subscribed to its stream of results: the JSON Lines report
    (its header asked for when the first line is written), then JUnit and TAP when asked for,
    and the console's summary last, once the files it names are written."""
    reports: list[Reporter] = [JsonlReporter(report_path, report_header, unreadable)]
    reports += [JunitReporter(junit)] if junit else []
    reports += [TapReporter(tap)] if tap else []
    reports += [summary] if summary else []
    return Subscribers(reports)


def run_check(args: argparse.Namespace) -> int:
    try:
        argv = engine_command(args.engine)
    except ValueError as exc:
        raise UsageError(f"--engine: {exc}") from None
    skips = SkipList.read(args.skip) if args.skip else None
    report_path = output_file(args.json, "the report")
    junit = output_file(args.junit, "the JUnit file") if args.junit else None
    tap = output_file(args.tap, "the TAP file") if args.tap else None
    baseline = output_file(args.write_baseline, "the baseline") if args.write_baseline else None
    for stale in (report_path, junit, tap):   # the previous run's verdict must not outlive a run stopped early
        if stale is not None:
            invalidate(stale)

    paths = list(args.corpus) if args.corpus else None
    try:
        meta = corpus_meta(paths)
        identity = corpus_identity(paths)
        cases, problems = load_cases(paths, meta.tags)
    except KeyboardInterrupt as exc:
        _interrupted_before_start(exc, argv, report_path, junit, tap)
        raise
    if args.variant and not any(case.variant == args.variant for case in cases):
        variant_path(args.variant)      # an unknown variant: "unknown variant 'x' (known: ...)", as play says
    chosen = select(cases, args.variant, args.case, args.shard)
    generated = generated_for_engine(argv, args) if args.generate else []
    chosen += [case for case, _ in generated]
    broken = [CaseResult(Case.unreadable(p), "error", 0.0, Failure(where="case file", message=str(p))) for p in problems]
    if not chosen and not broken:
        raise UsageError("no case matches the selection")
    tables = {}
    for case in chosen:
        tables.setdefault(f"{case.variant} {json.dumps(case.table.selected, sort_keys=True)}",
                          {"variant": case.variant, "options": case.table.selected, "sha256": case.table.sha256})
    results: list[CaseResult] = list(broken)
    stopped: list[str] = []
    started = time.monotonic()
    left_before = left_behind_total()
    run: CaseRun | None = None

    def left() -> int | None:
        return left_behind_total() - left_before if contained() else None

    def report_header() -> dict:
        hello = run.hello if run is not None else {}
        return header(argv, hello or None, meta.version, tables, sys.argv[1:], identity.digest, identity.cases)

    def engine_name() -> str:
        hello = run.hello if run is not None else {}
        return (hello.get("engine") or {}).get("name", args.engine)

    # the pipeline: the selected cases -> the run (threads or worker processes) -> a stream of
    # results -> the reports subscribed to it; the run is read, never calls back
    summary = ConsoleSummary(report_path, len(chosen), len(broken), args.case_timeout, args.skip)
    outputs = subscribed(report_path, report_header, broken, junit, tap, summary)
    try:
        problem = start_problem(argv)
        if problem:
            error(f"the engine cannot start: {problem}; every case will crash")
        plain(f"euchre-spec check: {len(chosen)} case(s) of corpus {meta.version} on {' '.join(argv)} "
              f"with {args.jobs} engine(s)")
        run = CaseRun(chosen, argv, jobs=args.jobs, timeout=args.timeout, case_timeout=args.case_timeout,
                      skips=skips, max_fail=args.max_fail, strict_replies=args.strict_replies,
                      give_up_after=args.give_up_after, stopped=stopped, corpus_version=meta.version,
                      start_timeout=args.start_timeout)
        with ProgressReporter(len(chosen)) as progress:
            live = Subscribers([outputs, progress])
            for result in run:
                live.case(result)
                results.append(result)
    except KeyboardInterrupt as exc:
        if run is not None:
            run.close()                 # ends the worker processes and their engines now
        kill_all()
        stopped.append(f"interrupted{_by(exc)} after {len(results) - len(broken)} of {len(chosen)} case(s)")
        outputs.end(RunEnd(results, footer(results, time.monotonic() - started, 130, stopped, left()), engine_name(),
                           interrupted=stopped[-1]))
        raise
    failing = [r for r in results if r.outcome in FAILING and not (args.allow_fixed and r.outcome == "unexpected-pass")]
    ran = [r for r in results if r.outcome not in ("unsupported", "skipped")]
    if not ran:
        stopped.append("no case was run: the engine supports none of the selected cases")
    exit_code = EXIT_FAILED if failing or not ran else EXIT_OK
    found = claims_of_results(results)
    short = shortfall(found, args.require, args.fail_under)
    if short:
        exit_code = EXIT_FAILED
    if any(r.internal_error for r in results):
        exit_code = EXIT_INTERNAL        # a bug of ours touched these verdicts' reports: never a quiet pass
    if generated:
        failed = {r.case.id for r in results if r.outcome in FAILING}
        from conformance.corpus_tools.generated_check import write_failed
        written = write_failed(generated, failed, Path(args.generated_out))
        plain(f"generated for the engine's declaration: {len(generated)} case(s), {len(written)} failing"
              + (f", written to {args.generated_out} (run them again with --corpus {args.generated_out})" if written else ""))
    if baseline:
        count = SkipList.write(baseline, results)
        plain(f"baseline: {count} failing case(s) written to {baseline}")
    foot = footer(results, time.monotonic() - started, exit_code, stopped, left())
    foot["claim"] = {**claim_json(found), **({"shortfall": short} if short else {})}
    outputs.end(RunEnd(results, foot, engine_name()))      # the files, then the console's summary
    return exit_code


def _by(interrupt: KeyboardInterrupt) -> str:
    """" by SIGHUP" for a run ended by a signal (see cli.Interrupted), "" for Ctrl-C."""
    name = getattr(interrupt, "name", None)
    return f" by {name}" if isinstance(name, str) else ""


def _interrupted_before_start(interrupt: KeyboardInterrupt, argv: list[str], report_path: Path,
                              junit: Path | None, tap: Path | None) -> None:
    """A run stopped while the corpus was loading: every output says so (no case ran)."""
    reason = f"interrupted{_by(interrupt)} before any case ran"
    outputs = subscribed(report_path, lambda: header(argv, None, "unknown", {}, sys.argv[1:]), [], junit, tap)
    outputs.end(RunEnd([], footer([], 0.0, 130, [reason], None), "", interrupted=reason))


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``check`` command's options, and the function it runs."""
    # a short usage line: a mistake is one line of usage and one of error, whatever options check grows
    p.usage = "euchre-spec check --engine CMD [options] (euchre-spec check -h lists them)"
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
    p.set_defaults(func=run_check)
