"""A refused proposal counts against the player who proposed, as if he had stood, instead of against the one who refused."""

from conformance.mutants import wrap_state


def apply() -> None:
    def respond(original, state, action, arg):
        before = state.exchanges
        original(state, action, arg)
        if action == "refuse" and before == 0:
            state.stood = state.step.who(state)
    wrap_state("propose.apply_respond", respond)
