"""A claimed renege is not penalised: the hand scores as played."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        table["scoring"]["rows"] = [row for row in table["scoring"]["rows"] if "renege-claimed" not in row["when"]]
    change_table(change)
