"""A player who sits out is not skipped: the partner of a loner still plays to each trick."""

from conformance.mutants import wrap_state


def apply() -> None:
    def begin_play(original, state, step):
        state.active = (1 << state.rules.n) - 1
        return original(state, step)
    wrap_state("play.begin", begin_play)
