"""Check variant tables completely: the file, the default resolution, and every option value.

A table can be valid with its defaults and broken under one option (a ``sets`` path that
does not exist, a clause that replaces nothing), so each option value is resolved once on
its own, on top of the defaults.
"""

from __future__ import annotations

from pathlib import Path

from .errors import Problem, SpecError
from .resolve import resolve_file


def variant_problems(path: str | Path) -> list[Problem]:
    """Every problem in the variant table at ``path`` (empty when it is sound)."""
    try:
        resolved = resolve_file(path)
    except SpecError as exc:
        return exc.problems
    problems: list[Problem] = []
    for key, option in resolved.table.get("options", {}).items():
        for choice in option["choices"]:
            if choice["value"] == option["default"]:
                continue
            try:
                resolve_file(path, {key: choice["value"]})
            except SpecError as exc:
                problems += [p for p in exc.problems if p not in problems]
    return problems
