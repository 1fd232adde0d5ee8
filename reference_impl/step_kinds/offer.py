"""The step `offer`: seats in turn are offered something (to go alone, defend alone, sit out,
declare, concede, call a misdeal, claim a renege, swap with the kitty) and accept or decline."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import (ALONE, CLAIM, CONCEDE, DECIDE_FIRST, DECIDE_UNANIMOUS, DEFEND_ALONE, MISDEAL, OFFER,
                     QUEUE_DEFENDERS, QUEUE_MAKER_PARTNERS, QUEUE_OTHERS, SCORE, SIT_OUT, SWAP)
from .common import (AFTER_SWAP, CONCEDED_DEFENDERS, CONCEDED_MAKERS, CONCEDED_NAMES, DISCARD_PHASE, M_DISCARD, M_NONE,
                     M_OFFER, go_alone, seats_from, wait)
from .hand_end import end_game, has_reached, score_hand, throw_in

if TYPE_CHECKING:
    from ..state import State
    from ..steps import Step


KIND = OFFER


def begin(state: State, step: Step) -> bool:
    if step.queue < 0:
        seat = step.target(state)
        state.queue = [seat] if seat >= 0 and state.active >> seat & 1 else []
    else:
        start = step.target(state)
        if start < 0:
            return False
        side = state.maker_side()
        seats = seats_from(state, start)
        if step.queue == QUEUE_DEFENDERS:
            seats = [s for s in seats if s not in side]
        elif step.queue == QUEUE_MAKER_PARTNERS:
            seats = [s for s in seats if s in side and s != state.maker]
        elif step.queue == QUEUE_OTHERS:
            seats = [s for s in seats if s != state.maker]
        state.queue = seats
        if step.decision == DECIDE_UNANIMOUS:      # every seat that will be asked is known now
            state.queue = [s for s in seats if state.active >> s & 1 and step.eligible(state, s, -1)]
    return next_offer(state)


def next_offer(state: State) -> bool:
    """Ask the next seat of the offer's queue; False when no one is left to ask."""
    step = state.step
    while state.queue:
        seat = state.queue[0]
        if not state.active >> seat & 1 or not step.eligible(state, seat, -1):
            state.queue.pop(0)
            continue
        if step.decision == DECIDE_FIRST:          # this seat answers for its side: no one after it
            state.queue = [seat]
        if step.forced(state, seat, -1):
            state.queue.pop(0)
            if step.decision == DECIDE_UNANIMOUS and state.queue:   # agreed: the others are asked still
                continue
            if accept(state, step, seat):
                return True
            continue
        return wait(state, M_OFFER, step.phase, seat)
    return False


def legal(state: State) -> list[str]:
    return [state.step.decline, state.step.accept]


def apply(state: State, action: str, arg: int) -> None:
    step = state.step
    seat = state.queue.pop(0)
    if step.decision == DECIDE_UNANIMOUS:
        if action != step.accept:                  # one refusal settles it for the side
            state.queue = []
        elif not state.queue and accept(state, step, seat):   # the last seat agreed: it takes effect
            return
        if not next_offer(state):
            state.next_step()
        return
    if action == step.accept and accept(state, step, seat):
        return
    if not next_offer(state):
        state.next_step()


def accept(state: State, step: Step, seat: int) -> bool:
    """Do what accepting the offer does; True when that waits for a decision."""
    effect = step.effect
    if step.first_accept_ends:
        state.queue = []
    if effect == ALONE:
        go_alone(state)
    elif effect == DEFEND_ALONE:
        state.defender_alone = seat
        state.events.append(("defend-alone", seat))
        for partner in state._partners(seat):
            state.active &= ~(1 << partner)
    elif effect == SIT_OUT:
        state.active &= ~(1 << seat)
        state.events.append(("drop", seat))
    elif effect == SCORE:
        return score_at_once(state, step, seat)
    elif effect == CONCEDE:
        concede(state, seat)
        return True
    elif effect == MISDEAL:
        state.events.append(("misdeal", seat))
        throw_in(state, same_dealer=step.same_dealer)
        return True
    elif effect == CLAIM:
        against = state.claimable(seat)
        state.claimed |= against
        state.events.append(("renege-claim", seat, tuple(s for s in range(state.rules.n) if against >> s & 1)))
    elif effect == SWAP:
        state.swap_seat = seat
        state.discards = [[seat, step.swap_count]]
        state.discard_limit, state.discard_free, state.resume = step.swap_mask, True, AFTER_SWAP
        return wait(state, M_DISCARD, DISCARD_PHASE, seat)
    return False


def finish_swap(state: State) -> None:
    seat, count = state.swap_seat, state.step.swap_count
    laid = state.discarded[-count:]
    del state.discarded[-count:]
    taken = state.kitty[:count]
    state.kitty = laid + state.kitty[count:]
    for card in taken:
        state.hands[seat] |= 1 << card
    names = state.rules.card_names
    state.events.append(("swap", seat, [names[c] for c in laid], [names[c] for c in taken]))
    if not next_offer(state):
        state.next_step()


def score_at_once(state: State, step: Step, seat: int) -> bool:
    """A declaration: the seat's side scores the step's points now, which may end the game
    (True then: nothing more is asked)."""
    r = state.rules
    unit = r.unit_of[seat]
    state.scores[unit] += step.points
    if not state.declared:
        state.declared = [0] * len(r.units)
    state.declared[unit] += step.points
    state.events.append(("declare", seat, step.id, step.points, tuple(state.scores)))
    if has_reached(state, unit) and (r.win_requires is None or r.win_requires(state, -1, unit)):
        state.hand_points = list(state.declared)
        end_game(state, unit)
        return True
    return False


def concede(state: State, seat: int) -> None:
    """The seat's side concedes: the hand ends here and is scored (rows test `conceded`)."""
    state.conceded = CONCEDED_MAKERS if seat in state.maker_side() else CONCEDED_DEFENDERS
    state.queue = []
    state.events.append(("concede", seat, CONCEDED_NAMES[state.conceded]))
    state.mode, state.to_act = M_NONE, -1
    score_hand(state)


DECISIONS = {M_OFFER: (legal, apply)}
