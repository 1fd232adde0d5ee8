"""After a throw-in the same player deals again instead of the deal passing left."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "throw-in"):
            step["next-dealer"] = "same"
    change_table(change)
