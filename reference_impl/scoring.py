"""The scoring of a hand and the counts kept across hands, compiled from the table.

A row's ``when`` and each award's ``when`` are compiled conditions; an award's target
(``makers``, ``defenders``, ``maker``, ``partner``, ``everyone``, ``in-hand``) is resolved
against the sides of the hand in play, which the state computes once per hand. Scoring a
hand is: the first enabled row that holds, each of its awards to each of its units, then
the counters (and their conversion to points).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from .conditions import Predicate, compile_condition
from .errors import SpecError

if TYPE_CHECKING:                      # pragma: no cover
    from .rules import Rules
    from .state import State

TARGETS = ("makers", "defenders", "maker", "partner", "everyone", "in-hand")


@dataclass(frozen=True)
class Award:
    target: str
    when: Predicate | None
    fixed: int
    contract: int                    # times the contract's value
    bid_tricks: int                  # times the tricks bid
    per_trick: int                   # times the recipient's own tricks
    at_least: int | None
    total_at_most: int | None


@dataclass(frozen=True)
class Row:
    id: str
    when: Predicate
    awards: tuple[Award, ...]


@dataclass(frozen=True)
class CountRule:
    target: str
    when: Predicate | None
    add: int


@dataclass(frozen=True)
class Counter:
    id: str
    per_player: bool
    start: int
    rules: tuple[CountRule, ...]
    every: int                       # 0: no conversion
    points: int


def _award(rules: "Rules", spec: Mapping[str, Any]) -> Award:
    points = spec.get("points", 0)
    if isinstance(points, int):
        points = {"fixed": points}
    if not isinstance(points, dict):
        raise SpecError(f"points {points!r} left unresolved")
    return Award(spec["to"], compile_condition(rules, spec["when"]) if "when" in spec else None,
                 points.get("fixed", 0), points.get("contract-value", 0), points.get("bid-tricks", 0),
                 points.get("per-trick", 0), points.get("at-least"), points.get("total-at-most"))


def compile_rows(rules: "Rules", scoring: Mapping[str, Any]) -> tuple[Row, ...]:
    return tuple(Row(row["id"], compile_condition(rules, row["when"]), tuple(_award(rules, a) for a in row["award"]))
                 for row in scoring["rows"] if row.get("enabled", True))


def compile_counters(rules: "Rules", counters: list[Mapping[str, Any]]) -> tuple[Counter, ...]:
    out = []
    for spec in counters:
        convert = spec.get("convert") or {}
        out.append(Counter(spec["id"], spec["per"] == "player", spec.get("start", 0),
                           tuple(CountRule(c["to"], compile_condition(rules, c["when"]) if "when" in c else None,
                                           c.get("add", 1)) for c in spec["count"]),
                           convert.get("every", 0), convert.get("points", 0)))
    return tuple(out)


def recipients(state: "State", target: str, per_player: bool = False) -> list[int]:
    """The units (or, ``per_player``, the seats) a target names in the hand just played."""
    rules = state.rules
    side = state.maker_side()
    if per_player:
        seats = range(rules.n)
        if target == "makers":
            return [s for s in seats if s in side]
        if target == "defenders":
            return [s for s in seats if state.maker >= 0 and s not in side]
        if target == "maker":
            return [state.maker] if state.maker >= 0 else []
        if target == "partner":
            return [state.partner] if state.partner >= 0 else []
        if target == "in-hand":
            return [s for s in seats if state.active >> s & 1]
        return list(seats)
    units = range(len(rules.units))
    unit_of = rules.unit_of
    side_units = {unit_of[s] for s in side}
    if target == "makers":
        return sorted(side_units)
    if target == "defenders":
        return [u for u in units if state.maker >= 0 and u not in side_units]
    if target == "maker":
        return [unit_of[state.maker]] if state.maker >= 0 else []
    if target == "partner":
        return [unit_of[state.partner]] if state.partner >= 0 else []
    if target == "in-hand":
        return [u for u in units if any(state.active >> s & 1 for s in rules.units[u])]
    return list(units)


def award_points(state: "State", award: Award, unit: int, value: int, bid_tricks: int, score_before: int) -> int:
    amount = award.fixed + award.contract * value + award.bid_tricks * bid_tricks
    if award.per_trick:
        amount += award.per_trick * sum(state.tricks_won[s] for s in state.rules.units[unit])
    if award.at_least is not None and amount < award.at_least:
        amount = award.at_least
    if award.total_at_most is not None and score_before + amount > award.total_at_most:
        amount = max(0, award.total_at_most - score_before)
    return amount
