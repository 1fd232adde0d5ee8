"""Cards, suits and seats drawn as HTML for the rules site.

A card is a ``<span class="es-card">`` holding its rank and its suit symbol, coloured by
the suit's colour in the rule table (``deck.colours``), so ♥ and ♦ are red and ♣ and ♠
black in every variant that says so. The text is plain Unicode: no image, no web font.
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterable, Mapping

from reference_impl.cards import JOKER, SUIT_NAMES, SUIT_SYMBOLS, card_name

DEFAULT_COLOURS = {"C": "black", "D": "red", "H": "red", "S": "black"}
RANK_TEXT = {"T": "10"}


def colours_of(table: Mapping[str, Any] | None) -> dict[str, str]:
    """The suit colours of a rule table (the usual ones when it names none)."""
    if table and isinstance(table.get("deck", {}).get("colours"), dict):
        return {**DEFAULT_COLOURS, **table["deck"]["colours"]}
    return dict(DEFAULT_COLOURS)


def suit_html(suit: str, colours: Mapping[str, str] | None = None, *, name: bool = False) -> str:
    """A suit symbol in its colour (``NT`` is no-trumps); with ``name``, followed by its name."""
    if suit == "NT":
        return "no-trumps" if name else '<span class="es-suit es-nt" title="no-trumps">NT</span>'
    colour = (colours or DEFAULT_COLOURS).get(suit, "black")
    symbol = SUIT_SYMBOLS.get(suit, escape(suit))
    html = f'<span class="es-suit es-{colour}" title="{SUIT_NAMES.get(suit, suit)}">{symbol}</span>'
    return html + (f" {SUIT_NAMES.get(suit, suit)}" if name else "")


def card_html(card: str, colours: Mapping[str, str] | None = None, *, mark: str = "") -> str:
    """One card as a small face: rank and suit symbol, in the suit's colour.

    ``mark`` adds a class: ``win`` (the card that took the trick), ``out`` (not played)."""
    extra = f" es-{mark}" if mark else ""
    if card == JOKER:
        return f'<span class="es-card es-joker{extra}" title="joker">Jo<span class="es-star">★</span></span>'
    if len(card) != 2 or card[1] not in SUIT_SYMBOLS:
        return f'<span class="es-card{extra}">{escape(card)}</span>'
    colour = (colours or DEFAULT_COLOURS).get(card[1], "black")
    rank = RANK_TEXT.get(card[0], card[0])
    return (f'<span class="es-card es-{colour}{extra}" title="{card_name(card)}">'
            f'{rank}{SUIT_SYMBOLS[card[1]]}</span>')


def cards_html(cards: Iterable[str], colours: Mapping[str, str] | None = None, *, empty: str = "none") -> str:
    """A row of cards (``empty`` when there are none)."""
    cards = list(cards)
    if not cards:
        return f'<span class="es-none">{escape(empty)}</span>'
    return '<span class="es-cards">' + "".join(card_html(c, colours) for c in cards) + "</span>"


def card_back_html(count: int) -> str:
    """``count`` cards face down."""
    return '<span class="es-cards">' + '<span class="es-card es-back" title="face down">&nbsp;</span>' * count + "</span>"


def seat_label(seat: int | None) -> str:
    return "nobody" if seat is None else f"Seat {seat}"
