"""A dealer who sits out (partner alone) still takes up the upcard and discards."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "exchange"):
            step["sitting-out-takes"] = True
    change_table(change)
