"""A dealer offered the upcard may not leave it: optional takes are forced."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "exchange"):
            for take in step["takes"]:
                take.pop("optional", None)
    change_table(change)
