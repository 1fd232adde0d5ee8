"""Of two identical cards (copies of a doubled pack) played to one trick, the later wins."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        if table["deck"].get("copies", 1) > 1:
            table["ranking"]["equal-cards"] = "last-played"
    change_table(change)
