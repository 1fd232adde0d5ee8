"""Where the table allows reneging, the engine still refuses a card that does not follow suit."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "play"):
            step.pop("renege", None)
    change_table(change)
