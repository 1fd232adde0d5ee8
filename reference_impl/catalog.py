"""Where the specification lives, and reading its files.

The specification is package data: the repository's ``spec/`` folder, installed as the
package ``reference_impl.spec`` and found with :mod:`importlib.resources`, so the tools work
the same from a wheel, an editable install or a checkout. It holds the JSON Schemas in
``schema/`` and one YAML rule table per variant in ``variants/``. Set ``EUCHRE_SPEC_ROOT``
to point the tools at another copy (a fork with extra variants).
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


def variant_ids() -> list[str]:
    """Ids of every variant table, sorted."""
    return sorted(p.stem for p in variants_dir().glob("*.yaml"))


def variant_path(variant_id: str) -> Path:
    path = variants_dir() / f"{variant_id}.yaml"
    if not path.is_file():
        known = ", ".join(variant_ids()) or "none"
        raise SpecError(Problem(str(path), "$", f"unknown variant {variant_id!r} (known: {known})"))
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
