"""The open misère bidder's hand stays face down after the first lead: the other seats'
views keep it hidden (the engine misreads the table's visibility entry for it)."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table: dict) -> None:
        table["visibility"] = [entry for entry in table.get("visibility", []) if entry.get("of") != "maker"]
    change_table(change)
