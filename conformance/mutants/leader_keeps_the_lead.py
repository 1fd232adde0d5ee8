"""The winner of a trick does not lead the next: the same player leads every trick."""

from conformance.mutants import wrap_state


def apply() -> None:
    def finish(original, state):
        leader = state.leader
        original(state)
        if state.phase == "play" and not state.trick:
            state.leader = state.to_act = leader
    wrap_state("play.finish_trick", finish)
