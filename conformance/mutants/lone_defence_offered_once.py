"""Only the first opponent to the maker's left is offered the lone defence."""

from conformance.mutants import wrap_state


def apply() -> None:
    def begin(original, state):
        asked = original(state)
        if asked:
            state.queue = state.queue[:1]
        return asked
    wrap_state("_begin_defend", begin)
