"""Mutations shared by the fuzz targets: of YAML text, of the data a YAML or JSON text holds,
and of raw bytes. Each takes a seeded ``random.Random`` so that a seed replays a campaign."""

from __future__ import annotations

import copy
import random
from typing import Any

import yaml

# Values that have broken a loader, a checker or an engine somewhere: wrong types, numbers
# JSON Schema and Python disagree on, text that is markup or not Unicode, keys that are not text.
JUNK: list[Any] = [None, True, False, 0, -1, 1, 4.0, 0.5, 2**63, 10**30, -10**30, float("inf"), "", " ", "x",
                   "[/bold]", "[red]", "^+(-+)*$", "\u0000", "\ud800", "JK", "9C", "play:JH", "2001-02-30",
                   "yes", "~", [], {}, [None], {"": None}, ["x"] * 3]
MAX_GROWTH = 4          # a data mutation may not make a document more than this many times longer
TEXT_INSERTS = ["[", "]", "{", "}", ":", ",", "&a ", "*a", "!!python/object:os.system ", "|", ">", "'", '"', "%", "@",
                "`", "\t", "\n  ", ": :", "\x00", "\x85", "\ufeff", "- ", "? ", "<<: *a", "1: 2\n", "~: x\n",
                "2001-01-01: x\n", "!!binary ", "0x1F", "1e999", ".nan", "&a [x]\n"]


def mutate_text(rng: random.Random, text: str) -> str:
    """A few textual edits: insertions of YAML syntax and odd characters, deletions,
    duplicated or swapped lines."""
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        lines = text.split("\n")
        if roll < 0.35 and text:
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(TEXT_INSERTS) + text[at:]
        elif roll < 0.55 and text:
            at = rng.randrange(len(text))
            text = text[:at] + text[at + rng.randint(1, 40):]
        elif roll < 0.75 and lines:
            i = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
            text = "\n".join(lines)
        elif roll < 0.9 and len(lines) > 1:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        else:
            text = text[: rng.randrange(len(text) + 1)]
    return text


def _paths(data: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, path + (index,))
    return found


def _parent(data: Any, path: tuple) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


def mutate_data(rng: random.Random, data: Any, siblings: list[Any] | None = None) -> Any:
    """A few edits of a JSON-like document: a value replaced by junk or by a value found
    elsewhere in it (or in a sibling document), a key deleted, an unknown key added, a list
    emptied, doubled or truncated, a number turned into a float."""
    data = copy.deepcopy(data)
    donors = _paths(data)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(data) if p]
        if not paths:
            return rng.choice(JUNK)
        path = rng.choice(paths)
        parent, key = _parent(data, path), path[-1]
        value = parent[key]
        roll = rng.random()
        if roll < 0.3:
            parent[key] = copy.deepcopy(rng.choice(JUNK))
        elif roll < 0.45:
            source = rng.choice(siblings) if siblings and rng.random() < 0.5 else data
            donor = rng.choice(_paths(source) if source is not data else donors)
            node = source
            try:
                for part in donor:
                    node = node[part]
            except (KeyError, IndexError, TypeError):
                continue
            parent[key] = copy.deepcopy(node)
        elif roll < 0.6 and isinstance(parent, dict):
            del parent[key]
        elif roll < 0.7 and isinstance(parent, dict):
            parent[rng.choice(["zz-unknown", "x_extra", "$schema", "id", "extends", "options"])] = copy.deepcopy(rng.choice(JUNK))
        elif roll < 0.8 and isinstance(value, list):
            parent[key] = rng.choice([[], value + value, value[: len(value) // 2], list(reversed(value))])
        elif roll < 0.9 and isinstance(value, int) and not isinstance(value, bool):
            parent[key] = rng.choice([float(value), -value, value + 1, value * 1000, str(value)])
        elif isinstance(value, str) and value:
            parent[key] = rng.choice([value.upper(), value + value, value[:-1], " " + value, value + "\u0301"])
    return data


def _written_size(data: Any, limit: int) -> int | None:
    """About how many characters ``data`` takes written out, or None past ``limit``."""
    total, pending = 0, [data]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            pending.extend(node.keys())
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
        total += len(node) if isinstance(node, str) else 4
        if total > limit:
            return None
    return total


def mutate_yaml(rng: random.Random, text: str, siblings: list[Any] | None = None) -> str:
    """A mutant of a YAML document: textual edits, or edits of its data written back."""
    if rng.random() < 0.5:
        return mutate_text(rng, text)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return mutate_text(rng, text)
    changed = mutate_data(rng, data, siblings)
    if _written_size(changed, max(MAX_GROWTH * len(text), 1 << 20)) is None:   # aliases would be written out in full
        return mutate_text(rng, text)
    try:
        written = yaml.safe_dump(changed, allow_unicode=True, sort_keys=False, width=160)
    except yaml.YAMLError:
        return mutate_text(rng, text)
    if len(written) > max(MAX_GROWTH * len(text), 1 << 20):      # aliases written out in full
        return mutate_text(rng, text)
    return written


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """Byte-level damage: flipped bytes, invalid UTF-8, a cut, an encoding change."""
    roll = rng.random()
    if roll < 0.25 and data:
        at = rng.randrange(len(data))
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
    if roll < 0.45:
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.choice([b"\xed\xa0\x80", b"\xff", b"\xc3", b"\x00", b"\xef\xbb\xbf", b"\\ud800"]) + data[at:]
    if roll < 0.6:
        return data[: rng.randrange(len(data) + 1)]
    if roll < 0.7:
        try:
            return data.decode("utf-8").encode(rng.choice(["utf-16", "utf-32", "latin-1"]), "replace")
        except UnicodeDecodeError:
            return data
    if roll < 0.85:
        return data + rng.choice([b"}", b"]", b" ", b",", b'{"x":1}', b"NaN"])
    return rng.choice([b"", b"{", b"null", b"[]", b"[" * 10_000, b"1" * 5000, b"Infinity", b'{"ok":true}'])
