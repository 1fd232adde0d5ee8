"""The top trumps have no right to renege: a player holding only the five or jack of trumps or
the ace of hearts must play it to a lower trump led."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "play"):
            step.pop("privileged-trumps", None)
    change_table(change)
