"""``euchre-spec egn import | check | export``: EGN (Euchre Game Notation) records of real
games as conformance cases, checked against the rules, and games written as EGN.

Exit status as for ``validate``: 0 when every file was imported (or is sound, or was
written), 1 when any was refused (not valid EGN, rules or cards we cannot say, a defect),
2 for a wrong command line (a file that does not exist). See docs/egn-records.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from reference_impl import SpecError
from reference_impl.rules import Rules

from conformance.common.console import error, escape, plain, say
from conformance.common.usage import (EXIT_FAILED, EXIT_OK, UsageError, existing_path, output_file, output_folder,
                                      readable_file)


FORMS = ("json", "egnb", "expanded-egnb")
SUFFIXES = {"json": ".egn", "egnb": ".egnb", "expanded-egnb": ".expanded.egnb"}


def add_arguments(egn: argparse.ArgumentParser) -> None:
    actions = egn.add_subparsers(dest="egn_command", required=True, metavar="ACTION")
    files_help = "EGN records (.egn JSON, .egnb binary, any version from 1.0) or match files (.emn)"

    p = actions.add_parser("import", help="one multi-hand case per EGN game (variant euchre, the record's rules)")
    p.add_argument("files", nargs="+", metavar="FILE", type=readable_file, help=files_help)
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="folder for the cases (created if missing)")
    p.add_argument("--force", action="store_true", help="overwrite a case file that differs")
    p.set_defaults(func=cmd_import)

    p = actions.add_parser("check", help="replay each record through the reference; report its first impossible event")
    p.add_argument("files", nargs="+", metavar="FILE", type=readable_file, help=files_help)
    p.add_argument("--json", action="store_true", help="print one JSON object per game and per match (JSON Lines), "
                                                       "nothing else")
    p.add_argument("-o", "--out", metavar="DIR", help="also write each record as a case (a defective one expects an "
                                                      "engine to fail where the record does)")
    p.add_argument("--force", action="store_true", help="overwrite a case file that differs")
    p.set_defaults(func=cmd_check)

    p = actions.add_parser("export", help="write the game of each case as an EGN file, or all of them as one match")
    p.add_argument("paths", nargs="+", metavar="PATH", type=existing_path, help="case files or folders")
    p.add_argument("-o", "--out", metavar="DIR", help="folder for the EGN files, one per case (created if missing)")
    p.add_argument("--form", choices=FORMS, default="json",
                   help="json (.egn, the default), egnb (binary, condensed) or expanded-egnb (binary, expanded)")
    p.add_argument("--match", metavar="FILE", help="write one match file (.emn) holding every case's game, in order")
    p.add_argument("--title", metavar="TEXT", help="the match's title (with --match)")
    p.add_argument("--match-format", metavar="TYPE", default="FIXED_GAMES",
                   help="the match's format (with --match): FIXED_GAMES (default), BEST_OF_N, PROGRESSIVE, ...")
    p.add_argument("--force", action="store_true", help="overwrite a file that differs")
    p.set_defaults(func=cmd_export)


def _write(path: Path, text: str | bytes, force: bool) -> str | None:
    """Write ``text`` (or bytes) to ``path``; the reason it was not written, if it was not."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    if path.exists() and not force and path.stat().st_size:
        try:
            if path.read_bytes() == data:
                return None
        except OSError:
            pass
        return f"{path} exists and differs (use --force to overwrite)"
    path.write_bytes(data)
    return None


def _problems(exc: Any) -> list[str]:
    return [str(p) for p in exc.problems]


# -- import ----------------------------------------------------------------------------------------
def _reports(file: Path) -> tuple[Any, list[Any]]:
    """A file's match report (None for a single game) and its games' reports."""
    from conformance.egn.check import MatchReport, check_path

    report = check_path(file)
    if isinstance(report, MatchReport):
        return report, report.games
    return None, [report]


def _label(file: Path, report: Any) -> str:
    game = f" {escape(report.game)}" if report.case_name and report.game else ""
    return f"{escape(str(file))}{game}"


