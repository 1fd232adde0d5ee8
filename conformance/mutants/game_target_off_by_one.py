"""The game is played to one point more than the table's target (11 instead of 10)."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.target += 1
    after_compile(change)
