"""The lone defence is offered to seats maker+1 and maker+3 without wrapping round the table,
so a maker in seat 1, 2 or 3 has an opponent who is never asked."""

from conformance.mutants import wrap_state


def apply() -> None:
    def begin(original, state):
        asked = original(state)
        if asked:
            state.queue = [seat for seat in state.queue if seat > state.maker]
            if not state.queue:
                state._advance()
                return True
            state.to_act = state.queue[0]
        return asked
    wrap_state("_begin_defend", begin)
