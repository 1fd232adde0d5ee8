"""The dealer is never asked in the first round: three passes turn the upcard down."""

from conformance.mutants import wrap_state


def apply() -> None:
    def begin(original, state, step):
        waiting = original(state, step)
        if step.order and state.dealer in state.queue:
            state.queue.remove(state.dealer)
        return waiting
    wrap_state("make_trumps.begin", begin)
