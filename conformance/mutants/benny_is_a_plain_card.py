"""The Benny is not a trump: the two of spades is treated as the lowest spade (and a
joker Benny as a card of no suit that never wins)."""

from conformance.mutants import after_compile, rebuild_suit_masks


def apply() -> None:
    def change(rules):
        if rules.benny < 0:
            return
        benny = rules.benny
        eff = [list(e) for e in rules.eff]
        power = [[list(row) for row in ctx] for ctx in rules.power]
        for ctx in range(rules.contexts):
            eff[ctx][benny] = rules.printed_suit[benny]
            for led in range(len(rules.suits)):
                power[ctx][led][benny] = 100 if led == rules.printed_suit[benny] else 0
        rules.eff = tuple(tuple(e) for e in eff)
        rules.power = tuple(tuple(tuple(row) for row in ctx) for ctx in power)
        rebuild_suit_masks(rules)
    after_compile(change)