def _reading(report: Any) -> None:
    if report.reading:
        say(f"         [dim]read: {escape(report.reading)}[/dim]")
    for note in getattr(report, "redundant", []) or []:
        say(f"         [dim]1.0 fields: {escape(note)}[/dim]")


def _match_line(match: Any) -> None:
    label = "[green]ok[/green]     " if match.ok else f"[red]{escape(match.kind or '')}[/red]"
    say(f"{label} {escape(match.file)}: match {escape(repr(match.name))}: {escape(match.message)}")
    _reading(match)
    for note in match.notes:
        say(f"         [dim]note: {escape(note)}[/dim]")


def cmd_import(args: argparse.Namespace) -> int:
    out = output_folder(args.out, "-o")
    failed = total = refused_matches = 0
    for file in args.files:
        match, reports = _reports(file)
        for report in reports:
            total += 1
            game = report.replay
            if game is None:
                failed += 1
                say(f"[red]{escape(report.kind or '')}[/red] {_label(file, report)}: {escape(report.message)}")
                continue
            if game.defect is not None:
                failed += 1
                d = game.defect
                say(f"[red]defect[/red] {_label(file, report)}: {escape(d.where())}: {escape(d.kind)}: "
                    f"{escape(d.message)} (egn check -o DIR writes it as a case that expects the failure)")
                _reading(report)
                continue
            case = report.case()
            written = _write_case(out, case, file, args.force)
            if written is None:
                failed += 1
                continue
            steps = sum(len(h["steps"]) for h in case["hands"])
            say(f"[green]ok[/green]     {_label(file, report)} -> {escape(str(written))} ({len(case['hands'])} "
                f"deal(s), {steps} step(s))")
            _reading(report)
        if match is not None:
            refused_matches += not match.ok
            _match_line(match)
    plain(f"{total - failed} of {total} record(s) imported" + _matches_note(refused_matches))
    return EXIT_FAILED if failed or refused_matches else EXIT_OK


def _matches_note(refused: int) -> str:
    return f"; {refused} match file(s) refused" if refused else ""


def _write_case(out: Path, case: dict[str, Any], source: Path, force: bool) -> Path | None:
    """Write a case and read it back as the suite will (an unreadable case is our bug)."""
    from conformance.cases import load_case_file, load_corpus_meta
    from conformance.egn.importer import dump_case

    path = out / f"{case['id']}.yaml"
    reason = _write(path, dump_case(case, source), force)
    if reason:
        error(reason)
        return None
    _cases, problems = load_case_file(path, load_corpus_meta().tags)
    if problems:
        raise RuntimeError(f"the case written for {source} does not load: {problems[0]}")
    return path


# -- check -----------------------------------------------------------------------------------------
def cmd_check(args: argparse.Namespace) -> int:
    out = output_folder(args.out, "-o") if args.out else None
    bad = total = refused_matches = 0
    for file in args.files:
        match, reports = _reports(file)
        for report in reports:
            total += 1
            bad += not report.ok
            written = None
            note = ""
            if out is not None:
                case = report.case()
                if case is not None:
                    written = _write_case(out, case, file, args.force)
                    if written is None:
                        bad += report.ok
                elif report.replay is not None:
                    note = " (no case: no engine can be shown this defect)"
            if args.json:
                data = report.to_json()
                if match is not None:
                    data["match"] = match.name
                if out is not None:
                    data["case"] = str(written) if written else None
                print(json.dumps(data, ensure_ascii=False), flush=True)
                continue
            label = "[green]ok[/green]     " if report.ok else f"[red]{escape(report.kind or '')}[/red]"
            where = f" {escape(report.where())}:" if report.where() else ""
            game = f" game {escape(repr(report.game))}:" if report.game else ""
            say(f"{label} {escape(str(file))}:{game}{where} {escape(report.message)}{escape(note)}"
                + (f" -> {escape(str(written))}" if written else ""))
            _reading(report)
        if match is not None:
            refused_matches += not match.ok
            if args.json:
                print(json.dumps(match.to_json(), ensure_ascii=False), flush=True)
            else:
                _match_line(match)
    if not args.json:
        plain(f"{total - bad} of {total} record(s) sound" + _matches_note(refused_matches))
    return EXIT_FAILED if bad or refused_matches else EXIT_OK


