"""A player trumping a trick that is already trumped may play a lower trump, even where the
table says he must overtrump."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "play"):
            step["must"] = [rule for rule in step.get("must", []) if rule != "overtrump"]
    change_table(change)
