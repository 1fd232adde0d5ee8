"""The dealer leads to the first trick instead of the eldest hand (or the seat the table's lead rules name)."""

from conformance.mutants import wrap_state


def apply() -> None:
    def begin_play(original, state, step):
        waiting = original(state, step)
        leader = state.dealer
        while not state.active >> leader & 1:
            leader = state.rules.left[leader]
        state.leader = leader
        state.to_act = leader
        return waiting
    wrap_state("play.begin", begin_play)
