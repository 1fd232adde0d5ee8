"""A fold does not end the hand: the defenders' concession is ignored and the hand is
played out (and scored as played)."""

from conformance.mutants import wrap_state


def apply() -> None:
    def ignore_concession(original, state, seat):
        state.queue = []
        state._next()
    wrap_state("_concede", ignore_concession)
