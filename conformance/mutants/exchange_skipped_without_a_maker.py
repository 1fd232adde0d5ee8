"""An exchange in a hand with no maker (trumps turned, not bid) is passed over: the dealer
never robs the ace turned up (the defect of issue 37)."""


def apply() -> None:
    from reference_impl import state as state_module
    from reference_impl.steps import EXCHANGE
    begin = state_module._BEGIN[EXCHANGE]

    def skipped(state, step):
        return False if state.maker < 0 else begin(state, step)
    state_module._BEGIN[EXCHANGE] = skipped
