"""A lone march scores 2, like an ordinary march, instead of 4."""

from conformance.mutants import rescore


def apply() -> None:
    rescore("lone-march", {"to": "makers", "points": 2})
