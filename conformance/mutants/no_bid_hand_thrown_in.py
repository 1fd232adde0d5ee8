"""A hand no one bids on is thrown in, though the table plays it at no-trumps."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        if rules.procedure == "auction":
            rules.all_pass = "redeal"
    after_compile(change)
