"""A dealer offered the upcard may not leave it: optional takes are forced."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.takes = tuple(take.__class__(**{**take.__dict__, "optional": False}) for take in rules.takes)
    after_compile(change)
