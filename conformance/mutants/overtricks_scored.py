"""A made contract also scores 10 for each trick over the bid (Five Hundred scores no overtricks)."""

from conformance.mutants import wrap_state


def apply() -> None:
    def score(original, state):
        original(state)
        if state.bid >= 0 and state.last_row and "made" in state.last_row:
            bid = state.rules.bids[state.bid]
            over = sum(state.tricks_won[s] for s in (state.maker,)) - bid.min_tricks
            if over > 0:
                unit = state.rules.unit_of[state.maker]
                state.hand_points[unit] += 10 * over
                state.scores[unit] += 10 * over
    wrap_state("hand_end.score_hand", score)
