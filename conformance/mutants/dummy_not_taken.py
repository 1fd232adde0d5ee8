"""The dummy (widow) is never picked up: no take from the widow, so no discards for it."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "exchange"):
            step["takes"] = [t for t in step["takes"] if t["from"] != "widow"]
    change_table(change)
