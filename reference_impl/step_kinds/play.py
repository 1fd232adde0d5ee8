"""The step `play`: the tricks, from the first lead to the last trick; what may be played (follow
suit, and the stricter rules a table may add), a master card's named suit, and the play where a
renege is allowed (and claimed after the hand)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import SpecError
from ..steps import PLAY
from .common import M_FREE_PLAY, M_MASTER, M_NONE, M_PLAY, MASTER_SUIT, PLAY_PHASE, wait
from .hand_end import score_hand, throw_in

if TYPE_CHECKING:
    from ..state import State
    from ..steps import Step


KIND = PLAY


def begin(state: State, step: Step) -> bool:
    r = state.rules
    active = state.active
    if not active:                   # every seat sat out: the hand is void (the play step's rule)
        throw_in(state, same_dealer=step.same_dealer)
        return True
    start = r.left[state.dealer]
    for when, leader in step.lead:   # the first rule that holds and names a seat (a maker's seat
        if when(state, -1, -1):       # names none in a hand with no maker)
            seat = leader(state)
            if seat >= 0:
                start = seat
                break
    start = next_active(state, start)
    if state.trump < 0 and not step.trumps_by_lead:
        raise SpecError(f"{r.id}: the play begins with no trumps made, and its step does not take them from the lead")
    left = r.left
    next_of = [0] * r.n
    for seat in range(r.n):          # ends: ``active`` holds a seat (checked above), and left is one cycle
        nxt = left[seat]
        while not active >> nxt & 1:
            nxt = left[nxt]
        next_of[seat] = nxt
    state.next_of = next_of
    state.n_active = bin(active).count("1")
    state.leader = start
    state.trick, state.led = [], -1
    return wait(state, M_FREE_PLAY if step.renege else M_PLAY, PLAY_PHASE, start)


def next_active(state: State, seat: int) -> int:
    """``seat`` if it plays, else the first seat to its left that does: bounded by the
    number of seats, so that a hand with no one left to play raises instead of spinning."""
    r, active = state.rules, state.active
    for _ in range(r.n):
        if active >> seat & 1:
            return seat
        seat = r.left[seat]
    raise SpecError(f"{r.id}: no seat is left to play the hand")


def playable(state: State) -> int:
    """The bitmask of cards the seat to act may play: follow the effective suit led if
    able (the master card too, where it may be played at any time), else anything; the
    play step's stricter rules (``must``) narrow that further."""
    hand = state.hands[state.to_act]
    if state.trick:
        if state.step.strict:
            return strict_playable(state, hand)
        r = state.rules
        follow = hand & r.suit_mask[state.trump][state.led]
        if follow:
            if r.master_any_time and state.trump >= r.NT:
                follow |= hand & r.master_bit
            return follow
    return hand


def beating(state: State, cards: int) -> int:
    """The cards of the bitmask ``cards`` that would take the trick as it stands (an equal
    card only where the later of two equal cards wins)."""
    r = state.rules
    power = r.power[state.trump][state.led]
    best = max(power[c] for _, c in state.trick)
    later = r.later_equal_wins
    beating = 0
    while cards:
        low = cards & -cards
        c = low.bit_length() - 1
        if power[c] > best or (later and power[c] == best):
            beating |= low
        cards ^= low
    return beating


def strict_playable(state: State, hand: int) -> int:
    """Follow suit, then the play step's ``must`` rules, each a condition on the legal set:
    ``head`` (a seat that follows must beat the trick's best card if it can), ``trump`` (a
    seat void in the suit led must play a trump if it has one), ``overtrump`` (a trump
    played to a trick that already holds a trump must beat it if one can; a seat unable
    to overtrump may play any trump, or, without ``trump``, anything)."""
    r, step, trump = state.rules, state.step, state.trump
    head, must_trump, overtrump = step.must_head, step.must_trump, step.must_overtrump
    if True in step.partner_frees and partner_winning(state):
        free_head, free_trump, free_overtrump = step.partner_frees
        head, must_trump, overtrump = head and not free_head, must_trump and not free_trump, \
            overtrump and not free_overtrump
    follow = hand & r.suit_mask[trump][state.led]
    if follow:
        if r.master_any_time and trump >= r.NT:
            follow |= hand & r.master_bit
        if step.privileged and state.led == trump and not follow & ~excused(state, follow):
            return hand                            # only privileged trumps above the card led: free
        if head:
            follow = beating(state, follow) or follow
        if step.trump_any_time and state.led != trump and trump < r.NT:
            follow |= hand & r.suit_mask[trump][trump]
        return follow
    if trump >= r.NT:                              # no trump suit: nothing more to require
        return hand
    trumps = hand & r.suit_mask[trump][trump]
    if not trumps:
        return hand
    if overtrump and any(r.eff[trump][c] == trump for _, c in state.trick):
        trumps = beating(state, trumps) or trumps
    return trumps if must_trump else (hand & ~r.suit_mask[trump][trump]) | trumps


