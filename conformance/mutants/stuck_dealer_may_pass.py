"""Stick the dealer is not enforced: the dealer may pass in the second round too."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "make-trumps"):
            step.pop("stuck", None)
    change_table(change)
