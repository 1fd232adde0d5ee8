"""A player void in the suit led may discard instead of trumping, even where the table says
he must trump (overtrumping, if he does trump, still enforced)."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "play"):
            step["must"] = [rule for rule in step.get("must", []) if rule != "trump"]
    change_table(change)
