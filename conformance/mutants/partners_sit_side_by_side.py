"""Partners are taken to be neighbours (seats 0 and 1 against 2 and 3), not opposite."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        if rules.sides == "partnerships" and rules.n == 4:
            rules.units = ((0, 1), (2, 3))
            rules.unit_of = (0, 0, 1, 1)
    after_compile(change)
