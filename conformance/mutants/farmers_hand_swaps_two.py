"""A swap with the kitty (the farmer's hand, going under) lays and takes two cards, not
three."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        for step in table["hand"]:
            if step.get("effect") == "swap-with-kitty":
                step["swap"]["count"] = 2
    change_table(change)
