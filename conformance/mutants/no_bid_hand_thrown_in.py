"""A hand no one bids on is thrown in, though the table plays it at no-trumps."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        hand = table["hand"]
        if not steps(table, "auction"):
            return
        for i, step in enumerate(hand):
            if step["kind"] == "set-trumps":
                hand[i] = {"id": step["id"], "kind": "throw-in", "next-dealer": "left"}
    change_table(change)
