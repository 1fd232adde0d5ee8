"""Perft counts by OpenSpiel's euchre, for positions under the rules it shares with a table.

OpenSpiel (``pip install open-spiel``) plays one hand: stick the dealer, the dealer discards
one of the original five cards, the maker decides on going alone after that discard, no
lone defence (by default), and the first lead goes to the dealer's left, skipping a player
who sits out. Under the matching options of ``euchre.yaml`` every legal action of ours has
one of OpenSpiel's, so the two perft counts of a position must agree.
"""

from __future__ import annotations

SHARED_OPTIONS = {"stick-the-dealer": True, "alone-declared": "after-exchange", "dealer-discard": "not-upcard",
                  "defending-alone": False, "lone-lead": "eldest"}
RANKS, SUITS = "9TJQKA", "CDHS"


def card_action(card: str) -> int:
    """OpenSpiel's card id: rank * 4 + suit, ranks 9..A and suits C D H S from 0."""
    return RANKS.index(card[0]) * 4 + SUITS.index(card[1])


def initial_state(dealer: int, hands: list[list[str]], upcard: str):
    """An OpenSpiel state after its chance events: the dealer, then twenty cards dealt one at a
    time, the k-th to seat (dealer + k) % 4, then the upcard."""
    import pyspiel

    game = pyspiel.load_game("euchre(stick_the_dealer=true,allow_lone_defender=false)")
    state = game.new_initial_state()
    state.apply_action(dealer)
    remaining = [list(h) for h in hands]
    for k in range(20):
        state.apply_action(card_action(remaining[(dealer + k) % 4].pop(0)))
    state.apply_action(card_action(upcard))
    return state


def perft(state, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def action(token: str, phase: str, upcard_suit: str) -> int:
    """Our action token, in the phase it is taken, as OpenSpiel's action id."""
    kind, _, arg = token.partition(":")
    if kind in ("discard", "play"):
        return card_action(arg)
    if phase == "alone":
        return 29 if kind == "alone" else 30
    if kind == "pass":
        return 24
    suit = upcard_suit if kind == "order" else arg
    return 25 + SUITS.index(suit)
