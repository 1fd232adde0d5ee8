"""An independent reading of a resolved rule table, for checking the interpreter.

Written straight from the table's lists and rows, with none of the interpreter's
precomputed tables, bitmasks or indices: if the two disagree, one of them misreads the rules.
"""

from __future__ import annotations

from typing import Any

NT = "NT"


def _left_bower_suit(table: dict[str, Any], trump: str) -> str:
    colours = table["deck"]["colours"]
    return next(s for s in table["deck"]["suits"] if s != trump and colours[s] == colours[trump])


def has_bowers(table: dict[str, Any]) -> bool:
    return "right-bower" in table["ranking"]["trump"]


def master(table: dict[str, Any]) -> str | None:
    return (table["ranking"].get("no-trump") or {}).get("master")


def effective_suit(table: dict[str, Any], card: str, trump: str) -> str | None:
    """The suit a card belongs to when ``trump`` (a suit letter, or NT) is trumps."""
    if trump == NT:
        return None if card in (master(table), "JK", table["ranking"].get("benny")) else card[1]
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


def plain_strength(table: dict[str, Any], card: str, trump: str = "") -> int:
    order = table["ranking"]["no-trump"]["plain"] if trump == NT else table["ranking"]["plain"]
    return len(order) - order.index(card[0])


def led_suit(table: dict[str, Any], trump: str, plays: list[tuple[int, str]], named: str | None = None) -> str:
    """The suit of a trick: the effective suit of its first card, or the suit named for a
    master card led at no-trumps."""
    return named if effective_suit(table, plays[0][1], trump) is None else effective_suit(table, plays[0][1], trump)


def trick_winner(table: dict[str, Any], trump: str, plays: list[tuple[int, str]], named: str | None = None) -> int:
    """The seat that wins a trick: the master card at no-trumps, else the highest trump,
    else the highest card of the suit led."""
    if trump == NT:
        for seat, card in plays:
            if card == master(table):
                return seat
        led = led_suit(table, trump, plays, named)
        following = [(seat, card) for seat, card in plays if effective_suit(table, card, trump) == led]
        return max(following, key=lambda sc: plain_strength(table, sc[1], NT))[0]
    trumps = [(seat, card) for seat, card in plays if effective_suit(table, card, trump) == trump]
    if trumps:
        return max(trumps, key=lambda sc: trump_strength(table, sc[1], trump))[0]
    led = effective_suit(table, plays[0][1], trump)
    following = [(seat, card) for seat, card in plays if effective_suit(table, card, trump) == led]
    return max(following, key=lambda sc: plain_strength(table, sc[1]))[0]


def legal_plays(table: dict[str, Any], trump: str, hand: list[str], trick: list[tuple[int, str]],
                named: str | None = None) -> set[str]:
    """Follow the effective suit led if able; otherwise anything. At no-trumps the master
    card belongs to no suit: it never follows, but may be played any time where the table
    says so."""
    if not trick:
        return set(hand)
    led = led_suit(table, trump, trick, named)
    follow = {card for card in hand if effective_suit(table, card, trump) == led}
    if follow and trump == NT and (table["ranking"].get("no-trump") or {}).get("master-play") == "any-time":
        follow |= {card for card in hand if card == master(table)}
    return follow or set(hand)


def units(table: dict[str, Any]) -> list[list[int]]:
    """The scoring units: partnerships, or one per seat."""
    players = table["players"]
    if players["sides"] == "partnerships":
        return [list(group) for group in players["partnerships"]]
    return [[seat] for seat in range(players["count"])]


def hand_points(table: dict[str, Any], maker: int | None, tricks_won: list[int], alone: bool,
                defender_alone: bool, contract: str | None) -> tuple[str, list[int]]:
    """Score a hand from the table's rows: the first enabled row whose conditions hold."""
    groups = units(table)
    maker_unit = next((u for u, g in enumerate(groups) if maker in g), None)
    side = groups[maker_unit] if maker_unit is not None and table["players"]["sides"] == "partnerships" else \
        ([maker] if maker is not None else [])
    maker_tricks = sum(tricks_won[s] for s in side)
    value, made = 0, None
    if maker is not None:
        if contract is None:
            made = maker_tricks >= table["scoring"]["makers-need"]
        else:
            bid = next(b for b in table["bidding"]["auction"]["bids"] if b["id"] == contract)
            made = bid.get("tricks", 0) <= maker_tricks <= bid.get("at-most", sum(tricks_won))
            value = bid["value"]
    for row in table["scoring"]["rows"]:
        if not row.get("enabled", True):
            continue
        when = row["when"]
        tricks = when.get("maker-tricks")
        if isinstance(tricks, int) and tricks != maker_tricks:
            continue
        if isinstance(tricks, list) and not tricks[0] <= maker_tricks <= tricks[1]:
            continue
        if "made" in when and when["made"] != made:
            continue
        if "alone" in when and when["alone"] != alone:
            continue
        if "defender-alone" in when and when["defender-alone"] != defender_alone:
            continue
        if "contract" in when and (when["contract"] == "none") != (maker is None):
            continue
        if "bid" in when and contract not in when["bid"]:
            continue
        points = [0] * len(groups)
        for target, amount in row["award"].items():
            for unit, group in enumerate(groups):
                if target == "makers" and unit != maker_unit:
                    continue
                if target == "defenders" and (unit == maker_unit or maker_unit is None):
                    continue
                if isinstance(amount, int):
                    gained = amount
                else:
                    gained = amount.get("fixed", 0) + amount.get("contract-value", 0) * value \
                        + amount.get("per-trick", 0) * sum(tricks_won[s] for s in group)
                    if "at-least" in amount:
                        gained = max(gained, amount["at-least"])
                points[unit] += gained
        return row["id"], points
    raise AssertionError(f"no row matches {maker_tricks} tricks")
