"""A player who can follow a plain suit led must follow, even where the table lets him trump
instead (Spoil Five's follow or trump)."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "play"):
            step.pop("may-trump", None)
    change_table(change)
