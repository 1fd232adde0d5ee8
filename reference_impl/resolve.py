"""From a variant file to one complete rule table: parents merged, options applied.

A variant may ``extend`` another and override parts of it; options change values by
dotted path and add or replace clauses. The result, the *resolved table*, is what the
interpreter compiles and what the conformance runner sends to an engine, identified by the
SHA-256 of its canonical JSON.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .catalog import load_variant_file, variant_path
from .checks import semantic_problems
from .errors import Problem, SpecError
from .schemas import schema_problems, table_problems
from .yaml_source import Located, format_path

SCHEMA = "variant.schema.json"


@dataclass(frozen=True)
class ResolvedTable:
    """A complete rule table and where it came from."""

    id: str
    table: dict[str, Any]
    sha256: str
    selected: dict[str, Any]
    file: str


def canonical_json(data: Any) -> str:
    """The one JSON text of ``data`` that is hashed: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def table_hash(table: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(table).encode("utf-8")).hexdigest()


def _checked_file(path: Path) -> Located:
    located = load_variant_file(path)
    return _checked_located(located)


@lru_cache(maxsize=None)
def _checked_located(located: Located) -> Located:
    if not isinstance(located.data, dict):
        raise SpecError(located.problem((), "a variant table must be a mapping"))
    problems = schema_problems(located, SCHEMA, partial="extends" in located.data)
    expected = Path(located.file).stem
    if located.data.get("id") not in (None, expected) and not problems:
        problems.append(located.problem(("id",), f"id {located.data.get('id')!r} does not match the file name {expected!r}"))
    if problems:
        raise SpecError(problems)
    return located


def _merge_clauses(parent: list[dict], child: list[dict]) -> list[dict]:
    merged = [copy.deepcopy(c) for c in parent]
    index = {c["id"]: i for i, c in enumerate(merged)}
    for clause in child:
        if clause["id"] in index:
            merged[index[clause["id"]]] = copy.deepcopy(clause)
        else:
            index[clause["id"]] = len(merged)
            merged.append(copy.deepcopy(clause))
    return merged


def _merge(parent: Any, child: Any, key: str | None = None) -> Any:
    if key == "clauses":
        return _merge_clauses(parent, child)
    if key in ("options", "sources"):
        return {**copy.deepcopy(parent), **copy.deepcopy(child)}
    if isinstance(parent, dict) and isinstance(child, dict):
        merged = copy.deepcopy(parent)
        for k, v in child.items():
            merged[k] = _merge(parent[k], v, k) if k in parent else copy.deepcopy(v)
        return merged
    return copy.deepcopy(child)


MAX_EXTENDS = 16        # parents above a table: presets of presets, never a long chain


def _chain(path: Path) -> tuple[Located, ...]:
    """The checked files from ``path`` up through its ``extends`` parents."""
    chain: list[Located] = []
    seen: list[str] = []
    while True:
        located = _checked_file(path)
        data = located.data
        if data["id"] in seen:
            raise SpecError(located.problem(("extends",), "extends loop: " + " -> ".join(seen + [data["id"]])))
        chain.append(located)
        seen.append(data["id"])
        parent_id = data.get("extends")
        if parent_id is None:
            return tuple(chain)
        if len(chain) > MAX_EXTENDS:
            raise SpecError(chain[0].problem(("extends",), f"more than {MAX_EXTENDS} parents above this table "
                                             f"({' -> '.join(seen[:4])} -> ...)"))
        parent_path = path.parent / f"{parent_id}.yaml"
        if not parent_path.is_file():
            try:
                parent_path = variant_path(parent_id)
            except SpecError:
                raise SpecError(located.problem(("extends",), f"unknown parent variant {parent_id!r}")) from None
        path = parent_path


@lru_cache(maxsize=256)
def _merged_text(chain: tuple[Located, ...]) -> str:
    """The merged table of a chain (child first), as JSON text: cached, and copied cheaply."""
    merged = copy.deepcopy(chain[-1].data)
    for located in reversed(chain[:-1]):
        child = {k: v for k, v in located.data.items() if k != "extends"}
        merged = _merge(merged, child)
    return json.dumps(merged)


def _merged_table(path: Path) -> tuple[dict[str, Any], Located]:
    chain = _chain(path)
    return json.loads(_merged_text(chain)), chain[0]


