"""A player who took several cards discards one card fewer than taken, keeping a card too many."""

from conformance.mutants import wrap_state


def apply() -> None:
    def take(original, state, rule):
        original(state, rule)
        for entry in state.discards:
            if entry[1] > 1:
                entry[1] -= 1
    wrap_state("exchange.take_cards", take)
