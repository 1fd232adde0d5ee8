"""One decision for the side is made by each seat instead: after the first defender says
play, his partner is asked too (decision: first-seat read as each-seat)."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "offer", effect="concede"):
            step.pop("decision", None)
    change_table(change)
