"""A fold scores the number of tricks bid, not the bid's value: a pepper folded is worth 6
to the bidders instead of 12."""

from conformance.mutants import rescore


def apply() -> None:
    rescore("folded", {"to": "makers", "points": {"bid-tricks": 1}})