def excused(state: State, trumps: int) -> int:
    """The privileged trumps of ``trumps`` that rank above the trump led: they need not
    follow it (the top trumps' right to renege)."""
    trump = state.trump
    power = state.rules.power[trump][trump]
    led = power[state.trick[0][1]]
    excused = 0
    cards = trumps & state.step.privileged[trump]
    while cards:
        low = cards & -cards
        if power[low.bit_length() - 1] > led:
            excused |= low
        cards ^= low
    return excused


def partner_winning(state: State) -> bool:
    """Whether a partner of the seat to act holds the trick as it stands."""
    r = state.rules
    power = r.power[state.trump][state.led]
    winner, best = -1, -1
    for seat, card in state.trick:
        if power[card] > best or (r.later_equal_wins and power[card] == best):
            winner, best = seat, power[card]
    return winner in r.team_mates[state.to_act]


def why_not_playable(state: State, card: int) -> str:
    r = state.rules
    name = r.card_names[card]
    hand = state.hands[state.to_act]
    if not hand >> card & 1:
        return f"seat {state.to_act} does not hold {name}"
    led = r.suits[state.led] if state.led >= 0 else "?"
    if not hand & r.suit_mask[state.trump][state.led]:
        if state.step.must_overtrump and r.eff[state.trump][card] == state.trump:
            return f"seat {state.to_act} must overtrump the trick if able and {name} does not"
        return f"seat {state.to_act}, void in the suit led ({led}), must play a trump if able and {name} is not one"
    if r.eff[state.trump][card] == state.led and state.step.must_head:
        return f"seat {state.to_act} must head the trick (beat its best card) if able and {name} does not"
    return f"seat {state.to_act} must follow the suit led ({led}) and {name} does not"


def play_card(state: State, card: int) -> None:
    seat = state.to_act
    state.hands[seat] &= ~(1 << card)
    if card == state.called and not state.partner_shown:
        state.partner_shown = True
        state.events.append(("partner", seat))
    trick = state.trick
    if not trick:
        if state.trump < 0:                 # trumps by the first lead: its suit is trumps
            trumps_by_lead(state, card)
        led = state.rules.eff[state.trump][card]
        if led < 0 and state.rules.master_names_suit:
            trick.append((seat, card))
            state.mode, state.phase = M_MASTER, MASTER_SUIT
            return
        state.led = led
    trick.append((seat, card))
    if len(trick) == state.n_active:
        finish_trick(state)
    else:
        state.to_act = state.next_of[seat]


def trumps_by_lead(state: State, card: int) -> None:
    r = state.rules
    state.trump = r.printed_suit[card]
    state.events.append(("trump", r.strain_names[state.trump], state.maker))


def legal_master(state: State) -> list[str]:
    return list(state.rules.name_token[:state.rules.NT])


def apply_master_suit(state: State, action: str, arg: int) -> None:
    state.led = arg
    state.events.append(("master-suit", state.rules.suits[arg]))
    state.mode, state.phase = (M_FREE_PLAY if state.step.renege else M_PLAY), PLAY_PHASE
    if len(state.trick) == state.n_active:
        finish_trick(state)
    else:
        state.to_act = state.next_of[state.to_act]


def finish_trick(state: State) -> None:
    power = state.rules.power[state.trump][state.led]
    winner, best = -1, -1
    if state.rules.later_equal_wins:            # of two equal cards (copies), the later wins
        for seat, card in state.trick:
            if power[card] >= best:
                winner, best = seat, power[card]
    else:
        for seat, card in state.trick:
            if power[card] > best:
                winner, best = seat, power[card]
    trick = (state.leader, tuple(state.trick), winner)
    state.tricks.append(trick)
    state.events.append(("trick", *trick))
    state.tricks_won[winner] += 1
    if len(state.tricks) == state.rules.hand_size:
        state.trick = []
        if state.cursor + 1 < len(state.rules.steps):    # steps after the play (a claim) come first
            state.mode, state.to_act = M_NONE, -1
            state.next_step()
        else:
            score_hand(state)
        return
    state.trick, state.led = [], -1
    state.leader = state.to_act = winner


def legal_free_play(state: State) -> list[str]:
    return state.rules.play_tokens(state.hands[state.to_act])


def apply_free_play(state: State, action: str, arg: int) -> None:
    """Any card held may be played; one the play rules forbid is a renege, remembered for
    a claim after the last trick."""
    if not playable(state) >> arg & 1:
        state.reneged |= 1 << state.to_act
        state.events.append(("renege", state.to_act, state.rules.card_names[arg]))
    play_card(state, arg)


# M_PLAY is not here: the state answers it itself, the hot path of every hand.
DECISIONS = {M_MASTER: (legal_master, apply_master_suit), M_FREE_PLAY: (legal_free_play, apply_free_play)}
