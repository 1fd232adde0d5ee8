"""A hand qualifies for a swap with the kitty with one card fewer than the table asks (two
nines and tens for a farmer's hand)."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        for step in table["hand"]:
            holds = step.get("eligible", {}).get("holds")
            if holds and "at-least" in holds:
                holds["at-least"] -= 1
    change_table(change)
