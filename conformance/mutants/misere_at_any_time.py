"""A bid allowed only after another (misère after a seven bid) may be made at any time."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "auction"):
            for bid in step["bids"]:
                bid.pop("after", None)
    change_table(change)
