"""After a throw-in the same player deals again instead of the deal passing left."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.all_pass_same_dealer = True
    after_compile(change)
