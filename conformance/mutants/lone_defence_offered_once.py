"""Only the first opponent to the maker's left is offered the lone defence."""

from conformance.mutants import wrap_state
from reference_impl.steps import DEFEND_ALONE


def apply() -> None:
    def begin(original, state, step):
        waiting = original(state, step)
        if step.effect == DEFEND_ALONE and waiting and state.mode != 0:
            state.queue = state.queue[:1]
        return waiting
    wrap_state("offer.begin", begin)
