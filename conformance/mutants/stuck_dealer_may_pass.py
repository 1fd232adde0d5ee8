"""Stick the dealer is not enforced: the dealer may pass in the second round too."""

from conformance.mutants import wrap_state


def apply() -> None:
    def legal(original, state):
        actions = original(state)
        return actions if "pass" in actions else ["pass"] + actions
    wrap_state("_legal_round_2", legal)
