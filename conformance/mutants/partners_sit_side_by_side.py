"""Partners are taken to be neighbours (seats 0 and 1 against 2 and 3), not opposite."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        players = table["players"]
        if players.get("teams") and players["count"] == 4:
            players["teams"] = [[0, 1], [2, 3]]
    change_table(change)
