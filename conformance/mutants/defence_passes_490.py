"""Points for tricks taken against the bidders carry a side past the limit (490 in Five
Hundred)."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        for row in table["scoring"]["rows"]:
            for award in row["award"]:
                if isinstance(award["points"], dict):
                    award["points"].pop("total-at-most", None)
    change_table(change)
