"""The right and left bowers are swapped: the jack of the same colour beats the jack of trumps."""

from conformance.mutants import after_compile, left_bower


def apply() -> None:
    def change(rules):
        power = [[list(row) for row in ctx] for ctx in rules.power]
        for trump in range(len(rules.suits)):
            right = rules.card_index["J" + rules.suits[trump]]
            left = left_bower(rules, trump)
            if left is None:
                continue
            for row in power[trump]:
                row[right], row[left] = row[left], row[right]
        rules.power = tuple(tuple(tuple(row) for row in ctx) for ctx in power)
    after_compile(change)
