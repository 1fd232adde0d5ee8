"""Whether a state reply agrees with itself and with the case, whatever fields a step names.

A case compares the fields it names; an engine's state can be wrong elsewhere and pass:
a card played and still in its hand, a trick that names a winner who did not play in it,
trick counts that do not add up. These checks hold under every rule table of the suite, so
the runner makes them on every state reply (each is a few dozen set operations):

- no card is shown twice (in the hands and the tricks together), and every card shown was
  dealt by the case (its hands, upcard, widow, kitty or pack), when the case deals cards;
- each trick is a list of ``[seat, card]`` of distinct seats of the table, every trick but
  the last is complete (has a winner), and a winner is a seat that played in its trick;
- no seat that sits out has played a card;
- ``tricks_won`` (where reported) has one count per seat, each the number of complete
  tricks that seat won;
- ``legal`` is ``[]`` when no one is to act (a seat that sits out may still be to act: the
  partner of a lone maker gives a card under some tables);
- in the ``play`` phase, the cards in the hands and the tricks together stay as many as
  at the first state of the play (where every hand is shown): cards only move from a hand
  to a trick there.
"""

from __future__ import annotations

from typing import Any

Problem = tuple[str, str, bool]    # (field, what is wrong, whether it is malformed rather than contradictory)


def dealt_cards(deal: dict[str, Any]) -> frozenset[str] | None:
    """Every card a case's deal request names (None when it deals none, e.g. a bare deal)."""
    found: set[str] = set()
    named = False
    for key in ("hands", "widow", "kitty", "deck", "pack", "cards", "upcard"):
        value = deal.get(key)
        if value is None:
            continue
        named = named or key in ("hands", "deck", "pack", "cards")
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, list):
                found.update(card for card in item if isinstance(card, str))
            elif isinstance(item, str):
                found.update(item.split())
    return frozenset(found) if named else None


def _seat(value: Any, seats: int | None) -> bool:
    return type(value) is int and value >= 0 and (seats is None or value < seats)


def inconsistency(state: dict[str, Any], dealt: frozenset[str] | None, seats: int | None) -> Problem | None:
    """The first way ``state`` contradicts itself or the deal (``dealt``: the cards the case
    dealt this hand; ``seats``: how many the table has), or None."""
    seen: set[str] = set()
    hands = state.get("hands")
    if hands is not None:
        if not isinstance(hands, list) or (seats is not None and len(hands) != seats):
            return "hands", f"not one entry per seat ({seats})", True
        for seat, hand in enumerate(hands):
            if hand is None:
                continue
            if not isinstance(hand, list) or not all(isinstance(card, str) for card in hand):
                return "hands", f"seat {seat}'s hand is not a list of cards", True
            for card in hand:
                if card in seen:
                    return "hands", f"{card} is shown twice", False
                seen.add(card)
    tricks = state.get("tricks")
    if not isinstance(tricks, list):
        return "tricks", "not a list", True
    sitting_out = state.get("sitting_out") if isinstance(state.get("sitting_out"), list) else []
    won = [0] * seats if seats else None
    for number, trick in enumerate(tricks, 1):
        if not isinstance(trick, dict) or not isinstance(trick.get("cards"), list):
            return "tricks", f"trick {number} is not a trick object", True
        played = set()
        for pair in trick["cards"]:
            if not (isinstance(pair, list) and len(pair) == 2 and _seat(pair[0], seats) and isinstance(pair[1], str)):
                return "tricks", f"trick {number} holds {pair!r}, not [seat, card]", True
            seat, card = pair
            if seat in played:
                return "tricks", f"seat {seat} plays twice in trick {number}", False
            if seat in sitting_out:
                return "tricks", f"seat {seat} sits out but plays in trick {number}", False
            if card in seen:
                return "tricks", f"{card}, played in trick {number}, is shown elsewhere too (a hand or another trick)", False
            played.add(seat)
            seen.add(card)
        winner = trick.get("winner")
        if winner is None:
            if number < len(tricks):
                return "tricks", f"trick {number} has no winner but is not the last", False
        elif not _seat(winner, seats) or winner not in played:
            return "tricks", f"trick {number}'s winner {winner!r} did not play in it", False
        elif won is not None:
            won[winner] += 1
    if dealt is not None and not seen <= dealt:
        return ("hands" if hands else "tricks"), f"{sorted(seen - dealt)[0]} was not dealt in this hand", False
    counted = state.get("tricks_won")
    if counted is not None and won is not None and counted != won:
        return "tricks_won", f"{counted!r}, but the tricks say {won}", False
    to_act = state.get("to_act")
    if to_act is None and state.get("legal") not in ([], None):
        return "legal", "not [] while no one is to act", False
    return None


def card_count(state: dict[str, Any]) -> int | None:
    """The cards in every hand and trick, where every hand is shown; else None."""
    hands = state.get("hands")
    if not isinstance(hands, list) or any(not isinstance(hand, list) for hand in hands):
        return None
    tricks = state.get("tricks") if isinstance(state.get("tricks"), list) else []
    return sum(len(hand) for hand in hands) + sum(len(t.get("cards") or []) for t in tricks if isinstance(t, dict))
