"""``euchre-spec egn import | check | export``: EGN (Euchre Game Notation) records of real
games as conformance cases, checked against the rules, and games written as EGN.

Exit status as for ``validate``: 0 when every file was imported (or is sound, or was
written), 1 when any was refused (not valid EGN, rules or cards we cannot say, a defect),
2 for a wrong command line (a file that does not exist). See docs/egn.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from reference_impl import SpecError
from reference_impl.rules import Rules

from .console import error, escape, plain, say
from .usage import EXIT_FAILED, EXIT_OK, UsageError, existing_path, output_file, readable_file


def add_egn_commands(sub: argparse._SubParsersAction) -> None:
    egn = sub.add_parser("egn", help="EGN game records: import them as cases, check them, export games as EGN")
    actions = egn.add_subparsers(dest="egn_command", required=True, metavar="ACTION")

    p = actions.add_parser("import", help="one multi-hand case per EGN file (variant euchre, the record's rules)")
    p.add_argument("files", nargs="+", metavar="FILE", type=readable_file, help="EGN files (.egn, JSON)")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="folder for the cases (created if missing)")
    p.add_argument("--force", action="store_true", help="overwrite a case file that differs")
    p.set_defaults(func=cmd_import)

    p = actions.add_parser("check", help="replay each record through the reference; report its first impossible event")
    p.add_argument("files", nargs="+", metavar="FILE", type=readable_file, help="EGN files (.egn, JSON)")
    p.add_argument("--json", action="store_true", help="print one JSON object per game (JSON Lines), nothing else")
    p.add_argument("-o", "--out", metavar="DIR", help="also write each record as a case (a defective one expects an "
                                                      "engine to fail where the record does)")
    p.add_argument("--force", action="store_true", help="overwrite a case file that differs")
    p.set_defaults(func=cmd_check)

    p = actions.add_parser("export", help="write the game of each case as an EGN file")
    p.add_argument("paths", nargs="+", metavar="PATH", type=existing_path, help="case files or folders")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="folder for the .egn files (created if missing)")
    p.add_argument("--force", action="store_true", help="overwrite an EGN file that differs")
    p.set_defaults(func=cmd_export)


def _out_dir(text: str) -> Path:
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise UsageError(f"-o {text} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the folder {text}: {exc.strerror or exc}") from None
    return path


def _write(path: Path, text: str, force: bool) -> str | None:
    """Write ``text`` to ``path``; the reason it was not written, if it was not."""
    if path.exists() and not force:
        try:
            if path.read_text(encoding="utf-8") == text:
                return None
        except (OSError, UnicodeDecodeError):
            pass
        return f"{path} exists and differs (use --force to overwrite)"
    path.write_text(text, encoding="utf-8")
    return None


def _problems(exc: Any) -> list[str]:
    return [str(p) for p in exc.problems]


# -- import ----------------------------------------------------------------------------------------
def cmd_import(args: argparse.Namespace) -> int:
    from .egn.importer import build_case, dump_case, load_game
    from .egn.record import EgnError

    out = _out_dir(args.out)
    failed = 0
    for file in args.files:
        try:
            game = load_game(file)
        except EgnError as exc:
            failed += 1
            for line in _problems(exc):
                say(f"[red]{exc.kind}[/red] {escape(line)}")
            continue
        if game.defect is not None:
            failed += 1
            d = game.defect
            say(f"[red]defect[/red] {escape(str(file))}: {escape(d.where())}: {escape(d.kind)}: {escape(d.message)} "
                "(egn check -o DIR writes it as a case that expects the failure)")
            continue
        case = build_case(game, file)
        written = _write_case(out, case, file, args.force)
        if written is None:
            failed += 1
            continue
        steps = sum(len(h["steps"]) for h in case["hands"])
        say(f"[green]ok[/green]     {escape(str(file))} -> {escape(str(written))} ({len(case['hands'])} deal(s), "
            f"{steps} step(s))")
    plain(f"{len(args.files) - failed} of {len(args.files)} record(s) imported")
    return EXIT_FAILED if failed else EXIT_OK


def _write_case(out: Path, case: dict[str, Any], source: Path, force: bool) -> Path | None:
    """Write a case and read it back as the suite will (an unreadable case is our bug)."""
    from .cases import load_case_file, load_corpus_meta
    from .egn.importer import dump_case

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
    from .egn.check import check_file

    out = _out_dir(args.out) if args.out else None
    bad = 0
    for file in args.files:
        report = check_file(file)
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
            if out is not None:
                data["case"] = str(written) if written else None
            print(json.dumps(data, ensure_ascii=False), flush=True)
            continue
        label = "[green]ok[/green]     " if report.ok else f"[red]{escape(report.kind or '')}[/red]"
        where = f" {escape(report.where())}:" if report.where() else ""
        game = f" game {escape(repr(report.game))}:" if report.game else ""
        say(f"{label} {escape(str(file))}:{game}{where} {escape(report.message)}{escape(note)}"
            + (f" -> {escape(str(written))}" if written else ""))
    if not args.json:
        plain(f"{len(args.files) - bad} of {len(args.files)} record(s) sound")
    return EXIT_FAILED if bad else EXIT_OK


# -- export ----------------------------------------------------------------------------------------
def cmd_export(args: argparse.Namespace) -> int:
    from .cases import load_cases
    from .egn.export import ExportError, case_to_egn

    out = _out_dir(args.out)
    cases, problems = load_cases(list(args.paths))
    for problem in problems:
        error(str(problem))
    if not cases and not problems:
        raise UsageError("no case files found in " + ", ".join(map(str, args.paths)))
    failed = len(problems)
    for case in cases:
        try:
            record = case_to_egn(case)
        except (ExportError, SpecError) as exc:
            failed += 1
            say(f"[red]refused[/red] {escape(case.id)}: {escape(str(exc))}")
            continue
        path = out / f"{case.id}.egn"
        reason = _write(path, egn_text(record), args.force)
        if reason:
            failed += 1
            error(reason)
            continue
        say(f"[green]ok[/green]      {escape(case.id)} -> {escape(str(path))} ({len(record['deals'])} deal(s))")
    plain(f"{len(cases) - (failed - len(problems))} of {len(cases)} case(s) written as EGN")
    return EXIT_FAILED if failed else EXIT_OK


def egn_text(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"


# -- play --egn ------------------------------------------------------------------------------------
def check_exportable(rules: Rules) -> str | None:
    """Why EGN cannot say these rules (asked before a game is played), or None."""
    from .egn.ruleset import Unmappable, flags_for_rules

    try:
        flags_for_rules(rules)
    except Unmappable as exc:
        return str(exc)
    return None          # options EGN has no flag for are checked against the game once it is played


def write_played_game(rules: Rules, state: Any, path: str, seed: int) -> str | None:
    """Write a game the reference played (its event log) as an EGN file; or say why EGN
    cannot record it."""
    from .egn.export import ExportError, game_from_events, to_egn

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
