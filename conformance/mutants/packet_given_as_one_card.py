"""A give of several cards passes one: the pepper bidder's partner passes a single card and
the bidder discards one (give-count ignored)."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "give"):
            step.pop("give-count", None)
    change_table(change)
