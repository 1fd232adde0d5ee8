"""The dealer may never discard the upcard just taken, whatever the table says."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "exchange"):
            step["may-discard-taken"] = False
    change_table(change)
