"""A variant as the site sees it: its resolved table with default options, and what every
option choice changes (found by resolving the variant with that one choice and comparing).

Nothing here knows a variant by name: everything is read from the tables.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from reference_impl.catalog import variant_ids, variant_path
from reference_impl.errors import SpecError
from reference_impl.resolve import ResolvedTable, resolve

# Keys of a table that are not rule sections.
META_KEYS = ("id", "title", "summary", "extends", "sources", "clauses", "options", "selected", "notes",
             "option-defaults", "option-choices", "$schema")
PLACEHOLDER = re.compile(r"\{([a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*)\}")


class SiteError(Exception):
    """The site cannot be built from the data as it is (a missing value, a clashing anchor)."""


def lookup(table: Mapping[str, Any], dotted: str) -> Any:
    """The value at a dotted path; a segment inside a list picks the element with that ``id``."""
    node: Any = table
    for part in dotted.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list):
            matches = [item for item in node if isinstance(item, dict) and item.get("id") == part]
            if not matches:
                raise KeyError(dotted)
            node = matches[0]
        else:
            raise KeyError(dotted)
    return node


def plain_value(value: Any) -> str:
    """A table value in words, for clause text: lists joined, booleans as yes/no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(plain_value(v) for v in value)
    if value is None:
        return "none"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def fill(text: str, table: Mapping[str, Any], where: str = "") -> str:
    """Substitute ``{path.to.value}`` placeholders from the resolved table."""
    def value(match: re.Match) -> str:
        try:
            return plain_value(lookup(table, match.group(1)))
        except KeyError:
            raise SiteError(f"{where}: placeholder {{{match.group(1)}}} names no value of the table") from None
    return PLACEHOLDER.sub(value, text)


def compact(value: Any) -> str:
    """A short one-line rendering of a table value (YAML flow style, roughly)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "[" + ", ".join(compact(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {compact(v)}" for k, v in value.items()) + "}"
    return str(value)


def _is_id_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) and "id" in v for v in value)


def table_diff(before: Any, after: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """The differences between two tables, at the highest path where each one appears.

    Returns ``(dotted path, value before, value after)``; a value missing on one side is
    ``...`` (Ellipsis)."""
    if isinstance(before, dict) and isinstance(after, dict):
        skip = META_KEYS if not path else ()
        return _keyed_diff({k: v for k, v in before.items() if k not in skip},
                           {k: v for k, v in after.items() if k not in skip}, path)
    if _is_id_list(before) and _is_id_list(after):
        old = {item["id"]: item for item in before}
        new = {item["id"]: item for item in after}
        if set(old) != set(new) or list(old) == list(new):      # else: only the order changed
            return _keyed_diff(old, new, path)
    return [(path, before, after)] if before != after else []


def _keyed_diff(before: dict, after: dict, path: str) -> list[tuple[str, Any, Any]]:
    """The differences of two mappings (or id-keyed lists), key by key."""
    out: list[tuple[str, Any, Any]] = []
    for key in list(before) + [k for k in after if k not in before]:
        sub = f"{path}.{key}" if path else str(key)
        if key not in after:
            out.append((sub, before[key], ...))
        elif key not in before:
            out.append((sub, ..., after[key]))
        else:
            out += table_diff(before[key], after[key], sub)
    return out


@dataclass
class ChoiceView:
    """One value of an option, and what choosing it (alone) does to the default table."""

    option: str
    value: Any
    summary: str
    is_default: bool
    raw: dict[str, Any]
    table: dict[str, Any] | None = None
    error: str | None = None
    changes: list[tuple[str, Any, Any]] = field(default_factory=list)
    clauses_added: list[dict[str, Any]] = field(default_factory=list)
    clauses_removed: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class VariantView:
    id: str
    file: Path
    resolved: ResolvedTable
    raw_extends: str | None
    choices: dict[str, list[ChoiceView]]

    @property
    def table(self) -> dict[str, Any]:
        return self.resolved.table

    @property
    def options(self) -> dict[str, dict[str, Any]]:
        return self.table.get("options") or {}

    @property
    def clauses(self) -> list[dict[str, Any]]:
        return self.table.get("clauses") or []

    def clause_ids(self) -> set[str]:
        """Every clause id that any single option choice can bring into the table."""
        ids = {c["id"] for c in self.clauses}
        for views in self.choices.values():
            for view in views:
                ids |= {c["id"] for c in view.clauses_added}
                ids |= {c["id"] for c in view.raw.get("clauses", [])}
        return ids

    def clause_titles(self) -> dict[str, str]:
        """The title of every clause id that can appear on the page."""
        titles = {c["id"]: c["title"] for c in self.clauses}
        for views in self.choices.values():
            for view in views:
                for clause in view.clauses_added + list(view.raw.get("clauses", [])):
                    titles.setdefault(clause["id"], clause["title"])
        return titles

    def option_setting(self, path: str) -> list[tuple[str, ChoiceView]]:
        """The (option, choice) pairs whose choice changes ``path`` or something under or above it."""
        found = []
        for key, views in self.choices.items():
            for view in views:
                if any(p == path or p.startswith(path + ".") or path.startswith(p + ".") for p, _, _ in view.changes):
                    found.append((key, view))
        return found


def _view(variant_id: str) -> VariantView:
    resolved = resolve(variant_id)
    base = resolved.table
    base_ids = [c["id"] for c in base.get("clauses", [])]
    choices: dict[str, list[ChoiceView]] = {}
    for key, option in (base.get("options") or {}).items():
        views = []
        for choice in option.get("choices", []):
            is_default = choice["value"] == resolved.selected.get(key, option.get("default"))
            view = ChoiceView(key, choice["value"], choice.get("summary", ""), is_default, choice)
            if is_default:
                view.table = base
            else:
                try:
                    view.table = resolve(variant_id, {key: choice["value"]}).table
                except SpecError as exc:
                    view.error = "; ".join(p.message for p in exc.problems)
            if view.table is not None and not is_default:
                view.changes = table_diff(base, view.table)
                ids = {c["id"] for c in view.table.get("clauses", [])}
                view.clauses_added = [c for c in view.table.get("clauses", []) if c["id"] not in base_ids]
                view.clauses_removed = [c for c in base.get("clauses", []) if c["id"] not in ids]
            views.append(view)
        choices[key] = views
    raw = _raw_extends(variant_path(variant_id))
    return VariantView(variant_id, variant_path(variant_id), resolved, raw, choices)


def _raw_extends(path: Path) -> str | None:
    from reference_impl.catalog import load_variant_file
    data = load_variant_file(path).data
    return data.get("extends") if isinstance(data, dict) else None


@lru_cache(maxsize=64)
def _cached_view(variant_id: str, mtimes: tuple[float, ...]) -> VariantView:
    return _view(variant_id)


def variant_view(variant_id: str) -> VariantView:
    """The view of a variant (cached until a variant file changes)."""
    from reference_impl.catalog import variants_dir
    mtimes = tuple(p.stat().st_mtime_ns for p in sorted(variants_dir().glob("*.yaml")))
    return _cached_view(variant_id, mtimes)


def all_views() -> list[VariantView]:
    """Every variant, parents before the presets that extend them, then by id."""
    views = [variant_view(v) for v in variant_ids()]
    return sorted(views, key=lambda v: (v.raw_extends is not None, v.id))
