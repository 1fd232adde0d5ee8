"""A march (all five tricks with a partner) scores 1 instead of 2."""

from conformance.mutants import rescore


def apply() -> None:
    rescore("march", {"to": "makers", "points": 1})
