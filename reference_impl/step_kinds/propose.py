"""The step `propose`: an exchange by proposal: the proposer proposes or stands, the responder
accepts or refuses; then each lays cards out and draws as many from the stock."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..steps import PROPOSE
from .common import DISCARD_PHASE, M_EXCHANGE, M_PROPOSE, M_RESPOND, wait

if TYPE_CHECKING:
    from ..state import State
    from ..steps import Step


KIND = PROPOSE


def begin(state: State, step: Step) -> bool:
    state.exchanges = 0
    return ask_proposal(state)


def ask_proposal(state: State) -> bool:
    """The proposer proposes an exchange or stands; False (the step is over) when the
    stock can no longer serve one, or the table's number of exchanges has been made."""
    step = state.step
    seat = step.who(state)
    if seat < 0 or len(state.kitty) < step.min_discard or (step.max_exchanges and state.exchanges >= step.max_exchanges):
        return False
    return wait(state, M_PROPOSE, step.phase, seat)


def legal_propose(state: State) -> list[str]:
    return ["stand", "propose"]


def apply_propose(state: State, action: str, arg: int) -> None:
    if action == "stand":
        if state.exchanges == 0:
            state.stood = state.to_act
        state.events.append(("stand", state.to_act))
        state.next_step()
        return
    wait(state, M_RESPOND, state.step.phase, state.step.responder(state))


def legal_respond(state: State) -> list[str]:
    return ["refuse", "accept"]


def apply_respond(state: State, action: str, arg: int) -> None:
    if action == "refuse":
        if state.exchanges == 0:
            state.stood = state.to_act
        state.events.append(("refuse", state.to_act))
        state.next_step()
        return
    state.exchange_count = 0
    wait(state, M_EXCHANGE, DISCARD_PHASE, state.step.who(state))


def exchange_minimum(state: State) -> int:
    step = state.step
    least = step.min_discard if state.to_act == step.who(state) else step.responder_min_discard
    return min(least, len(state.kitty))


def legal_exchange(state: State) -> list[str]:
    legal = ["draw"] if state.exchange_count >= exchange_minimum(state) else []
    if state.exchange_count < len(state.kitty):
        legal += state.rules.discard_tokens(state.hands[state.to_act])
    return legal


def apply_exchange(state: State, action: str, arg: int) -> None:
    seat = state.to_act
    if action != "draw":
        state.hands[seat] &= ~(1 << arg)
        state.discarded.append(arg)
        state.exchange_count += 1
        return
    count = state.exchange_count
    laid = state.discarded[len(state.discarded) - count:] if count else []
    taken, state.kitty = state.kitty[:count], state.kitty[count:]
    for card in taken:
        state.hands[seat] |= 1 << card
    names = state.rules.card_names
    state.events.append(("exchange", seat, [names[c] for c in laid], [names[c] for c in taken]))
    state.exchange_count = 0
    if seat == state.step.who(state):
        wait(state, M_EXCHANGE, DISCARD_PHASE, state.step.responder(state))
        return
    state.exchanges += 1
    if not ask_proposal(state):
        state.next_step()


DECISIONS = {M_PROPOSE: (legal_propose, apply_propose), M_RESPOND: (legal_respond, apply_respond),
             M_EXCHANGE: (legal_exchange, apply_exchange)}
