"""The end of a hand and of the game: the scoring row, counters, the game's end, a throw-in.

Several kinds end a hand (the play, a concession, a misdeal, a throw-in step) or the game
(a declaration that reaches the target), so this sits below them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import SpecError
from ..scoring import award_points, recipients
from .common import DEAL, GAME_OVER, M_NONE

if TYPE_CHECKING:
    from ..state import State


def throw_in(state: State, same_dealer: bool) -> None:
    """The hand is thrown in: no one scores; the deal passes on (or not), unless the table's
    number of deals is done."""
    state.thrown_in = True
    state.hand_points = [0] * len(state.rules.units)
    state.events.append(("throw-in", state.hand_number))
    state.mode, state.to_act = M_NONE, -1
    if state.rules.deals and state.hand_number >= state.rules.deals:
        end_game(state, best_of(state, [u for u in range(len(state.rules.units))]))
        return
    if not same_dealer:
        state.dealer = state.rules.left[state.dealer]
    state.phase = DEAL


def score_hand(state: State) -> None:
    r = state.rules
    row = next((row for row in r.scoring_rows if row.when(state, -1, -1)), None)
    if row is None:
        from ..resolve import table_problem     # only on this error: resolve is not compiled
        raise SpecError(table_problem(r.resolved, ("scoring", "rows"),
                                      f"no scoring row of {r.id} matches a hand with {state.maker_side_tricks()} maker "
                                      f"tricks (alone={state.alone}, defender alone={state.defender_alone >= 0}, "
                                      f"maker={state.maker})"))
    value, bid_tricks = (r.bids[state.bid].value, r.bids[state.bid].min_tricks) if state.bid >= 0 else (0, 0)
    points = [0] * len(r.units)
    scores = state.scores
    for award in row.awards:
        for unit in recipients(state, award.target):
            if award.when is not None and not award.when(state, -1, unit):
                continue
            points[unit] += award_points(state, award, unit, value, bid_tricks, scores[unit] + points[unit])
    for unit, amount in enumerate(points):
        scores[unit] += amount
    if r.counters:
        add_to_counters(state, points)
    state.hand_points = [p + d for p, d in zip(points, state.declared)] if state.declared else points
    state.last_row = row.id
    state.events.append(("score", row.id, tuple(points), tuple(scores)))
    check_game_over(state, points)


def add_to_counters(state: State, points: list[int]) -> None:
    """Add to each counter what the hand earned, and turn full counters into points."""
    r = state.rules
    for counter in r.counters:
        values = state.counters[counter.id]
        for rule in counter.rules:
            for who in recipients(state, rule.target, counter.per_player):
                seat, unit = (who, -1) if counter.per_player else (-1, who)
                if rule.when is None or rule.when(state, seat, unit):
                    values[who] += rule.add
        if counter.every:
            for who, value in enumerate(values):
                while values[who] >= counter.every:
                    values[who] -= counter.every
                    unit = r.unit_of[who] if counter.per_player else who
                    points[unit] += counter.points
                    state.scores[unit] += counter.points
    state.events.append(("counters", {key: tuple(values) for key, values in state.counters.items()}))


def has_reached(state: State, unit: int) -> bool:
    r, score = state.rules, state.scores[unit]
    if r.count_down:
        return score <= r.target
    return r.target > 0 and score >= r.target


def check_game_over(state: State, points: list[int]) -> None:
    r = state.rules
    units = range(len(r.units))
    reached = [u for u in units if has_reached(state, u)]
    if r.win_requires is not None:
        reached = [u for u in reached if r.win_requires(state, -1, u)]
    lost = [u for u in units if r.lose_at is not None and state.scores[u] <= r.lose_at]
    deals_done = bool(r.deals) and state.hand_number >= r.deals
    if not reached and not lost and not deals_done:
        next_hand(state)
        return
    if reached:
        winner = break_tie(state, reached, points)
        if winner is None and "play-on" in r.simultaneous and not lost and not deals_done:
            next_hand(state)
            return
    elif lost:
        winner = best_of(state, [u for u in units if u not in lost])
    else:
        winner = best_of(state, list(units))
    end_game(state, winner)


def next_hand(state: State) -> None:
    state.dealer = state.rules.left[state.dealer]
    state.phase, state.mode, state.to_act = DEAL, M_NONE, -1


def end_game(state: State, winner: int | None) -> None:
    state.winner = winner
    state.events.append(("game-over", winner))
    state.phase, state.mode, state.to_act = GAME_OVER, M_NONE, -1


def best_of(state: State, units: list[int]) -> int | None:
    """The unit with the best score (the lowest when counting down), None for a tie."""
    if not units:
        return None
    scores = [state.scores[u] for u in units]
    top = min(scores) if state.rules.count_down else max(scores)
    leaders = [u for u in units if state.scores[u] == top]
    return leaders[0] if len(leaders) == 1 else None


def break_tie(state: State, reached: list[int], points: list[int]) -> int | None:
    """Among several units reaching the target on one hand, the winner by the table's
    tie-breaks in order; None if they leave a tie."""
    r = state.rules
    candidates = reached
    maker_units = {r.unit_of[s] for s in state.maker_side()}
    for rule in r.simultaneous:
        if len(candidates) == 1:
            break
        if rule == "makers":
            candidates = [u for u in candidates if u in maker_units] or candidates
        elif rule in ("highest", "lowest"):
            scores = [state.scores[u] for u in candidates]
            top = max(scores) if rule == "highest" else min(scores)
            candidates = [u for u in candidates if state.scores[u] == top]
        elif rule == "earliest-trick":
            candidates = earliest(state, candidates, points, maker_units)
    return candidates[0] if len(candidates) == 1 else None


def earliest(state: State, candidates: list[int], points: list[int], maker_units: set[int]) -> list[int]:
    """Replay the hand's per-trick awards in trick order from the scores before it: the
    first candidate whose tricks took it to the target."""
    r = state.rules
    row = next(row for row in r.scoring_rows if row.id == state.last_row) if state.last_row else None
    per_trick: dict[int, int] = {}
    for award in row.awards if row else ():
        for unit in candidates:
            if award.target == "everyone" or (award.target in ("makers", "maker")) == (unit in maker_units):
                per_trick[unit] = per_trick.get(unit, 0) + award.per_trick
    running = [score - gained for score, gained in zip(state.scores, points)]
    for _leader, _cards, winner in state.tricks:
        unit = r.unit_of[winner]
        if per_trick.get(unit) and unit in candidates:
            running[unit] += per_trick[unit]
            if running[unit] >= r.target:
                return [unit]
    return candidates
