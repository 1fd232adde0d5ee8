"""The ``euchre-spec`` parser, built from the commands: each module of this package adds its own.

The order of :data:`COMMANDS` is the order ``euchre-spec --help`` lists them in. A new command
is a module here with an ``add_parser(sub)`` that registers it (its options, and its function
as ``func``), and a line in :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse

from reference_impl import SpecError

from conformance import PROTOCOL_SEMVER, __version__
from conformance.cli import (cache, check, corpus, egn, engine, fuzz, identify, mutants, play, protocol, report, schema,
                             validate, variants)

COMMANDS = (variants, validate, play, engine, protocol, schema, check, mutants, corpus, egn, fuzz, identify, report, cache)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="euchre-spec", description="The Euchre family's rules as data, a reference interpreter and a conformance "
        "suite for any Euchre engine.", epilog="Exit status: 0 all passed, 1 failures or invalid input, 2 usage, "
        "3 internal error, 130 interrupted. See docs/cli.md.")
    parser.add_argument("--version", action="version", version=version_text())
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def version_text() -> str:
    from conformance.cases import load_corpus_meta
    try:
        corpus = load_corpus_meta().version
    except SpecError:
        corpus = "unknown"
    return f"euchre-spec {__version__} (corpus {corpus}, protocol {PROTOCOL_SEMVER})"

