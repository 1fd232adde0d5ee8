"""The fast break is read from the last trick backwards: the makers taking the first three
tricks and losing the last two scores nothing."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        for row in table["scoring"]["rows"]:
            sequence = row.get("when", {}).get("trick-sequence")
            if sequence:
                row["when"]["trick-sequence"] = sequence[::-1]
    change_table(change)
