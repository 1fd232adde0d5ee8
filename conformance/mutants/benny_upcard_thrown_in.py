"""When the Benny is turned up the hand is thrown in, instead of the dealer naming a suit."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.benny_upcard = "redeal"
    after_compile(change)
