"""Where the card turned up makes trumps (set-trumps: upcard), the hand is played at
no-trumps instead."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "set-trumps", trumps="upcard"):
            step["trumps"] = "NT"
    change_table(change)
