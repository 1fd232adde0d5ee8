"""A loner the rules force (the Canadian loner: the dealer's partner who orders up) is only
offered, and may be declined."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        for step in table["hand"]:
            step.pop("forced", None)
    change_table(change)
