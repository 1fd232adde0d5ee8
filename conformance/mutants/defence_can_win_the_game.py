"""A side may win by reaching the target on points for tricks taken against the bidders:
the game ignores what it takes to win (Five Hundred's made contract, Bid Euchre's made bid or
set)."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        table["game"].pop("win-requires", None)
    change_table(change)
