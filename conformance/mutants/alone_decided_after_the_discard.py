"""The maker decides on going alone only after the dealer's discard, whatever the table says."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.alone_before_exchange = False
    after_compile(change)
