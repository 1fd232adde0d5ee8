"""A player who follows suit need not head the trick, even where the table says he must."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "play"):
            step["must"] = [rule for rule in step.get("must", []) if rule != "head"]
    change_table(change)
