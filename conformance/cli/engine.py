"""``euchre-spec engine``: the reference engine on stdin and stdout (the JSON Lines protocol)."""

from __future__ import annotations

import argparse


def cmd_engine(args: argparse.Namespace) -> int:
    from conformance.reference_engine import main as serve
    return serve()


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The ``engine`` command and its options."""
    p = sub.add_parser("engine", help="run the reference engine on stdin/stdout (the JSON Lines protocol)")
    p.set_defaults(func=cmd_engine)
