"""The step `auction`: seats bid for the contract in turn, each bid above the last, until the
others have passed (or for a number of rounds, or once around)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import AUCTION
from .common import DEAL, GAME_OVER, M_AUCTION, seats_from, wait, win_contract

if TYPE_CHECKING:
    from ..state import State
    from ..steps import Step


KIND = AUCTION


def begin(state: State, step: Step) -> bool:
    if state.maker >= 0:
        return False
    state.queue = seats_from(state, step.start(state))
    state.high_bid, state.high_bidder, state.auction_passed, state.auction_rounds = -1, -1, 0, 0
    return wait(state, M_AUCTION, step.phase, state.queue[0])


def legal(state: State) -> list[str]:
    bids = state.rules.bids
    high = state.high_bid
    step = state.step
    if stuck_in_auction(state):
        return [bids[i].token for i in step.stuck_bids]     # stuck: every other seat passed, no bid made
    return ["pass"] + [bids[i].token for i in state.step.bids if i > high and (bids[i].after < 0 or high >= bids[i].after)]


def stuck_in_auction(state: State) -> bool:
    """The seat to act is the auction's stuck seat, every other seat passed and no bid
    was made: it may not pass (its bid is a forced contract)."""
    step = state.step
    return state.high_bid < 0 and bool(step.stuck_bids) and step.stuck(state) == state.to_act and all(
        s == state.to_act or state.auction_passed >> s & 1 for s in state.queue)


def apply(state: State, action: str, arg: int) -> None:
    seat = state.to_act
    if action == "pass":
        state.auction_passed |= 1 << seat
    else:
        state.forced = stuck_in_auction(state)
        state.high_bid, state.high_bidder = arg, seat
    if not state.step.until_passed:
        state.queue.pop(0)
        if state.queue:
            state.to_act = state.queue[0]
        else:
            auction_over(state)
        return
    still_in = [s for s in state.queue if not state.auction_passed >> s & 1]
    if (state.high_bidder >= 0 and still_in == [state.high_bidder]) or not still_in:
        auction_over(state)
        return
    order = state.queue
    at = order.index(seat)
    for k in range(1, len(order) + 1):
        nxt = order[(at + k) % len(order)]
        if not state.auction_passed >> nxt & 1:
            if at + k >= len(order):          # the turn goes back past the first seat: a round ended
                state.auction_rounds += 1
                if state.step.max_rounds and state.auction_rounds >= state.step.max_rounds:
                    auction_over(state)
                    return
            state.to_act = nxt
            return


def auction_over(state: State) -> None:
    if state.high_bidder < 0:
        state.next_step()
        return
    win_contract(state, state.high_bid, state.high_bidder)
    if state.trump < 0 and state.phase not in (DEAL, GAME_OVER):
        state.next_step()


DECISIONS = {M_AUCTION: (legal, apply)}
