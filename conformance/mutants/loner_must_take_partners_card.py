"""Railroading: the loner may not refuse the partner's card."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "give"):
            step["receiver-may-refuse"] = False
    change_table(change)
