"""A variant as the site sees it: its resolved table with default options, compiled by the
reference interpreter (for the card orders), and what every option value changes (found by
resolving the variant with that value and comparing).

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
from reference_impl.options import satisfying, values_of
from reference_impl.patches import PLACEHOLDER
from reference_impl.resolve import ResolvedTable, resolve
from reference_impl.rules import Rules

from .notation import amount, in_halves

# Keys of a table that are not rule sections.
META_KEYS = ("id", "title", "summary", "family", "shape", "extends", "sources", "clauses", "options", "selected",
             "notes", "option-defaults", "option-choices", "drop-options", "remove", "terms", "$schema")


class SiteError(Exception):
    """The site cannot be built from the data as it is (a missing value, a clashing anchor)."""


def lookup(table: Mapping[str, Any], dotted: str) -> Any:
    """The value at a dotted path; a segment inside a list picks the element with that ``id``
    (or, for a list without ids, the element at that index)."""
    node: Any = table
    for part in dotted.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list):
            matches = [item for item in node if isinstance(item, dict) and item.get("id") == part]
            if matches:
                node = matches[0]
            elif part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise KeyError(dotted)
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


POINT_PATHS = ("game.target", "game.start-score", "game.lose-at")   # numbers of points a clause may cite


def fill(text: str, table: Mapping[str, Any], where: str = "") -> str:
    """Substitute ``{path.to.value}`` placeholders from the resolved table."""
    def value(match: re.Match) -> str:
        try:
            found = lookup(table, match.group(1))
            if match.group(1) in POINT_PATHS and isinstance(found, int) and in_halves(table):
                return amount(found, True)          # a target in half points, as players count it
            return plain_value(found)
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
    ``...`` (Ellipsis). Id-keyed lists are compared by id; a change of order alone is
    reported on the list."""
    if isinstance(before, dict) and isinstance(after, dict):
        skip = META_KEYS if not path else ()
        return _keyed_diff({k: v for k, v in before.items() if k not in skip},
                           {k: v for k, v in after.items() if k not in skip}, path)
    if _is_id_list(before) and _is_id_list(after):
        old = {item["id"]: item for item in before}
        new = {item["id"]: item for item in after}
        common_old = [k for k in old if k in new]
        common_new = [k for k in new if k in old]
        out = _keyed_diff(old, new, path)
        if common_old != common_new:
            out.append((path, [i["id"] for i in before], [i["id"] for i in after]))
        return out
    return [(path, before, after)] if before != after else []


def _keyed_diff(before: dict, after: dict, path: str) -> list[tuple[str, Any, Any]]:
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
    """One value of an option, and what choosing it does to the default table."""

    option: str
    value: Any
    summary: str
    is_default: bool
    raw: dict[str, Any]                                   # the choice as the table gives it (or the range)
    table: dict[str, Any] | None = None
    error: str | None = None
    also: dict[str, Any] = field(default_factory=dict)    # other options' values this value needs
    changes: list[tuple[str, Any, Any]] = field(default_factory=list)
    clauses_added: list[dict[str, Any]] = field(default_factory=list)
    clauses_removed: list[dict[str, Any]] = field(default_factory=list)

    @property
    def replaced(self) -> dict[str, str]:
        """Clause id added -> the base clause id it replaces."""
        return {c["id"]: c["replaces"] for c in self.clauses_added if c.get("replaces")}


@dataclass
class VariantView:
    id: str
    file: Path
    resolved: ResolvedTable
    raw_extends: str | None
    choices: dict[str, list[ChoiceView]]
    rules: Rules | None = None

    @property
    def table(self) -> dict[str, Any]:
        return self.resolved.table

    @property
    def title(self) -> str:
        return self.table["title"]

    @property
    def family(self) -> str:
        return str(self.table.get("family") or "Other games")

    @property
    def options(self) -> dict[str, dict[str, Any]]:
        return self.table.get("options") or {}

    @property
    def clauses(self) -> list[dict[str, Any]]:
        return self.table.get("clauses") or []

    def option_clauses(self) -> list[tuple[str, ChoiceView, dict[str, Any]]]:
        """Every clause an option value brings that the default table does not have, once:
        (option key, the value, the clause)."""
        base = {c["id"] for c in self.clauses}
        seen: set[str] = set()
        out = []
        for key, views in self.choices.items():
            for view in views:
                for clause in view.clauses_added:
                    if clause["id"] not in base and clause["id"] not in seen:
                        seen.add(clause["id"])
                        out.append((key, view, clause))
        return out

    def clause_ids(self) -> set[str]:
        """Every clause id that the default table or any single option value has."""
        return {c["id"] for c in self.clauses} | {c["id"] for _, _, c in self.option_clauses()}

    def clause_titles(self) -> dict[str, str]:
        titles = {c["id"]: c["title"] for c in self.clauses}
        for _, _, clause in self.option_clauses():
            titles.setdefault(clause["id"], clause["title"])
        return titles

    def option_setting(self, path: str) -> list[tuple[str, ChoiceView]]:
        """The (option, value) pairs whose value changes ``path`` or something under or above it."""
        found = []
        for key, views in self.choices.items():
            for view in views:
                if any(p == path or p.startswith(path + ".") or path.startswith(p + ".") for p, _, _ in view.changes):
                    found.append((key, view))
        return found


