"""A declaration scores nothing: marking the king of trumps (or a king turned up) is accepted but adds no point."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "offer", effect="score"):
            step["points"] = 0
    change_table(change)
