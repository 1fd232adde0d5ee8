"""A seat stuck in an auction (Nap's dealer after three passes) may pass."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "auction"):
            step.pop("stuck", None)
            step.pop("stuck-from", None)
    change_table(change)
