"""A called partner is shown to every seat as soon as trumps and the called card are known,
not when the called card is played: a seat's view leaks who holds it."""

from conformance.mutants import wrap_state


def apply() -> None:
    def observation(original, state, seat=None):
        view = original(state, seat)
        if "partner" in view and state.partner >= 0:
            view["partner"] = state.partner
        return view
    wrap_state("observation", observation)
