"""Changing a rule table by dotted path: what options and ``extends`` do to tables.

A path such as ``hand.going-alone.forced`` walks mappings by key and lists by the ``id`` of
their elements (``scoring.rows.lone-march.award.0.points``: a list without ids by index).
Four operations, each recorded with where it came from so that a problem it causes can be
reported at the line that asked for it: set a value, insert elements into a list before or
after an element, move an element within its list, remove a key or an element.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

VALUE = "$value"
# A table value named in prose (a clause's text) by its dotted path: ``{game.target}``.
PLACEHOLDER = re.compile(r"\{([a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*)\}")


class PatchError(Exception):
    """A path that does not lead anywhere, or an operation that cannot be done there."""


def split(dotted: str) -> tuple[str, ...]:
    return tuple(dotted.split("."))


def _index(node: list, part: str, where: tuple[str, ...]) -> int:
    for i, item in enumerate(node):
        if isinstance(item, dict) and item.get("id") == part:
            return i
    if part.isdigit() and int(part) < len(node) and not any(isinstance(item, dict) and "id" in item for item in node):
        return int(part)
    raise PatchError(f"no element with id {part!r} in {'.'.join(where) or 'the table'}")


def _step(node: Any, part: str, where: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return node[_index(node, part, where)]
    if isinstance(node, dict):
        if part not in node:
            raise PatchError(f"no key {part!r} in {'.'.join(where) or 'the table'}")
        return node[part]
    raise PatchError(f"{'.'.join(where)} is neither a mapping nor a list")


def get(table: Any, path: tuple[str, ...]) -> Any:
    node = table
    for depth, part in enumerate(path):
        node = _step(node, part, path[:depth])
    return node


def exists(table: Any, path: tuple[str, ...]) -> bool:
    try:
        get(table, path)
    except PatchError:
        return False
    return True


def substitute(value: Any, number: Any) -> Any:
    """``value`` with every ``$value`` replaced by ``number`` (a range option's choice)."""
    if value == VALUE:
        return number
    if isinstance(value, dict):
        return {k: substitute(v, number) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, number) for v in value]
    return value


def set_value(table: dict, path: tuple[str, ...], value: Any) -> None:
    """Set ``path`` to ``value``: the last key may be new; everything before it must exist."""
    parent = get(table, path[:-1])
    last = path[-1]
    if isinstance(parent, list):
        parent[_index(parent, last, path[:-1])] = copy.deepcopy(value)
    elif isinstance(parent, dict):
        parent[last] = copy.deepcopy(value)
    else:
        raise PatchError(f"{'.'.join(path[:-1])} is neither a mapping nor a list")


def remove(table: dict, path: tuple[str, ...]) -> None:
    parent = get(table, path[:-1])
    last = path[-1]
    if isinstance(parent, list):
        del parent[_index(parent, last, path[:-1])]
    elif isinstance(parent, dict) and last in parent:
        del parent[last]
    else:
        raise PatchError(f"no key {last!r} in {'.'.join(path[:-1]) or 'the table'}")


def _anchor(items: list, before: str | None, after: str | None, where: tuple[str, ...]) -> int:
    if before is not None:
        return _index(items, before, where)
    if after is not None:
        return _index(items, after, where) + 1
    return len(items)


def insert(table: dict, into: tuple[str, ...], elements: list, before: str | None = None, after: str | None = None) -> None:
    """Insert elements into a list; a list the table leaves out (say `counters`) starts empty,
    so an option can add the first counter without the table naming an empty one."""
    parent = get(table, into[:-1])
    if isinstance(parent, dict) and into[-1] not in parent and before is None and after is None:
        parent[into[-1]] = []
    items = get(table, into)
    if not isinstance(items, list):
        raise PatchError(f"{'.'.join(into)} is not a list")
    ids = {item.get("id") for item in items if isinstance(item, dict)}
    for element in elements:
        if isinstance(element, dict) and element.get("id") in ids:
            raise PatchError(f"{'.'.join(into)} already has an element with id {element['id']!r}")
    at = _anchor(items, before, after, into)
    items[at:at] = copy.deepcopy(elements)


def move(table: dict, item: tuple[str, ...], before: str | None = None, after: str | None = None) -> None:
    items = get(table, item[:-1])
    if not isinstance(items, list):
        raise PatchError(f"{'.'.join(item[:-1])} is not a list")
    element = items.pop(_index(items, item[-1], item[:-1]))
    try:
        at = _anchor(items, before, after, item[:-1])
    except PatchError:
        items.append(element)
        raise
    items.insert(at, element)


@dataclass
class Origin:
    """Who asked for a change: an option's choice (or a table's ``remove``), and where in
    which file that request is written."""

    label: str                      # "option alone-declared=after-exchange", "extends: remove"
    file: str
    path: tuple[Any, ...]           # JSON path of the request in that file
    line: int | None = None


@dataclass
class Ledger:
    """The paths each change touched, to blame a later problem on the change behind it."""

    entries: list[tuple[tuple[str, ...], Origin]] = field(default_factory=list)

    def record(self, path: tuple[str, ...], origin: Origin) -> None:
        self.entries.append((path, origin))

    def blame(self, problem_path: tuple[Any, ...]) -> Origin | None:
        """The change whose path is the longest prefix of (or lies under) ``problem_path``."""
        text = tuple(str(p) for p in problem_path)
        best: tuple[int, Origin] | None = None
        for path, origin in self.entries:
            if text[:len(path)] == path or path[:len(text)] == text:
                score = min(len(path), len(text))
                if best is None or score >= best[0]:
                    best = (score, origin)
        return best[1] if best else None
