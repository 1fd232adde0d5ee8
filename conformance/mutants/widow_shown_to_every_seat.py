"""The widow (kitty, dummy) lies face up: every seat's view names its cards in a field of
the engine's own, before anyone takes it."""

from conformance.mutants import wrap_state


def apply() -> None:
    def observation(original, state, seat=None):
        view = original(state, seat)
        if seat is not None:
            view["widow"] = state.rules.cards_of(state.widow)
        return view
    wrap_state("observation", observation)
