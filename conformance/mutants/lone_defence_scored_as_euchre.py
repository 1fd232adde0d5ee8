"""A lone defence is scored like any euchre: the lone-defender rows are not applied."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        table["scoring"]["rows"] = [r for r in table["scoring"]["rows"] if r["when"].get("defender-alone") is not True]
    change_table(change)
