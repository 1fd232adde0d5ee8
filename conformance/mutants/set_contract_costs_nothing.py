"""A bidder who is set loses nothing (the bid's value is not taken off the score)."""

from conformance.mutants import change_table, row


def apply() -> None:
    def change(table):
        found = row(table, "contract-set")
        if found is not None:
            found["award"] = [a for a in found["award"] if a["to"] not in ("makers", "maker")]
    change_table(change)
