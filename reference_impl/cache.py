"""A small on-disk cache of answers that only change when their inputs do.

Parsing and schema-checking the corpus's large generated cases takes seconds, and every
process that loads the corpus (a check, the lint, each pytest worker, each mutant run)
would pay it again. Answers are stored as JSON (never pickle) under a key that is the
SHA-256 of everything they depend on, so a changed file or schema simply misses the cache.
``EUCHRE_SPEC_CACHE=off`` turns it off; ``EUCHRE_SPEC_CACHE=DIR`` moves it.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def cache_dir(kind: str) -> Path | None:
    setting = os.environ.get("EUCHRE_SPEC_CACHE")
    if setting == "off":
        return None
    base = Path(setting) if setting else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "euchre-spec"
    return base / kind


def _path(kind: str, key: str) -> Path | None:
    folder = cache_dir(kind)
    return folder / key[:2] / f"{key}.json" if folder else None


def read(kind: str, key: str) -> Any | None:
    """The cached answer, or None."""
    path = _path(kind, key)
    if path is None:
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write(kind: str, key: str, value: Any) -> None:
    """Remember an answer (atomically: concurrent writers cannot leave half a file)."""
    path = _path(kind, key)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False) as handle:
            json.dump(value, handle, separators=(",", ":"))
        os.replace(handle.name, path)
    except (OSError, TypeError, ValueError):     # unwritable, or not JSON: simply not cached
        pass
