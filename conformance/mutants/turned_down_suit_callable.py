"""The turned-down suit may be named in the second round."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "make-trumps", action="call"):
            step["turned-down"] = "allowed"
    change_table(change)
