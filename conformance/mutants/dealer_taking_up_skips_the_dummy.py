"""A dealer who takes up the upcard does not also take the dummy (only a non-dealer maker does)."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "exchange"):
            for take in step["takes"]:
                if take["from"] == "widow" and take["who"] == "maker" and not take.get("when"):
                    take["when"] = {"maker": "not-dealer"}
    change_table(change)
