"""After an accepted proposal the responder may not change any card: he can only draw nothing."""

from conformance.mutants import wrap_state


def apply() -> None:
    def legal(original, state):
        actions = original(state)
        if state.to_act != state.step.who(state) and "draw" in actions:
            return ["draw"]
        return actions
    wrap_state("propose.legal_exchange", legal)
