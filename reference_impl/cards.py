"""Card and suit notation shared by the tables, the cases and the protocol.

A card is its rank then its suit: ``9C``, ``TD`` (ten), ``JH``, ``AS``; the joker is
``JK``. Suits are ``C D H S``; ``NT`` stands for no-trumps where a strain is named.

Ranks are not a fixed vocabulary: a pack lists its own (``deck.ranks``), each a digit
``2``-``9``, ``T`` for the ten, a two-digit number from ``11`` (the elevens, twelves and
thirteens of larger packs: ``11H``, ``13D``), or a capital letter (``J Q K A`` and any other).
The suit is always the last letter of the card (before a copy suffix), the rank the rest.

A pack that holds every card more than once (``deck.copies``) names the copies apart with
a suffix: the first copy keeps the plain token, the second is ``AS.2``, the third ``AS.3``.
A single-copy pack therefore has exactly the tokens it always had.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_NAMES = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
              "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
              "11": "eleven", "12": "twelve", "13": "thirteen", "14": "fourteen", "15": "fifteen",
              "16": "sixteen", "17": "seventeen", "18": "eighteen", "19": "nineteen"}
JOKER = "JK"
NO_TRUMP = "NT"
COPY_SEPARATOR = "."
RANK = r"(?:1[1-9]|[2-9A-Z])"
RANK_PATTERN = re.compile(rf"^{RANK}$")
CARD_PATTERN = re.compile(rf"^(?:{RANK}[CDHS]|JK)(?:\.[2-9])?$")
CONVENTIONAL = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")


def is_card(token: str) -> bool:
    return isinstance(token, str) and bool(CARD_PATTERN.match(token))


def base_of(card: str) -> str:
    """The card without its copy suffix: ``AS.2`` -> ``AS``."""
    return card.partition(COPY_SEPARATOR)[0]


def copy_of(card: str) -> int:
    """Which copy of its card ``card`` is: 1 for a plain token, 2 for ``AS.2``."""
    _, dot, number = card.partition(COPY_SEPARATOR)
    return int(number) if dot else 1


def copy_token(card: str, copy: int) -> str:
    """The token of copy ``copy`` of ``card`` (the first copy is the plain token)."""
    return card if copy == 1 else f"{card}{COPY_SEPARATOR}{copy}"


def rank_of(card: str) -> str | None:
    """The rank of a card, or None for the joker."""
    base = base_of(card)
    return None if base == JOKER else base[:-1]


def suit_of(card: str) -> str | None:
    """The printed suit of a card, or None for the joker."""
    base = base_of(card)
    return None if base == JOKER else base[-1]


def rank_name(rank: str) -> str:
    return RANK_NAMES.get(rank, rank)


def card_name(card: str) -> str:
    """``JH`` -> ``jack of hearts``, ``AS.2`` -> ``ace of spades (copy 2)``; for prose and errors."""
    base, copy = base_of(card), copy_of(card)
    name = "joker" if base == JOKER else f"{rank_name(base[:-1])} of {SUIT_NAMES[base[-1]]}"
    return name if copy == 1 else f"{name} (copy {copy})"


def pretty(card: str) -> str:
    """``JH`` -> ``J♥``; ``TD`` -> ``10♦``; ``AS.2`` -> ``A♠.2``."""
    base, copy = base_of(card), copy_of(card)
    if base == JOKER:
        text = "Jkr"
    else:
        rank = "10" if base[:-1] == "T" else base[:-1]
        text = rank + SUIT_SYMBOLS[base[-1]]
    return text if copy == 1 else f"{text}{COPY_SEPARATOR}{copy}"


def pack_cards(deck: Mapping[str, Any]) -> list[str]:
    """Every card of the pack: suit by suit in the table's order, each rank of ``ranks``,
    then the ``extra`` cards, less the ``without`` cards; with ``copies`` above one each card
    is followed by its other copies (``9C``, ``9C.2``, ``TC``, ...)."""
    without = set(deck.get("without", ()))
    single = [rank + suit for suit in deck["suits"] for rank in deck["ranks"] if rank + suit not in without]
    single += [c for c in deck.get("extra", []) if c not in without]
    copies = deck.get("copies", 1)
    if copies == 1:
        return single
    return [copy_token(card, k) for card in single for k in range(1, copies + 1)]


def rank_order(deck: Mapping[str, Any]) -> tuple[str, ...]:
    """Every rank of the pack, lowest first: ``ranks`` exactly as the table writes them,
    below them any rank found only among the ``extra`` cards (in the conventional order
    two to ace, then by name): a pack of fives to aces with two red fours ranks them under
    the fives."""
    listed = list(deck["ranks"])
    others = {rank_of(c) for c in deck.get("extra", [])} - set(listed) - {None}
    below = sorted(others, key=lambda r: (CONVENTIONAL.index(r) if r in CONVENTIONAL else len(CONVENTIONAL), r))
    return tuple(below + listed)
