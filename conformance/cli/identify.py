"""``euchre-spec identify``: the option values (house rules) an engine really plays, and what deviates.

It finds the values under which the engine agrees best with the reference, then fuzzes it
under them; each deviation that remains is shrunk and written as ``fuzz`` writes a
divergence (the helpers are :mod:`conformance.cli.fuzz`'s).
"""

from __future__ import annotations

import argparse
import json
from typing import Callable

from rich.table import Table

from reference_impl.resolve import resolve

from conformance.cli.engine_runs import (chosen_options, confirm_case, engine_arguments, engine_factory, json_report,
                                         option_flags, report_divergence, say_left)
from conformance.common.console import console, error, escape, plain, warn
from conformance.common.usage import (EXIT_FAILED, EXIT_OK, UsageError, output_folder, parse_options, positive_int, seconds,
                                      whole_number, write_atomically)
from conformance.runner.engine_process import EngineFailure, left_behind_total
from conformance.fuzzing.identify import Identification, Identifier
from conformance.fuzzing.lockstep import OverlappingEngine, SetupError
from conformance.fuzzing.options import describe, show


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``identify`` command's options, and the function it runs."""
    engine_arguments(p)
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


def cmd_identify(args: argparse.Namespace) -> int:
    argv, make_engine = engine_factory(args)
    out = output_folder(args.out, "--out")
    report = json_report(args.json, "identify")
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
        plain(f"{variant}: the engine is sent {describe(chosen_options(sent)) if chosen_options(sent) else 'the default options'}")
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
            record = report_divergence(
                deviation, args, variant, make_engine, reference_table, reference_table, engine_name, argv, out,
                f"euchre-spec identify --variant {variant}{option_flags(sent)} --seed {args.seed}", prefix="identify",
                written=written)
            deviations.append(confirm_case(record, argv, args))
        records.append({**result.to_json(), "deviations": deviations})
        if result.changed or result.deviations:
            failed = True
    left = say_left(left_before)
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
