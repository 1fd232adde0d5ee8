"""Following suit is not enforced: any card may be played to any trick (reneging allowed)."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.suit_mask = tuple(tuple(rules.full_mask for _ in ctx) for ctx in rules.suit_mask)
    after_compile(change)
