"""``euchre-spec cache info|clear``: the on-disk cache of parsed and validated files."""

from __future__ import annotations

import argparse

from conformance.common.console import plain
from conformance.common.usage import EXIT_OK


def cmd_cache(args: argparse.Namespace) -> int:
    from reference_impl import cache
    root = cache.cache_root()
    if root is None:
        plain("the cache is off (EUCHRE_SPEC_CACHE=off)")
        return EXIT_OK
    if args.cache_command == "clear":
        removed = cache.clear()
        plain(f"removed {removed} cached answer(s) from {root}")
    else:
        entries, size = cache.usage()
        plain(f"{root}: {entries} cached answer(s), {size / 1e6:.1f} MB (at most {cache.MAX_TOTAL / 1e6:.0f} MB are kept)")
    return EXIT_OK


def add_arguments(cache: argparse.ArgumentParser) -> None:
    """The ``cache`` command's options, and the function it runs."""
    cache_sub = cache.add_subparsers(dest="cache_command", required=True, metavar="ACTION")
    cache_sub.add_parser("info", help="where the cache is and how large").set_defaults(func=cmd_cache)
    cache_sub.add_parser("clear", help="empty the cache").set_defaults(func=cmd_cache)
