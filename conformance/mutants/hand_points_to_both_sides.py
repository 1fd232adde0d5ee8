"""A euchre is scored for the defenders and, wrongly, 1 point for the makers too."""

from conformance.mutants import change_table, row


def apply() -> None:
    def change(table):
        euchre = row(table, "euchre")
        if euchre is not None:
            euchre["award"].append({"to": "makers", "points": 1})
    change_table(change)
