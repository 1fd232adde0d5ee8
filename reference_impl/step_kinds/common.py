"""What several step kinds need: what the state waits for, the phases, and the contract made.

The modes number every decision a step can wait for; :mod:`reference_impl.state` dispatches
``legal_actions`` and ``apply`` on them, so they are numbered here, once, for all kinds.
Making trumps and going alone are done by several kinds (a bid, a call, a named suit, an
offer), so they live here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..state import State

# Phases with fixed names (a step names its own decisions' phase; see the table's `hand`).
DEAL = "deal"                      # waiting for the next hand's cards
TAKE_OFFER = "take-offer"          # a player offered the upcard (or widow): take it, or pass
DISCARD_PHASE = "discard"          # discard one card (repeated for each card owed)
TAKE_PHASE = "take-best"           # the loner: take the offered card unseen, or pass
PLAY_PHASE = "play"                # play a card to the trick
MASTER_SUIT = "master-suit"        # the leader of the master card names its suit
GAME_OVER = "game-over"

# What the state waits for (dispatch of legal actions and of apply).
(M_NONE, M_NAME, M_MAKE, M_AUCTION, M_OFFER, M_TAKE_OFFER, M_DISCARD, M_GIVE, M_TAKE_BEST, M_PLAY,
 M_MASTER) = range(11)
# An exchange by proposal (propose or stand; accept or refuse; discard then draw), and the play
# where a card the play rules forbid may still be played (a renege, claimed after the hand).
M_PROPOSE, M_RESPOND, M_EXCHANGE, M_FREE_PLAY = range(11, 15)
# What a finished discard goes back to.
AFTER_EXCHANGE, AFTER_GIVE, AFTER_SWAP = range(3)
AFTER_GIVE_FIRST = 3               # the receiver of a packet has discarded first: the giver passes it now
# Which side conceded the hand (the condition atom `conceded`, the observation's `conceded`).
CONCEDED_NONE, CONCEDED_MAKERS, CONCEDED_DEFENDERS = range(3)
CONCEDED_NAMES = (None, "makers", "defenders")


def wait(state: State, mode: int, phase: str, seat: int) -> bool:
    """Wait for ``seat``'s decision; True (what a ``begin`` that waits returns)."""
    state.mode, state.phase, state.to_act = mode, phase, seat
    return True


def seats_from(state: State, start: int) -> list[int]:
    """Every seat in the hand, clockwise from ``start``."""
    n = state.rules.n
    return [(start + k) % n for k in range(n) if state.active >> ((start + k) % n) & 1]


def go_alone(state: State) -> None:
    """The maker plays alone: his partners sit the hand out."""
    state.alone = True
    state.events.append(("alone", state.maker))
    for partner in state._partners(state.maker):
        state.active &= ~(1 << partner)


def make_trump(state: State, context: int, maker: int) -> None:
    """Trumps are made (a suit, or a no-trump context) by ``maker``; the step is done."""
    r = state.rules
    state.trump, state.maker = context, maker
    state.events.append(("trump", r.strain_names[context], maker))
    if state.bid >= 0 and r.bids[state.bid].alone and not state.alone:
        go_alone(state)
    state.next_step()


def win_contract(state: State, bid: int, seat: int) -> None:
    """``seat`` wins the contract ``bid``: trumps are made if the bid names them."""
    r = state.rules
    state.bid, state.maker = bid, seat
    state.events.append(("contract", r.bids[bid].id, seat))
    if r.bids[bid].alone:            # a lone bid is alone from the moment it wins, before trumps are named
        go_alone(state)
    if r.bids[bid].strain >= 0:
        make_trump(state, r.bids[bid].strain, seat)
