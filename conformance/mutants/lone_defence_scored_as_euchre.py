"""A lone defence is scored like any euchre: the lone-defender rows are not applied."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.scoring_rows = tuple(row for row in rules.scoring_rows if row.defender_alone is not True)
    after_compile(change)
