"""The turned-down upcard may still be ordered up in the second round (as 67cards' engine accepts)."""

from conformance.mutants import wrap_state


def apply() -> None:
    def legal(original, state):
        actions = original(state)
        if not state.step.order and state.proposal >= 0 and "order" not in actions:
            actions = actions + ["order"]
        return actions
    wrap_state("make_trumps.legal", legal)
