"""Where the lowest score wins (counting down), players reaching the target together are
settled by the highest score instead."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        rule = table["game"].get("simultaneous")
        if rule and "lowest" in rule:
            table["game"]["simultaneous"] = ["highest" if r == "lowest" else r for r in rule]
    change_table(change)
