"""A dealer who takes up the upcard does not also take the dummy (only a non-dealer maker does)."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        takes = []
        for take in rules.takes:
            if take.source == "widow" and take.who == "maker" and take.maker is None and take.round is None and not take.unless_alone:
                take = take.__class__(**{**take.__dict__, "maker": "not-dealer"})
            takes.append(take)
        rules.takes = tuple(takes)
    after_compile(change)
