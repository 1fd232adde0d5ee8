"""The dealer may never discard the upcard just taken, whatever the table says."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.may_discard_taken = False
    after_compile(change)
