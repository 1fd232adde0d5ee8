"""Going alone does not give up the dummy: the lone bidder still takes it."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "exchange"):
            for take in step["takes"]:
                if take.get("when", {}).get("alone") is False:
                    del take["when"]["alone"]
    change_table(change)
