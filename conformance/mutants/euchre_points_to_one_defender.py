"""With scores kept per player, the points for euchring the bidder go to only one defender
(the first after the bidder), not to each."""

from conformance.mutants import wrap_state


def apply() -> None:
    def score(original, state):
        original(state)
        if state.rules.teams or state.maker < 0 or not state.hand_points:
            return
        defenders = [(state.maker + k) % state.rules.n for k in range(1, state.rules.n)]
        for seat in defenders[1:]:
            if state.hand_points[seat] > 0 and state.last_row and "euchre" in state.last_row:
                state.scores[seat] -= state.hand_points[seat]
                state.hand_points[seat] = 0
    wrap_state("hand_end.score_hand", score)
