"""When two players pass the target on the same deal, the higher score wins, not the bidder."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        if rules.simultaneous:
            rules.simultaneous = ("highest",)
    after_compile(change)
