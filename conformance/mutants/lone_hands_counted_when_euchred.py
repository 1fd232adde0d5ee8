"""A player's lone hands are counted whether made or euchred."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        for counter in table.get("counters", []):
            for rule in counter["count"]:
                when = rule.get("when", {})
                if when.get("alone") is True:
                    when.pop("made", None)
    change_table(change)
