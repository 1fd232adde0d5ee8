"""The pack's ranks play in the usual order (two to ace, numbered ranks such as 11-13 above
the ace) whatever order the table writes them in (issue 30's silent rank list)."""

from conformance.mutants import change_table

USUAL = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


def apply() -> None:
    def change(table):
        ranks = table["deck"]["ranks"]
        table["deck"]["ranks"] = sorted(ranks, key=lambda r: (USUAL.index(r) if r in USUAL else len(USUAL), r))
    change_table(change)
