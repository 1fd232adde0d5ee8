"""The cards a seat lays away face down (the dealer's buried card, the discards after taking
a widow or a dummy) are shown in every seat's view."""

from conformance.mutants import wrap_state


def apply() -> None:
    def observation(original, state, seat=None):
        view = original(state, seat)
        if seat is not None:
            full = original(state, None)["discards"]
            view["discards"] = [cards if cards else mine for cards, mine in zip(full, view["discards"])]
        return view
    wrap_state("observation", observation)
