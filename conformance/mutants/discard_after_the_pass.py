"""Where the receiver discards before the cards are passed, he takes them first and
discards after (give-order: discard-first read as receive-first)."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "give"):
            step.pop("give-order", None)
    change_table(change)
