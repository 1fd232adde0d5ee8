"""An independent reading of a resolved rule table, for checking the interpreter.

Written straight from the table's lists and rows, with none of the interpreter's
precomputed tables, bitmasks or indices: if the two disagree, one of them misreads the rules.
"""

from __future__ import annotations

from typing import Any


def _left_bower_suit(table: dict[str, Any], trump: str) -> str:
    colours = table["deck"]["colours"]
    return next(s for s in table["deck"]["suits"] if s != trump and colours[s] == colours[trump])


def has_bowers(table: dict[str, Any]) -> bool:
    return "right-bower" in table["ranking"]["trump"]


def effective_suit(table: dict[str, Any], card: str, trump: str) -> str | None:
    """The suit a card belongs to when ``trump`` (a suit letter) is trumps."""
    if card == table["ranking"].get("benny"):
        return trump
    if has_bowers(table) and card == "J" + _left_bower_suit(table, trump):
        return trump
    return None if card == "JK" else card[1]


def trump_strength(table: dict[str, Any], card: str, trump: str) -> int:
    """Higher is stronger; position read from the table's trump order."""
    order = table["ranking"]["trump"]
    if card == table["ranking"].get("benny"):
        name = "benny"
    elif has_bowers(table) and card == "J" + trump:
        name = "right-bower"
    elif has_bowers(table) and card == "J" + _left_bower_suit(table, trump):
        name = "left-bower"
    else:
        name = card[0]
    return len(order) - order.index(name)


def plain_strength(table: dict[str, Any], card: str) -> int:
    order = table["ranking"]["plain"]
    return len(order) - order.index(card[0])


def trick_winner(table: dict[str, Any], trump: str, plays: list[tuple[int, str]]) -> int:
    """The seat that wins a trick: highest trump, else highest card of the suit led."""
    trumps = [(seat, card) for seat, card in plays if effective_suit(table, card, trump) == trump]
    if trumps:
        return max(trumps, key=lambda sc: trump_strength(table, sc[1], trump))[0]
    led = effective_suit(table, plays[0][1], trump)
    following = [(seat, card) for seat, card in plays if effective_suit(table, card, trump) == led]
    return max(following, key=lambda sc: plain_strength(table, sc[1]))[0]


def legal_plays(table: dict[str, Any], trump: str, hand: list[str], trick: list[tuple[int, str]]) -> set[str]:
    """Follow the effective suit led if able; otherwise anything."""
    if not trick:
        return set(hand)
    led = effective_suit(table, trick[0][1], trump)
    follow = {card for card in hand if effective_suit(table, card, trump) == led}
    return follow or set(hand)


def hand_points(table: dict[str, Any], maker_tricks: int, alone: bool, defender_alone: bool,
                maker_unit: int, units: int) -> tuple[str, list[int]]:
    """Score an upcard-procedure hand from the table's rows: the first enabled row that matches."""
    for row in table["scoring"]["rows"]:
        if not row.get("enabled", True):
            continue
        when = row["when"]
        tricks = when.get("maker-tricks")
        if isinstance(tricks, int) and tricks != maker_tricks:
            continue
        if isinstance(tricks, list) and not tricks[0] <= maker_tricks <= tricks[1]:
            continue
        if "made" in when and when["made"] != (maker_tricks >= table["scoring"]["makers-need"]):
            continue
        if "alone" in when and when["alone"] != alone:
            continue
        if "defender-alone" in when and when["defender-alone"] != defender_alone:
            continue
        points = [0] * units
        for target, amount in row["award"].items():
            assert isinstance(amount, int), "the oracle scores fixed points only"
            for unit in range(units):
                if target == "everyone" or (target == "makers") == (unit == maker_unit):
                    points[unit] += amount
        return row["id"], points
    raise AssertionError(f"no row matches {maker_tricks} tricks")
