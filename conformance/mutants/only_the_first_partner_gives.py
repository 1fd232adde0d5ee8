"""With teams of three, only the loner's first partner (on his left) is asked for his best
card; the second is never asked."""

from conformance.mutants import wrap_state


def apply() -> None:
    def next_giver(original, state):
        del state.givers[1:]
        return original(state)
    wrap_state("give.next_giver", next_giver)
