"""A march (all five tricks with a partner) scores 1 instead of 2."""

from conformance.mutants import rescore


def apply() -> None:
    rescore("march", ("makers", 1, 0, 0, None))
