"""Every suit ranks in the pack's order, ignoring the table's orders by colour (Spoil Five's
highest in red, lowest in black)."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        table["ranking"].pop("colour-orders", None)
    change_table(change)
