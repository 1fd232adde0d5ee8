"""Two rule bugs: the seat left of the dealer is refused a pass at its first bid, though
its legal set offers one (an engine that refuses a move it lists, met in most hands), and a
euchre scores the defenders 1 point. The refusal takes the engine off the reference's line at the first bid; fuzz must take the
move back, go on, and still find the scoring bug."""

from conformance.mutants import load, wrap_state
from reference_impl.errors import ActionError


def apply() -> None:
    def refusing(original, state, action, seat=None):
        seen = state.observation()
        if action == "pass" and seen["phase"] == "bid-round-1" and seen["to_act"] == (seen["dealer"] + 1) % 4:
            raise ActionError("illegal_action", "the first bidder may not pass")
        return original(state, action, seat)
    wrap_state("apply", refusing)
    load("euchre-scored-one").apply()
