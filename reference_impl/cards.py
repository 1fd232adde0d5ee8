"""Card and suit notation shared by the tables, the cases and the protocol.

A card is its rank then its suit: ``9C``, ``TD`` (ten), ``JH``, ``AS``; the joker is
``JK``. Suits are ``C D H S``; ``NT`` stands for no-trumps where a strain is named.
"""

from __future__ import annotations

import re

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_NAMES = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
              "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
JOKER = "JK"
NO_TRUMP = "NT"
CARD_PATTERN = re.compile(r"^(?:[2-9TJQKA][CDHS]|JK)$")


def is_card(token: str) -> bool:
    return isinstance(token, str) and bool(CARD_PATTERN.match(token))


def rank_of(card: str) -> str | None:
    """The rank of a card, or None for the joker."""
    return None if card == JOKER else card[0]


def suit_of(card: str) -> str | None:
    """The printed suit of a card, or None for the joker."""
    return None if card == JOKER else card[1]


def card_name(card: str) -> str:
    """``JH`` -> ``jack of hearts``; for prose and error messages."""
    if card == JOKER:
        return "joker"
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def pretty(card: str) -> str:
    """``JH`` -> ``J♥``; ``TD`` -> ``10♦``."""
    if card == JOKER:
        return "Jkr"
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]
