"""A table's scoring rows in the order a reader meets them at the table: the commonest hand
first (the makers take three or four tricks), the rare ones last (a lone defender's march).

A table lists its rows in the order the engine tries them (the first that matches scores),
which puts the most particular row first: Euchre's opens with the lone defender's 4 points.
Pages list them by how rare the hand is instead, judged from each row's condition: a lone
defence is rarer than a lone hand, which is rarer than a hand played with partners; taking
every trick or none is rarer than taking some; a set contract is rarer than a made one; a
hand nobody bids is rare. Rows equally rare keep the table's order.
"""

from __future__ import annotations

from typing import Any, Mapping

from .words import hand_size


def _tricks_rarity(value: Any, tricks: int, need: int) -> float:
    """How rare an outcome of the makers' tricks is: enough (0), too few (1), all (2), none (3)."""
    low, high = (value if isinstance(value, list) and len(value) == 2 else (value, value) if isinstance(value, int)
                 else (None, None))
    if low is None:
        return 0.0
    if low == high == 0:
        return 3.0
    if tricks and low >= tricks:
        return 2.0
    return 1.0 if high < need else 0.0


def rarity(row: Mapping[str, Any], table: Mapping[str, Any]) -> float:
    """A row's rarity: 0 for the commonest hand; higher for rarer ones."""
    when = row.get("when") or {}
    try:
        tricks = hand_size(table)
    except (KeyError, TypeError):
        tricks = 0
    need = (table.get("scoring") or {}).get("makers-need") or tricks // 2 + 1
    score = 0.0
    for key, value in when.items():
        if key == "defender-alone" and value:
            score += 3.5
        elif key == "alone" and value is True or key == "partner" and value == "none":
            score += 2.0
        elif key == "maker-tricks":
            score += _tricks_rarity(value, tricks, need)
        elif key == "made":
            score += 0.0 if value else 1.0
        elif key == "contract" and value == "none":
            score += 2.5
        elif key == "bid":                       # a particular bid (the moon, a lone bid): rarer than any bid
            score += 2.0
        elif key == "any" and isinstance(value, list) and value:
            score += min(rarity({"when": alt}, table) for alt in value if isinstance(alt, Mapping)) if any(
                isinstance(alt, Mapping) for alt in value) else 0.5
        elif key in ("alone", "made"):
            continue
        else:
            score += 0.5
    return score


def by_commonness(rows: list[Mapping[str, Any]], table: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The rows, commonest first (a stable sort: ties keep the table's order)."""
    return sorted(rows, key=lambda row: rarity(row, table))


def row_order(table: Mapping[str, Any]) -> dict[str, int]:
    """Each scoring row's place, commonest first, by id."""
    rows = [r for r in (table.get("scoring") or {}).get("rows") or [] if isinstance(r, Mapping) and "id" in r]
    return {row["id"]: index for index, row in enumerate(by_commonness(rows, table))}


__all__ = ["rarity", "by_commonness", "row_order"]
