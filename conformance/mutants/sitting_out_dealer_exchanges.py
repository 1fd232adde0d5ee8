"""A dealer who sits out (partner alone) still takes up the upcard and discards."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.sitting_out_takes = True
    after_compile(change)
