"""An auction of a fixed number of rounds (`rounds: N`, Pepper bidding twice round) stops
after the first round: the high bid then wins, though players still in would speak again."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "auction"):
            if "rounds" in step:
                step["rounds"] = 1
    change_table(change)
