"""Every seat's view lists the legal actions of the seat to act, not only that seat's own
view: another seat reads the dealer's six cards while he discards, the leader's hand while
he leads."""

from conformance.mutants import wrap_state


def apply() -> None:
    def observation(original, state, seat=None):
        view = original(state, seat)
        if seat is not None:
            view["legal"] = state.legal_actions()
        return view
    wrap_state("observation", observation)
