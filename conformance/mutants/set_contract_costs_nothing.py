"""A bidder who is set loses nothing (the bid's value is not taken off the score)."""

from conformance.mutants import rescore


def apply() -> None:
    rescore("contract-set", ("defenders", 0, 0, 10, None))
