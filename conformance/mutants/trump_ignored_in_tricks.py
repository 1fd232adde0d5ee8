"""Trumps are ignored when deciding a trick: the highest card of the suit led always wins."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        power = [[list(row) for row in ctx] for ctx in rules.power]
        for trump in range(len(rules.suits)):
            for led in range(len(rules.suits)):
                if led == trump:
                    continue
                row = power[trump][led]
                for card in range(rules.n_cards):
                    if rules.eff[trump][card] == trump:
                        row[card] = 0
        rules.power = tuple(tuple(tuple(row) for row in ctx) for ctx in power)
    after_compile(change)
