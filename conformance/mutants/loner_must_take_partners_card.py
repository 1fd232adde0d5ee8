"""Railroading: the loner may not refuse the partner's card."""

from conformance.mutants import wrap_state


def apply() -> None:
    def legal(original, state):
        actions = original(state)
        return ["take"] if state.phase == "take-best" else actions
    wrap_state("_legal_yes_no", legal)
