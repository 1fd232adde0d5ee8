"""An auction of a fixed number of rounds (`rounds: N`, Pepper bidding twice round) goes on
round and round until all but the high bidder have passed: a player who has not passed is
asked again after the last round."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "auction"):
            step.pop("rounds", None)
    change_table(change)
