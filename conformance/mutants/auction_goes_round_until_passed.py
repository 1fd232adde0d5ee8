"""An auction of one turn each (Hasenpfeffer, Bid Euchre) goes round until all but the high
bidder have passed: a player may raise again after others bid."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "auction", turns="once"):
            step["turns"] = "until-passed"
    change_table(change)
