"""The option space of a variant: the values each option may take, read off its table.

An option lists ``choices`` (each with a ``value``) and, for an integer such as a game
target, may also take a ``range`` with a few ``examples`` (given in the range or beside
it); the values worth trying are then the choices, the examples, the least value of the
range (a game to 1 point is a game of one hand) and the default. Hypotheses are full assignments of option values; each one that resolves
is a rule table the reference can play.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from reference_impl import SpecError
from reference_impl.resolve import ResolvedTable, resolve


def option_values(table: dict[str, Any]) -> dict[str, list[Any]]:
    """Each option's values to consider, the default first."""
    found: dict[str, list[Any]] = {}
    for key, option in (table.get("options") or {}).items():
        values: list[Any] = []
        if "default" in option:
            values.append(option["default"])
        for choice in option.get("choices") or []:
            if isinstance(choice, dict) and "value" in choice:
                values.append(choice["value"])
        span = option.get("range")
        if isinstance(span, dict):      # an integer option: its examples (beside the range or in it) and its least value
            values += list(option.get("examples") or span.get("examples") or [])
            if isinstance(span.get("minimum"), int):
                values.append(span["minimum"])
        unique: list[Any] = []
        for value in values:
            if not any(value == v and type(value) is type(v) for v in unique):
                unique.append(value)
        found[key] = unique
    return found


def defaults(table: dict[str, Any]) -> dict[str, Any]:
    return {key: option.get("default") for key, option in (table.get("options") or {}).items()}


@lru_cache(maxsize=4096)
def _resolve(variant: str, options_json: str) -> ResolvedTable | None:
    try:
        return resolve(variant, json.loads(options_json))
    except SpecError:
        return None


def table_for(variant: str, options: dict[str, Any]) -> ResolvedTable | None:
    """The resolved table of ``variant`` under ``options``, or None for a combination the
    variant refuses."""
    return _resolve(variant, json.dumps(options, sort_keys=True))


def show(value: Any) -> str:
    """An option value as it is written on the command line (``true``, ``7``, ``joker``)."""
    return value if isinstance(value, str) else json.dumps(value)


def describe(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={show(v)}" for k, v in sorted(options.items())) or "default options"
