"""The dummy (widow) is never picked up: no take from the widow, so no discards for it."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.takes = tuple(take for take in rules.takes if take.source != "widow")
    after_compile(change)
