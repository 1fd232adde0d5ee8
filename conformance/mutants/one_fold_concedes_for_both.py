"""Where both defenders must agree to fold, the first to fold concedes for the side
(decision: unanimous read as the first accept ending the offer)."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "offer", effect="concede", decision="unanimous"):
            step["decision"] = "each-seat"
    change_table(change)
