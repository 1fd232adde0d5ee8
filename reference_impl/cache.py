"""A small on-disk cache of answers that only change when their inputs do.

Parsing and schema-checking the corpus's large generated cases takes seconds, and every
process that loads the corpus (a check, the lint, each pytest worker, each mutant run)
would pay it again. Answers are stored as JSON (never pickle) under a key that is the
SHA-256 of everything they depend on, so a changed file or schema simply misses the cache.

Where and how much (docs/cli.md, "The cache"): ``$XDG_CACHE_HOME/euchre-spec`` (by default
``~/.cache/euchre-spec``); ``EUCHRE_SPEC_CACHE=DIR`` moves it and ``EUCHRE_SPEC_CACHE=off``
turns it off. No entry larger than :data:`MAX_ENTRY` is written, and when the cache grows
past :data:`MAX_TOTAL` the oldest entries are removed until it is back under three quarters
of it. ``euchre-spec cache clear`` empties it.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .quick_json import quick_dumps

MAX_ENTRY = 4 * 1024 * 1024          # bytes: an answer larger than this is not worth keeping
MAX_TOTAL = 200 * 1024 * 1024        # bytes: the whole cache
PRUNE_EVERY = 200                    # writes before a process's size check, on average


def source_digest(*folders: Path) -> str:
    """The SHA-256 of the code in ``folders`` (packages: their source, and their compiled
    modules where installed so), each file named by its path from its package's parent: a
    key that holds it is never read by another version of the code, even in a checkout
    whose version number has not moved."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".so", ".pyd") and "__pycache__" not in path.parts:
                digest.update(path.relative_to(folder.parent).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def cache_root() -> Path | None:
    """The cache folder, or None when the cache is off."""
    folder = _root_text()
    return Path(folder) if folder is not None else None


_roots: dict[tuple[str | None, str | None, str | None], str | None] = {}


def _root_text() -> str | None:
    """:func:`cache_root` as text, worked out once for each setting of the variables it
    reads: a warm corpus load asks for it twice a file, and pathlib made that a tenth of
    the load."""
    environ = os.environ
    setting = (environ.get("EUCHRE_SPEC_CACHE"), environ.get("XDG_CACHE_HOME"), environ.get("HOME"))
    if setting not in _roots:
        chosen, xdg, _ = setting
        if chosen == "off":
            _roots[setting] = None
        elif chosen:
            _roots[setting] = str(Path(chosen))
        else:
            _roots[setting] = str(Path(xdg or Path.home() / ".cache") / "euchre-spec")
    return _roots[setting]


def cache_dir(kind: str) -> Path | None:
    root = _root_text()
    return Path(root, kind) if root is not None else None


def _path(kind: str, key: str) -> str | None:
    root = _root_text()
    return os.path.join(root, kind, key[:2], f"{key}.json") if root is not None else None


def has(kind: str, key: str) -> bool:
    """Whether an answer is cached (without reading it)."""
    path = _path(kind, key)
    return path is not None and os.path.isfile(path)


def read(kind: str, key: str) -> Any | None:
    """The cached answer, or None."""
    path = _path(kind, key)
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            return json.loads(handle.read())
    except (OSError, ValueError):
        return None


def write(kind: str, key: str, value: Any, plain: bool = False) -> None:
    """Remember an answer (atomically: concurrent writers cannot leave half a file).
    ``plain``: the caller knows ``value`` holds no float (orjson, a tenth of the cost of
    json here, writes NaN as null; whatever else it cannot write, json does)."""
    where = _path(kind, key)
    if where is None:
        return
    path = Path(where)
    text = quick_dumps(value) if plain else None
    if text is None:
        try:
            text = json.dumps(value, separators=(",", ":")).encode("utf-8")
        except (TypeError, ValueError):          # not JSON: simply not cached
            return
    if len(text) > MAX_ENTRY:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False) as handle:
            handle.write(text)
        os.replace(handle.name, path)
    except OSError:                              # unwritable: simply not cached
        return
    global _written_since_prune, _pruned
    _written_since_prune += len(text)
    if _written_since_prune > MAX_TOTAL // 4 or (not _pruned and random.random() < 1 / PRUNE_EVERY):
        _written_since_prune, _pruned = 0, True
        prune()


# Pruning walks the whole cache, so a process does it at most once by chance (amortised over
# the many short processes that write little) and again after every quarter of MAX_TOTAL it
# writes itself; a first run that fills the cache would otherwise walk it every 200 writes.
_written_since_prune = 0
_pruned = False


def _entries(root: Path) -> list[tuple[float, int, Path]]:
    found = []
    for path in root.rglob("*.json"):
        try:
            stat = path.stat()
        except OSError:
            continue
        found.append((stat.st_mtime, stat.st_size, path))
    return found


def usage() -> tuple[int, int]:
    """The number of entries and their total size in bytes."""
    root = cache_root()
    if root is None or not root.is_dir():
        return 0, 0
    entries = _entries(root)
    return len(entries), sum(size for _, size, _ in entries)


def prune(limit: int | None = None) -> int:
    """Remove the oldest entries while the cache is larger than ``limit`` (MAX_TOTAL), down
    to three quarters of it; returns the number removed."""
    limit = MAX_TOTAL if limit is None else limit
    root = cache_root()
    if root is None or not root.is_dir():
        return 0
    entries = sorted(_entries(root))
    total = sum(size for _, size, _ in entries)
    if total <= limit:
        return 0
    removed = 0
    for _, size, path in entries:
        if total <= limit * 3 // 4:
            break
        try:
            path.unlink()
        except OSError:
            continue
        total -= size
        removed += 1
    return removed


def clear() -> int:
    """Empty the cache; returns the number of entries removed."""
    root = cache_root()
    if root is None or not root.is_dir():
        return 0
    count = len(_entries(root))
    shutil.rmtree(root, ignore_errors=True)
    return count
