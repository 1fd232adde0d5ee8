"""Bidding starts with the dealer instead of the player on the dealer's left."""

from conformance.mutants import wrap_state


def apply() -> None:
    def start(original, state, *args):
        original(state, *args)
        if state.phase == "bid-round-1":
            state.to_act = state.dealer
    wrap_state("_start_hand", start)
