"""``euchre-spec report``: what engine authors ask of a conformance suite's results, read from
the JSON Lines reports ``check --json`` writes.

- ``report diff OLD NEW``: what regressed, what was fixed and what is new between two runs,
  by case and by the rule clause of the failing step; exit status 1 when something regressed
  (or a new case fails), for CI.
- ``report badge REPORT``: an SVG badge (passed of run), drawn here, offline.
- ``report summary REPORT``: Markdown for a CI job summary (``>> $GITHUB_STEP_SUMMARY``): the
  engine, its version and declared rules, the counts, the failures by clause, the known
  failures with their bug-tracker links.
- ``report history DIR``: an engine's reports kept by version (``DIR/<version>.jsonl``, as
  tools/publish_reports.py keeps them), oldest first, each compared with the one before.

A baseline (skip file) entry may carry a bug-tracker link in its reason
(``case-id  # https://github.com/owner/engine/issues/12``); ``check --skip`` copies the reason
into the report's ``expected-fail`` line, where these commands and the compliance page find
the link.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from conformance.common.console import error, plain
from conformance.common.usage import EXIT_FAILED, EXIT_OK, UsageError, output_file, readable_file, write_atomically
from conformance.reports.diff import Diff, by_clause, diff_markdown, diff_runs
from conformance.reports.runs import Run, read_run
from conformance.reports.badge import badge_for
from conformance.reports.history import history_rows
from conformance.reports.summary import summary_markdown


def add_arguments(report: argparse.ArgumentParser) -> None:
    """The ``report`` command's actions: ``diff | badge | summary | history``."""
    actions = report.add_subparsers(dest="report_command", required=True, metavar="ACTION")

    p = actions.add_parser("diff", help="regressed, fixed and new cases between two reports, by clause; exit 1 on a regression")
    p.add_argument("old", type=readable_file, metavar="OLD")
    p.add_argument("new", type=readable_file, metavar="NEW")
    p.add_argument("--markdown", metavar="FILE", help="also write the difference as Markdown ('-' for standard output)")
    p.add_argument("--allow-new-failures", action="store_true", help="a new case that fails is not a regression")
    p.set_defaults(func=cmd_diff)

    p = actions.add_parser("badge", help="an SVG badge of a report (cases passed of those run), drawn offline")
    p.add_argument("report", type=readable_file, metavar="REPORT")
    p.add_argument("-o", "--out", required=True, metavar="FILE", help="the SVG file to write")
    p.add_argument("--label", default="euchre-spec", help="the badge's left text (default %(default)s)")
    p.set_defaults(func=cmd_badge)

    p = actions.add_parser("summary", help="Markdown for a CI job summary: engine, declared rules, counts, failures by rule")
    p.add_argument("report", type=readable_file, metavar="REPORT")
    p.add_argument("-o", "--out", metavar="FILE", help="append to FILE (e.g. $GITHUB_STEP_SUMMARY) instead of printing")
    p.set_defaults(func=cmd_summary)

    p = actions.add_parser("history", help="an engine's reports kept by version (DIR/*.jsonl), each against the one before")
    p.add_argument("folder", metavar="DIR")
    p.set_defaults(func=cmd_history)


def cmd_diff(args: argparse.Namespace) -> int:
    old, new = read_run(args.old), read_run(args.new)
    result = diff_runs(old, new)
    print_diff(old, new, result)
    if args.markdown:
        text = diff_markdown(old, new, result) + "\n"
        if args.markdown == "-":
            plain(text)
        else:
            Path(output_file(args.markdown, "the Markdown difference")).write_text(text, encoding="utf-8")
    failed = result.regressed or (result.new_failing() and not args.allow_new_failures)
    if failed:
        error(f"{len(result.regressed)} case(s) regressed" + ("" if args.allow_new_failures else
                                                             f", {len(result.new_failing())} new case(s) fail"))
        return EXIT_FAILED
    return EXIT_OK


def cmd_badge(args: argparse.Namespace) -> int:
    out = Path(output_file(args.out, "the badge"))
    write_atomically(out, badge_for(read_run(args.report), args.label))
    plain(f"badge written to {out}")
    return EXIT_OK


def cmd_summary(args: argparse.Namespace) -> int:
    text = summary_markdown(read_run(args.report)) + "\n"
    if args.out:
        with open(output_file(args.out, "the summary"), "a", encoding="utf-8") as handle:
            handle.write(text)
    else:
        plain(text)
    return EXIT_OK


def cmd_history(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder of reports")
    rows = history_rows(folder)
    if not rows:
        raise UsageError(f"{folder} holds no report (*.jsonl)")
    for row in rows:
        change = (f"  regressed {row['regressed']}, fixed {row['fixed']}, new {row['new']}" if "regressed" in row else "")
        plain(f"{row['version']}  {row['started'] or '?'}  {row['passed']}/{row['ran']} passed, {row['failing']} failing"
              f"{change}  ({row['file']})")
    return EXIT_OK


def print_diff(old: Run, new: Run, result: Diff) -> None:
    plain(f"{new.name}: {old.path} ({old.version}) → {new.path} ({new.version})")
    for title, changes in (("regressed", result.regressed), ("fixed", result.fixed), ("new", result.new),
                           ("no longer run", result.removed), ("failing differently", result.changed)):
        plain(f"{title}: {len(changes)}")
        for clause, members in by_clause(changes):
            if title in ("new", "no longer run"):
                continue
            plain(f"  {clause} ({len(members)})")
            for change in members:
                plain(f"    {change.case}: {change.before or '-'} -> {change.after or '-'}  {change.words}")
    failing_new = result.new_failing()
    if failing_new:
        plain("new and failing:")
        for change in failing_new:
            plain(f"    {change.case}: {change.clause}: {change.words}")
