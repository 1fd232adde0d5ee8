"""The auction's winner may not name low no-trumps (`name:NL`), where the table lets him."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "name", effect="trumps"):
            step["names"] = [name for name in step["names"] if name != "NL"]
    change_table(change)
