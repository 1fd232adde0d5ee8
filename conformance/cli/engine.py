"""``euchre-spec engine``: the reference engine on stdin and stdout (the JSON Lines protocol)."""

from __future__ import annotations

import argparse


def cmd_engine(args: argparse.Namespace) -> int:
    from conformance.reference_engine import main as serve
    return serve()


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``engine`` command's options, and the function it runs."""
    p.set_defaults(func=cmd_engine)
