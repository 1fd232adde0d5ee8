"""At low no-trumps the cards rank as at high no-trumps: the ace wins, not the nine."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        power = list(rules.power)
        power[rules.NL] = power[rules.NT]
        rules.power = tuple(power)
    after_compile(change)
