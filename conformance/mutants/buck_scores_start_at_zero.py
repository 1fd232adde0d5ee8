"""Scores start at 0 whatever the table's starting score (Buck Euchre starts each player at
25 and counts down)."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        table["game"].pop("start-score", None)
    change_table(change)