# -- export ----------------------------------------------------------------------------------------
def cmd_export(args: argparse.Namespace) -> int:
    from conformance.cases import load_cases
    from conformance.egn.binary import BinaryError, encode
    from conformance.egn.export import ExportError, case_to_egn

    if (args.out is None) == (args.match is None):
        raise UsageError("egn export needs -o DIR (one EGN file per case) or --match FILE (one match file), not both")
    if args.match is not None and args.form != "json":
        raise UsageError("--match writes a JSON match file (.emn): leave out --form")
    if args.match is None and (args.title is not None or args.match_format != "FIXED_GAMES"):
        raise UsageError("--title and --match-format go with --match")
    from conformance.egn.match import FORMATS
    if args.match_format not in FORMATS:
        raise UsageError(f"--match-format {args.match_format}: one of {', '.join(FORMATS)}")
    match_path = egn_output(args.match) if args.match is not None else None
    out = output_folder(args.out, "-o") if args.out is not None else None
    cases, problems = load_cases(list(args.paths))
    for problem in problems:
        error(str(problem))
    if not cases and not problems:
        raise UsageError("no case files found in " + ", ".join(map(str, args.paths)))
    failed = len(problems)
    records = []
    for case in cases:
        try:
            record = case_to_egn(case)
        except (ExportError, SpecError) as exc:
            failed += 1
            say(f"[red]refused[/red] {escape(case.id)}: {escape(str(exc))}")
            continue
        if out is None:
            records.append(record)
            continue
        path = out / f"{case.id}{SUFFIXES[args.form]}"
        try:
            data: str | bytes = egn_text(record) if args.form == "json" else \
                encode(record, "condensed" if args.form == "egnb" else "expanded")
        except BinaryError as exc:
            failed += 1
            say(f"[red]refused[/red] {escape(case.id)}: {escape(str(exc))}")
            continue
        reason = _write(path, data, args.force)
        if reason:
            failed += 1
            error(reason)
            continue
        say(f"[green]ok[/green]      {escape(case.id)} -> {escape(str(path))} ({len(record['deals'])} deal(s))")
    if match_path is not None:
        from conformance.egn.match import build_match

        if records:
            match = build_match(records, title=args.title, fmt=args.match_format)
            reason = _write(match_path, egn_text(match), args.force)
            if reason:
                error(reason)
                return EXIT_FAILED
            say(f"[green]ok[/green]      match of {len(records)} game(s) -> {escape(str(match_path))}")
        plain(f"{len(records)} of {len(cases)} case(s) written as games of the match")
        return EXIT_FAILED if failed or not records else EXIT_OK
    plain(f"{len(cases) - (failed - len(problems))} of {len(cases)} case(s) written as EGN")
    return EXIT_FAILED if failed else EXIT_OK


def egn_text(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"


# -- play --egn ------------------------------------------------------------------------------------
def check_exportable(rules: Rules) -> str | None:
    """Why EGN cannot say these rules (asked before a game is played), or None."""
    from conformance.egn.ruleset import Unmappable, flags_for_rules

    try:
        flags_for_rules(rules)
    except Unmappable as exc:
        return str(exc)
    return None          # options EGN has no flag for are checked against the game once it is played


def write_played_game(rules: Rules, state: Any, path: str, seed: int) -> str | None:
    """Write a game the reference played (its event log) as an EGN file; or say why EGN
    cannot record it."""
    from conformance.egn.export import ExportError, game_from_events, to_egn

    dealer, hands = game_from_events(rules, state.events)
    try:
        record = to_egn(rules, dealer, hands, title=f"euchre-spec play {rules.id}, seed {seed}",
                        game_id=f"euchre-spec-play-{rules.id}-{seed}",
                        description="A game of random legal play by the euchre-spec reference interpreter.")
    except ExportError as exc:
        return str(exc)
    Path(path).write_text(egn_text(record), encoding="utf-8")
    return None


def egn_output(path: str) -> Path:
    return output_file(path, "the EGN file")
