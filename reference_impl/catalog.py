"""Where the specification lives, and reading its files.

The specification is package data: the repository's ``spec/`` folder, installed as the
package ``reference_impl.spec`` and found with :mod:`importlib.resources`, so the tools work
the same from a wheel, an editable install or a checkout. It holds the JSON Schemas in
``schema/`` and one YAML rule table per variant in ``variants/``. Set ``EUCHRE_SPEC_ROOT``
to point the tools at another copy of the whole folder (a fork).

A variant author needs no copy: ``EUCHRE_SPEC_PATH`` lists folders of tables of one's own
(separated like ``PATH``), searched before the built-in tables, so a house rule in
``~/euchre/kitchen.yaml`` that extends the built-in ``euchre`` is a variant like any other
for every command, the runner and the rules site.
"""

from __future__ import annotations

import importlib.resources
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import Problem, SpecError
from .yaml_source import Located, load_file


def spec_root() -> Path:
    """The ``spec/`` directory in use."""
    override = os.environ.get("EUCHRE_SPEC_ROOT")
    if override:
        return Path(override)
    try:
        return Path(str(importlib.resources.files("reference_impl.spec")))
    except ModuleNotFoundError:     # a source tree on sys.path that was never installed
        return Path(__file__).resolve().parent.parent / "spec"


def variants_dir() -> Path:
    return spec_root() / "variants"


def schema_dir() -> Path:
    return spec_root() / "schema"


def variant_dirs() -> list[Path]:
    """The folders searched for tables, first match winning: ``EUCHRE_SPEC_PATH``'s, then
    the specification's own ``variants/``."""
    extra = [Path(part) for part in os.environ.get("EUCHRE_SPEC_PATH", "").split(os.pathsep) if part]
    return extra + [variants_dir()]


def variant_files() -> dict[str, Path]:
    """Every table by id (a table of ``EUCHRE_SPEC_PATH`` hides a built-in one of that id)."""
    found: dict[str, Path] = {}
    for folder in variant_dirs():
        for path in sorted(folder.glob("*.yaml")):
            found.setdefault(path.stem, path)
    return found


def variant_ids() -> list[str]:
    """Ids of every variant table, sorted."""
    return sorted(variant_files())


def variant_path(variant_id: str) -> Path:
    path = variant_files().get(variant_id)
    if path is None:
        known = ", ".join(variant_ids()) or "none"
        searched = ", ".join(str(folder) for folder in variant_dirs())
        raise SpecError(Problem(f"{variant_id}.yaml", "$", f"unknown variant {variant_id!r} (known: {known}; searched {searched})"))
    return path


@lru_cache(maxsize=None)
def _load_variant_cached(path: str, mtime_ns: int) -> Located:
    return load_file(path)


def load_variant_file(path: str | Path) -> Located:
    """The parsed table at ``path``, cached until the file changes."""
    path = Path(path)
    try:
        mtime = path.stat().st_mtime_ns
    except OSError as exc:
        raise SpecError(Problem(str(path), "$", f"cannot read file: {exc}")) from None
    return _load_variant_cached(str(path), mtime)


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict[str, Any]:
    """A JSON Schema from ``spec/schema`` by file name (``variant.schema.json``)."""
    path = schema_dir() / name
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)
