"""The dealer never takes up the upcard (and so never discards) when it is ordered up."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.takes = tuple(take for take in rules.takes if take.source != "upcard")
    after_compile(change)
