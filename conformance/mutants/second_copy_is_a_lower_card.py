"""In a doubled pack the second copy of a card ranks just below the first, as if it were a
different card: a second jack of trumps loses to the first even when played first."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        if rules.copies == 1:
            return
        power = [[list(row) for row in ctx] for ctx in rules.power]
        for ctx in power:
            for row in ctx:
                for card, name in enumerate(rules.card_names):
                    row[card] *= 2           # room between two powers: a copy goes just below its card
                    if "." in name and row[card] > 0:
                        row[card] -= 1
        rules.power = tuple(tuple(tuple(row) for row in ctx) for ctx in power)
    after_compile(change)
