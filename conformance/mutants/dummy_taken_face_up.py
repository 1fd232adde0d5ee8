"""The cards a seat takes unseen (a dummy, a widow, a partner's card, an exchange's draw)
are shown to every seat: each view carries every seat's `received`."""

from conformance.mutants import wrap_state


def apply() -> None:
    def observation(original, state, seat=None):
        view = original(state, seat)
        if seat is not None:
            full = original(state, None)["received"]
            view["received"] = [cards if cards else mine for cards, mine in zip(full, view["received"])]
        return view
    wrap_state("observation", observation)