def _set_path(table: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    node: Any = table
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        if isinstance(node, list):
            matches = [i for i, item in enumerate(node) if isinstance(item, dict) and item.get("id") == part]
            if not matches:
                raise KeyError(f"no element with id {part!r} at {'.'.join(parts[:depth]) or '$'}")
            if last:
                node[matches[0]] = copy.deepcopy(value)
                return
            node = node[matches[0]]
        elif isinstance(node, dict):
            if last:
                node[part] = copy.deepcopy(value)
                return
            if part not in node:
                raise KeyError(f"no key {part!r} at {'.'.join(parts[:depth]) or '$'}")
            node = node[part]
        else:
            raise KeyError(f"{'.'.join(parts[:depth])} is not a mapping or list")


def _add_clause(clauses: list[dict], clause: dict) -> None:
    clause = copy.deepcopy(clause)
    target = clause.get("replaces")      # kept: the site and the generator show what it replaced
    if target is not None:
        for i, existing in enumerate(clauses):
            if existing["id"] == target:
                clauses[i] = clause
                return
        raise KeyError(f"replaces unknown clause {target!r}")
    last_of_topic = max((i for i, c in enumerate(clauses) if c["topic"] == clause["topic"]), default=len(clauses) - 1)
    clauses.insert(last_of_topic + 1, clause)


def coerce_option_value(option: Mapping[str, Any], raw: Any) -> Any:
    """Match ``raw`` (possibly text from a command line) to one of the option's values."""
    values = [choice["value"] for choice in option["choices"]]
    for value in values:
        if raw == value and type(raw) is type(value):
            return value
    text = str(raw).strip().lower()
    for value in values:
        if str(value).lower() == text:
            return value
    raise ValueError(f"{raw!r} is not one of {values}")


def _apply_options(table: dict[str, Any], options: Mapping[str, Any], located: Located) -> dict[str, Any]:
    declared = table.get("options", {})
    problems = []
    for key, values in table.pop("option-choices", {}).items():
        if key not in declared:
            problems.append(located.problem(("option-choices", key), f"no option {key!r} to restrict"))
            continue
        kept = [c for c in declared[key]["choices"] if c["value"] in values]
        missing = [v for v in values if v not in [c["value"] for c in kept]]
        if missing:
            problems.append(located.problem(("option-choices", key), f"option {key!r} has no value {missing[0]!r}"))
        declared[key]["choices"] = kept
        if declared[key]["default"] not in values:
            declared[key]["default"] = values[0]
    for key, value in table.pop("option-defaults", {}).items():
        if key not in declared:
            problems.append(located.problem(("option-defaults", key), f"no option {key!r} to set a default for"))
        else:
            declared[key]["default"] = value
    for key in options:
        if key not in declared:
            problems.append(Problem(located.file, f"options.{key}", f"unknown option {key!r} (known: {', '.join(declared) or 'none'})"))
    if problems:
        raise SpecError(problems)
    selected: dict[str, Any] = {}
    for key, option in declared.items():
        raw = options.get(key, option["default"])
        try:
            value = coerce_option_value(option, raw)
        except ValueError as exc:
            where = ("options", key, "default") if key not in options else ("options", key)
            raise SpecError(located.problem(where, f"option {key}: {exc}")) from None
        selected[key] = value
        choice = next(c for c in option["choices"] if c["value"] == value)
        for index, (dotted, new_value) in enumerate(choice.get("sets", {}).items()):
            try:
                _set_path(table, dotted, new_value)
            except KeyError as exc:
                choice_index = option["choices"].index(choice)
                raise SpecError(located.problem(("options", key, "choices", choice_index, "sets", dotted),
                                                f"cannot set {dotted}: {exc.args[0]}")) from None
        for clause in choice.get("clauses", []):
            try:
                _add_clause(table.setdefault("clauses", []), clause)
            except KeyError as exc:
                choice_index = option["choices"].index(choice)
                raise SpecError(located.problem(("options", key, "choices", choice_index, "clauses"),
                                                f"clause {clause['id']}: {exc.args[0]}")) from None
    table["selected"] = selected
    return table


def resolve_file(path: str | Path, options: Mapping[str, Any] | None = None) -> ResolvedTable:
    """Resolve the variant table at ``path`` with the given option values."""
    path = Path(path)
    merged, located = _merged_table(path)
    table = _apply_options(merged, dict(options or {}), located)
    problems = [located.problem(p, m) for p, m in table_problems(table, SCHEMA)]
    if not problems:
        problems = [located.problem(p, m) for p, m in semantic_problems(table)]
    if problems:
        label = ", ".join(f"{k}={v}" for k, v in table["selected"].items() if options and k in options)
        if label:
            problems = [Problem(p.file, p.path, f"{p.message} (with options {label})", p.line) for p in problems]
        raise SpecError(problems)
    return ResolvedTable(table["id"], table, table_hash(table), dict(table["selected"]), str(path))


def resolve(variant: str, options: Mapping[str, Any] | None = None) -> ResolvedTable:
    """Resolve a variant by id (``euchre``) or by path to a YAML file."""
    if variant.endswith((".yaml", ".yml")) or "/" in variant:
        return resolve_file(Path(variant), options)
    return resolve_file(variant_path(variant), options)


__all__ = ["ResolvedTable", "resolve", "resolve_file", "coerce_option_value", "canonical_json",
           "table_hash", "format_path"]
