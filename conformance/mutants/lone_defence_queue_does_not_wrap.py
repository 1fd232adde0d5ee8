"""The lone defence is offered to seats after the maker without wrapping round the table,
so a maker in seat 1, 2 or 3 has an opponent who is never asked."""

from conformance.mutants import wrap_state
from reference_impl.steps import DEFEND_ALONE


def apply() -> None:
    def next_offer(original, state):
        if state.step is not None and state.step.effect == DEFEND_ALONE and state.maker >= 0:
            state.queue = [seat for seat in state.queue if seat > state.maker]
        return original(state)
    wrap_state("offer.next_offer", next_offer)
