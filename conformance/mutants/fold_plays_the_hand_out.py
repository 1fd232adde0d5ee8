"""A fold does not end the hand: the defenders' concession is ignored and the hand is
played out (and scored as played)."""

from conformance.mutants import wrap_state


def apply() -> None:
    def ignore_concession(original, state, seat):
        state.queue = []
        state.next_step()
    wrap_state("offer.concede", ignore_concession)
