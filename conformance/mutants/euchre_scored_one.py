"""A euchre gives the defenders 1 point instead of 2."""

from conformance.mutants import rescore


def apply() -> None:
    rescore("euchre", {"to": "defenders", "points": 1})
