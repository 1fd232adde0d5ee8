"""The ``euchre-spec`` parser, built from the commands: each module of this package adds its own.

The order of :data:`COMMANDS` is the order ``euchre-spec --help`` lists them in. A new command
is a module here (named as the command) with an ``add_arguments(p)`` that adds its options to
its parser and sets its function as ``func``, and a line in :data:`COMMANDS`: its name and the
line ``--help`` shows for it.

A run imports the module of its own command alone: the others are listed by their line here,
so that ``euchre-spec validate`` does not pay for importing the runner, the fuzzer and the
reports that ``check`` and ``fuzz`` need (the test suite starts the command hundreds of times).
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any, Sequence


# name: the line ``euchre-spec --help`` shows for it; its arguments and function are in conformance.cli.<name>
COMMANDS: dict[str, str] = {
    "variants": "list the variants with a one-line summary; with NAME, its options explained",
    "validate": "check rule tables (files or folders) against the schema and the semantic rules",
    "play": "random legal self-play: a transcript of one game, or a summary of many",
    "engine": "run the reference engine on stdin/stdout (the JSON Lines protocol)",
    "protocol": "print the engine protocol page of this version (Markdown)",
    "schema": "print a JSON Schema (variant, case, protocol/<message>), for editors",
    "check": "check an engine against the corpus",
    "mutants": "run the corpus against every mutant engine (conformance/mutants); each must be caught",
    "corpus": "generate, lint, count and export the corpus",
    "egn": "EGN game records: import them as cases, check them, export games as EGN",
    "fuzz": "random games on an engine beside the reference; each kind of divergence shrunk to a case",
    "identify": "the option values (house rules) an engine really plays, and what deviates",
    "report": "compare reports (diff), draw a badge, write a Markdown summary, list an engine's history",
    "cache": "the on-disk cache of parsed and validated files",
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser; given the command line it is to parse, the arguments of the command
    that line names alone (its module alone imported), the others named with their line of
    help: all that a run can show of them (``--help`` lists them, a mistyped command names them)."""
    parser = argparse.ArgumentParser(
        prog="euchre-spec", description="The Euchre family's rules as data, a reference interpreter and a conformance "
        "suite for any Euchre engine.", epilog="Exit status: 0 all passed, 1 failures or invalid input, 2 usage, "
        "3 internal error, 130 interrupted. See docs/cli.md.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = None if argv is None else _command_in(argv)
    for name, help_line in COMMANDS.items():
        p = sub.add_parser(name, help=help_line)
        if argv is None or name == named:
            importlib.import_module(f"conformance.cli.{name}").add_arguments(p)
    return parser


def _command_in(argv: Sequence[str]) -> str | None:
    """The command a command line runs: its first word that is not an option (``euchre-spec``
    itself has no option that takes a value), or None when it has none."""
    return next((word for word in argv if not word.startswith("-")), None)


def version_text() -> str:
    from reference_impl import SpecError

    from conformance import PROTOCOL_SEMVER, __version__
    from conformance.cases import load_corpus_meta
    try:
        corpus = load_corpus_meta().version
    except SpecError:
        corpus = "unknown"
    return f"euchre-spec {__version__} (corpus {corpus}, protocol {PROTOCOL_SEMVER})"


class _Version(argparse._VersionAction):
    """``--version``, its text worked out when asked for: it reads the corpus's version from
    its file, which no other start of the command needs."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        self.version = version_text()
        super().__call__(parser, namespace, values, option_string)
