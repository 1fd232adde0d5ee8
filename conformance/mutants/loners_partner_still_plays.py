"""Going alone is recorded, but the loner's partner still plays the hand."""

from conformance.mutants import wrap_state


def apply() -> None:
    def go_alone(original, state):
        state.alone = True
        state.events.append(("alone", state.maker))
    wrap_state("common.go_alone", go_alone)
