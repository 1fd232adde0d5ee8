"""Going alone does not give up the dummy: the lone bidder still takes it."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.takes = tuple(take.__class__(**{**take.__dict__, "unless_alone": False}) for take in rules.takes)
    after_compile(change)
