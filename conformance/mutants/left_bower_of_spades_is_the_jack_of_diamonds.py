"""A slip in the colour table: when spades are trumps the left bower is taken to be the jack
of diamonds instead of the jack of clubs (the other suits are right)."""

from conformance.mutants import after_compile, left_bower, rebuild_suit_masks


def apply() -> None:
    def change(rules):
        spades = rules.suits.index("S")
        real, wrong = left_bower(rules, spades), rules.card_index["JD"]
        if real is None:
            return
        eff = [list(e) for e in rules.eff]
        power = [[list(row) for row in ctx] for ctx in rules.power]
        eff[spades][real], eff[spades][wrong] = rules.printed_suit[real], spades
        for led, row in enumerate(power[spades]):
            row[wrong] = row[real]
            row[real] = 0 if led != rules.printed_suit[real] else 100 + 3   # a plain jack of clubs
        rules.eff = tuple(tuple(e) for e in eff)
        rules.power = tuple(tuple(tuple(row) for row in ctx) for ctx in power)
        rebuild_suit_masks(rules)
    after_compile(change)
