"""Four-trick tokens are counted but never turned in for a point."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        for counter in table.get("counters", []):
            counter.pop("convert", None)
    change_table(change)