def _choice_views(variant_id: str, resolved: ResolvedTable) -> dict[str, list[ChoiceView]]:
    base = resolved.table
    base_ids = {c["id"] for c in base.get("clauses", [])}
    choices: dict[str, list[ChoiceView]] = {}
    for key, option in (base.get("options") or {}).items():
        default = resolved.selected.get(key, option.get("default"))
        named = {c["value"]: c for c in option.get("choices", [])}
        views = []
        for value in values_of(option):
            raw = named.get(value, option.get("range") or {})
            summary = raw.get("summary") or f"{option.get('title', key)}: {value}."
            view = ChoiceView(key, value, summary, value == default and type(value) is type(default), raw)
            if view.is_default:
                view.table = base
                views.append(view)
                continue
            wanted: dict[str, Any] = {key: value}
            reachable = True
            for other, requirement in (raw.get("requires") or {}).items():
                if other in (base.get("options") or {}):
                    from reference_impl.options import meets
                    if not meets(requirement, resolved.selected.get(other)):
                        try:
                            wanted[other] = view.also[other] = satisfying(base["options"][other], requirement)
                        except StopIteration:      # a preset restricts the other option: this value cannot be had here
                            reachable = False
            if not reachable:
                continue
            try:
                view.table = resolve(variant_id, wanted).table
                before = base if len(wanted) == 1 else resolve(variant_id, {k: v for k, v in wanted.items() if k != key}).table
            except SpecError as exc:
                view.error = "; ".join(p.message for p in exc.problems)
                views.append(view)
                continue
            view.changes = table_diff(before, view.table)
            ids = {c["id"] for c in view.table.get("clauses", [])}
            before_ids = {c["id"] for c in before.get("clauses", [])}
            view.clauses_added = [c for c in view.table.get("clauses", []) if c["id"] not in before_ids]
            view.clauses_removed = [c for c in before.get("clauses", []) if c["id"] not in ids and c["id"] in base_ids]
            views.append(view)
        choices[key] = views
    return choices


def _view(variant_id: str) -> VariantView:
    resolved = resolve(variant_id)
    try:
        rules = Rules(resolved)
    except SpecError:                   # the site still shows a table the interpreter refuses
        rules = None
    return VariantView(variant_id, variant_path(variant_id), resolved, _raw_extends(variant_path(variant_id)),
                       _choice_views(variant_id, resolved), rules)


def _raw_extends(path: Path) -> str | None:
    from reference_impl.catalog import load_variant_file
    data = load_variant_file(path).data
    return data.get("extends") if isinstance(data, dict) else None


@lru_cache(maxsize=64)
def _cached_view(variant_id: str, mtimes: tuple[float, ...]) -> VariantView:
    return _view(variant_id)


def variant_view(variant_id: str) -> VariantView:
    """The view of a variant (cached until a variant file changes)."""
    from reference_impl.catalog import variant_files
    mtimes = tuple(p.stat().st_mtime_ns for p in variant_files().values())
    return _cached_view(variant_id, mtimes)


def all_views() -> list[VariantView]:
    """Every variant: by family (in the order each family first appears among the tables
    that extend no other), parents before the presets that extend them, then by id."""
    views = [variant_view(v) for v in variant_ids()]
    base = base_variant(views)
    base_family = next((v.family for v in views if v.id == base), None)

    def auction(view: VariantView) -> bool:
        return any(step.get("kind") == "auction" for step in view.table.get("hand") or [])
    families: list[str] = []
    for view in sorted(views, key=lambda v: (v.family != base_family, auction(v), v.raw_extends is not None, v.id)):
        if view.family not in families:
            families.append(view.family)
    return sorted(views, key=lambda v: (families.index(v.family), v.id != base, v.raw_extends is not None, v.id))


def base_variant(views: list[VariantView]) -> str | None:
    """The base game: the table most others extend (the first by id on a tie)."""
    if not views:
        return None
    counts: dict[str, int] = {}
    for view in views:
        if view.raw_extends:
            counts[view.raw_extends] = counts.get(view.raw_extends, 0) + 1
    ids = [v.id for v in views]
    return max(sorted(ids), key=lambda v: counts.get(v, 0))
