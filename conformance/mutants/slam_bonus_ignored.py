"""Taking all ten tricks scores only the bid's value, without the 250 minimum."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.scoring_rows = tuple(row for row in rules.scoring_rows if row.id != "slam")
    after_compile(change)
