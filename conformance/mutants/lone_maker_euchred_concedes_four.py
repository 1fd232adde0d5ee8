"""A euchred lone maker concedes 4 points instead of this table's (Leeds and Dwight's rule)."""

from conformance.mutants import change_table, row


def apply() -> None:
    def change(table):
        rows = table["scoring"]["rows"]
        euchre = row(table, "euchre")
        if euchre is None:
            return
        lone = row(table, "lone-euchre")
        if lone is not None:
            lone["award"] = [{"to": "defenders", "points": 4}]
        else:
            rows.insert(rows.index(euchre), {"id": "lone-euchre-four", "when": {**euchre["when"], "alone": True},
                                             "award": [{"to": "defenders", "points": 4}]})
    change_table(change)
