"""The turned-down suit may be named in the second round."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.turned_down_allowed = True
    after_compile(change)
