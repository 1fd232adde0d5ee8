"""The dealer never takes up the upcard (and so never discards) when it is ordered up."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "exchange"):
            step["takes"] = [t for t in step["takes"] if t["from"] != "upcard"]
    change_table(change)
