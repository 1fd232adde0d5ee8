"""The super euchre option is ignored: makers held to no trick concede an ordinary 2."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.scoring_rows = tuple(row for row in rules.scoring_rows if row.id != "super-euchre")
    after_compile(change)
