"""``euchre-spec schema [NAME]``: a JSON Schema (variant, case, protocol/<message>), for editors."""

from __future__ import annotations

import argparse
import sys

from conformance.common.console import plain
from conformance.common.usage import EXIT_OK, UsageError


def schema_names() -> list[str]:
    """The schemas `euchre-spec schema` knows: `variant`, `case`, `protocol/<message>`."""
    from reference_impl.catalog import schema_dir
    root = schema_dir()
    return sorted(str(p.relative_to(root)).removesuffix(".schema.json") for p in root.rglob("*.schema.json"))


def cmd_schema(args: argparse.Namespace) -> int:
    """Print a JSON Schema, so that an editor can check a table or case written outside a
    checkout (the `# yaml-language-server: $schema=` line needs a file or URL)."""
    from reference_impl.catalog import schema_dir
    names = schema_names()
    if args.name not in names:
        raise UsageError(f"unknown schema {args.name!r} (known: {', '.join(names)})")
    path = schema_dir() / f"{args.name}.schema.json"
    if args.path:
        plain(str(path))
    else:
        sys.stdout.write(path.read_text(encoding="utf-8"))
    return EXIT_OK


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``schema`` command's options, and the function it runs."""
    p.add_argument("name", nargs="?", default="variant", metavar="NAME", help="variant (default), case or protocol/<message>")
    p.add_argument("--path", action="store_true", help="print where the schema is installed instead")
    p.set_defaults(func=cmd_schema)
