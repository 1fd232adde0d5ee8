"""The dealer is never asked in the first round: three passes turn the upcard down."""

from conformance.mutants import wrap_state


def apply() -> None:
    def apply_round_1(original, state, kind, arg):
        original(state, kind, arg)
        if state.phase == "bid-round-1" and state.to_act == state.dealer:
            state.passes = state.rules.n - 1
            original(state, 0, 0)     # the dealer's pass, taken for granted
    wrap_state("_apply_round_1", apply_round_1)
