"""The joker led at no-trumps names no suit: the others may play anything to it."""

from conformance.mutants import after_compile, wrap_state


def apply() -> None:
    def change(rules):
        rules.master_names_suit = False
    after_compile(change)

    def playable(original, state):
        if state.trick and state.led < 0:
            return state.hands[state.to_act]
        return original(state)
    wrap_state("play.playable", playable)
