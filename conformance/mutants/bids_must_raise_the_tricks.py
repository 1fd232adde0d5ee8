"""An overbid must name more tricks: bids are ordered by tricks, not by their schedule value
(six hearts may not overcall six spades)."""

from conformance.mutants import wrap_state


def apply() -> None:
    def legal(original, state):
        actions = original(state)
        if state.high_bid < 0:
            return actions
        current = state.rules.bids[state.high_bid].min_tricks
        allowed = {bid.token for bid in state.rules.bids if bid.min_tricks > current}
        return [a for a in actions if a == "pass" or a in allowed]
    wrap_state("auction.legal", legal)
