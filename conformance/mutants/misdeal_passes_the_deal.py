"""After a misdeal is called the deal passes to the left instead of the same dealer dealing again."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "offer", effect="misdeal"):
            step["next-dealer"] = "left"
    change_table(change)
