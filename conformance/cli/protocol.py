"""``euchre-spec protocol``: the engine protocol page of this version (Markdown), or where it is."""

from __future__ import annotations

import argparse
import sys

from conformance.common.console import plain
from conformance.common.usage import EXIT_OK


def cmd_protocol(args: argparse.Namespace) -> int:
    from reference_impl.catalog import spec_root
    page = spec_root() / "protocol.md"
    if args.path:
        plain(str(page))
    else:
        sys.stdout.write(page.read_text(encoding="utf-8"))
    return EXIT_OK


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``protocol`` command's options, and the function it runs."""
    p.add_argument("--path", action="store_true", help="print where the page is installed instead")
    p.set_defaults(func=cmd_protocol)
