"""What ``fuzz``, ``fuzz --views`` and ``identify`` share: the engine's arguments, the output folder,
the JSON report written as the run goes, and a divergence shrunk, written as a case file and
confirmed as ``check`` runs it (it passes on the reference and fails on the engine)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Callable


from reference_impl.resolve import ResolvedTable

from conformance.common.clip import window_pair
from conformance.common.console import escape, plain, say, warn
from conformance.runner.containment import available as contained
from conformance.runner.engine_process import EngineFailure, engine_command, left_behind_total
from conformance.fuzzing.casefile import write_divergence
from conformance.fuzzing.divergence import Divergence
from conformance.fuzzing.lockstep import OverlappingEngine, SetupError
from conformance.fuzzing.options import show
from conformance.reports.console import left_sentence
from conformance.fuzzing.shrink import Shrunk, shrink_divergence
from conformance.common.usage import UsageError, output_file, write_atomically, seconds


def chosen_options(table: ResolvedTable) -> dict[str, Any]:
    """The options of a table that differ from their defaults."""
    options = table.table.get("options") or {}
    return {k: v for k, v in table.selected.items() if options.get(k, {}).get("default") != v}


def option_flags(table: ResolvedTable) -> str:
    return "".join(f" --option {k}={show(v)}" for k, v in sorted(chosen_options(table).items()))


def engine_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", required=True, metavar="CMD", help="the engine's command line (run without a shell), or 'reference'")
    p.add_argument("--timeout", type=seconds, default=10.0, metavar="S", help="seconds to wait for each reply")
    p.add_argument("--start-timeout", type=seconds, default=30.0, metavar="S",
                   help="seconds for the engine to start and answer hello (default %(default)s)")


def engine_factory(args: argparse.Namespace) -> tuple[list[str], Callable[[], OverlappingEngine]]:
    try:
        argv = engine_command(args.engine)
    except ValueError as exc:
        raise UsageError(f"--engine: {exc}") from None
    return argv, lambda: OverlappingEngine(argv, args.timeout, start_timeout=args.start_timeout)


def report_divergence(divergence: Divergence, args: argparse.Namespace, variant: str, make_engine: Callable,
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
    record: dict[str, Any] = {"found": divergence_json(divergence)}
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
            record["shrunk"] = {**divergence_json(final), "replays": shrunk.replays, "seconds": round(shrunk.seconds, 2)}
    from conformance.cases import load_corpus_meta
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


def confirm_case(record: dict[str, Any], argv: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """Run a written case on the reference and on the engine as ``check`` does; a case that
    does not pass on the one and fail on the other is removed (and the record says why)."""
    from conformance.cases import load_cases
    from conformance.runner.run import run_cases
    from conformance.runner.results import FAILING

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


def json_report(path: str | None, kind: str) -> Path | None:
    """The ``--json`` file, checked writable and at once replaced by a record that says the
    run has not ended: a run stopped before its end (Ctrl-C, SIGTERM, SIGKILL) leaves that,
    never the previous run's verdict."""
    if not path:
        return None
    report = output_file(path, "the JSON report")
    write_atomically(report, json.dumps({"type": kind, "complete": False,
                                         "note": "the run did not end: it was stopped or is still running"}) + "\n")
    return report


def say_left(before: int) -> int | None:
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


def divergence_json(divergence: Divergence) -> dict[str, Any]:
    return {"game": divergence.game, "count": divergence.count, "kind": [str(k) for k in divergence.kind],
            "where": divergence.position.describe(),
            "phase": divergence.phase, "clause": divergence.clause, "hands": divergence.hands, "steps": divergence.steps,
            "differences": [{"field": d.field, "reference": d.expected, "engine": d.actual} for d in divergence.differences],
            "script": divergence.script.to_json()}

