"""The other players are never asked whether they stay in or drop out: everyone plays
every hand."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        table["hand"] = [step for step in table["hand"] if not (step["kind"] == "offer" and step.get("accept") == "drop")]
    change_table(change)
