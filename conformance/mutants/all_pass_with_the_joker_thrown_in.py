"""The forced bid is never given: when all pass the hand is thrown in even though a player
holds the joker."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        table["hand"] = [step for step in table["hand"] if step["kind"] != "force-bid"]
    change_table(change)
