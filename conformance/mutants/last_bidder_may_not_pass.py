"""When every other player has passed and no one has bid, the last player in the auction may not pass (as rlcard-500 does): a hand nobody wants is never thrown in."""

from conformance.mutants import wrap_state


def apply() -> None:
    def legal(original, state):
        actions = original(state)
        others = len(state.hands) - 1
        if state.high_bid < 0 and bin(state.auction_passed).count("1") == others and len(actions) > 1:
            actions = [a for a in actions if a != "pass"]
        return actions
    wrap_state("auction.legal", legal)
