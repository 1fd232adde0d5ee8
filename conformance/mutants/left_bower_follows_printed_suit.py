"""The left bower may also be played to follow its printed suit (it counts for both suits)."""

from conformance.mutants import after_compile, left_bower


def apply() -> None:
    def change(rules):
        masks = [list(m) for m in rules.suit_mask]
        for trump in range(len(rules.suits)):
            card = left_bower(rules, trump)
            if card is None:
                continue
            masks[trump][rules.printed_suit[card]] |= 1 << card
        rules.suit_mask = tuple(tuple(m) for m in masks)
    after_compile(change)
