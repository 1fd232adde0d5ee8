"""EGN's card notation and ours.

EGN writes a card as rank then suit, the suit in lower case (``"Jd"``, ``"Ts"``), with
``N`` as another name for the nine, ``B`` for the joker (the Benny), and ``R``/``L`` for
the right and left bowers of the trump suit in force. Unknown ranks or suits (``X``,
``x``) and the generic suits (``t`` trump, ``n`` next, ``g`` green) name no particular card:
they are refused as unsupported. ``h`` is read as hearts (EGN also uses it for the second
green suit; a record cannot say which it means, and hearts is the suit the letter names).

EGN knows the ranks seven to ace only, and no copies: our second copy of a card in a doubled
pack (``AS.2``) is written as the card (``As``), both copies alike. Nothing is lost where it
matters: the copies are the same card for every rule, and which of two equal cards in a trick
ranks higher depends only on the order they were played in, which the record keeps. A rank
EGN cannot write (``11H``, ``2S``) raises :class:`CardError`.
"""

from __future__ import annotations

import re

EGN_CARD = re.compile(r"^(?:[78N9TJQKAX][SsHhCcDdxtngh]|[LRB])$")
SUITS = {"s": "S", "h": "H", "c": "C", "d": "D"}
JOKER, EGN_JOKER = "JK", "B"
BOWERS = ("R", "L")


class CardError(ValueError):
    """An EGN card that names no card of a pack (unknown or generic): ``unsupported``."""


def from_egn(raw: str, trump: str | None = None, colours: dict[str, str] | None = None) -> str:
    """Our token for EGN card ``raw`` (``"Jd"`` -> ``"JD"``, ``"B"`` -> ``"JK"``, ``"Nc"`` -> ``"9C"``).

    ``R`` and ``L`` need the trump suit in force (and the pack's colours for the left bower);
    without it they raise :class:`CardError`."""
    if not isinstance(raw, str) or not EGN_CARD.match(raw):
        raise CardError(f"{raw!r} is not an EGN card")
    if raw == EGN_JOKER:
        return JOKER
    if raw in BOWERS:
        if trump is None or trump not in SUITS.values() or colours is None:
            raise CardError(f"{raw!r} (a bower) names no card while trumps are not a suit")
        if raw == "R":
            return "J" + trump
        mates = [s for s, colour in colours.items() if s != trump and colour == colours.get(trump)]
        if not mates:
            raise CardError(f"{raw!r}: the pack has no suit of the trump suit's colour")
        return "J" + mates[0]
    rank, suit = raw[0], raw[1].lower()
    if rank == "X" or suit not in SUITS:
        raise CardError(f"{raw!r} is an unknown or generic card (EGN's X, x, t, n, g): it names no card")
    return ("9" if rank == "N" else rank) + SUITS[suit]


def to_egn(card: str) -> str:
    """EGN's canonical token for our card (``"JD"`` -> ``"Jd"``, ``"JK"`` -> ``"B"``; any copy of a
    card as the card: ``"AS.2"`` -> ``"As"``)."""
    card = card.partition(".")[0]
    if card == JOKER:
        return EGN_JOKER
    rank, suit = card[:-1], card[-1:]
    if len(rank) != 1 or rank not in "789TJQKA" or suit.lower() not in SUITS:
        raise CardError(f"{card!r}: EGN has no card of rank {rank!r} (its ranks are seven to ace)")
    return rank + suit.lower()


def is_bower_alias(raw: str) -> bool:
    return raw in BOWERS
