"""The left bower is a plain card of its printed suit: not a trump for following, leading or winning."""

from conformance.mutants import after_compile, left_bower, rebuild_suit_masks


def apply() -> None:
    def change(rules):
        eff = [list(row) for row in rules.eff]
        power = [[list(row) for row in ctx] for ctx in rules.power]
        for trump in range(len(rules.suits)):
            card = left_bower(rules, trump)
            if card is None:
                continue
            printed = rules.printed_suit[card]
            eff[trump][card] = printed
            ten = rules.card_index["T" + rules.suits[printed]]
            queen = rules.card_index["Q" + rules.suits[printed]]
            for led, row in enumerate(power[trump]):
                # a plain jack of its suit: above the ten, below the queen (powers are spaced)
                row[card] = (row[ten] + row[queen]) // 2 if led == printed else 0
        rules.eff = tuple(tuple(row) for row in eff)
        rules.power = tuple(tuple(tuple(row) for row in ctx) for ctx in power)
        rebuild_suit_masks(rules)
    after_compile(change)
