"""``euchre-spec validate PATH...``: rule tables checked against the schema and the semantic rules."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

from reference_impl.validate import variant_problems

from conformance.common.console import escape, plain, say
from conformance.common.usage import EXIT_FAILED, EXIT_OK, UsageError, existing_path


def _yaml_files(paths: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.y*ml") if p.suffix in (".yaml", ".yml"))
        else:
            files.append(path)
    return files


def cmd_validate(args: argparse.Namespace) -> int:
    files = _yaml_files(args.paths)
    if not files:
        raise UsageError("no YAML files found in " + ", ".join(map(str, args.paths)))
    failed = 0
    for path in files:
        problems = variant_problems(path)
        if problems:
            failed += 1
            for problem in problems:
                say(f"[red]error[/red] {escape(str(problem))}")
        else:
            say(f"[green]ok[/green]    {escape(str(path))}")
    plain(f"{len(files) - failed} of {len(files)} file(s) valid")
    return EXIT_FAILED if failed else EXIT_OK


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``validate`` command's options, and the function it runs."""
    p.add_argument("paths", nargs="+", metavar="PATH", type=existing_path)
    p.set_defaults(func=cmd_validate)
