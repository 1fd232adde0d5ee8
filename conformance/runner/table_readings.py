"""Other readings of a table's data, each with the clause that states the data read otherwise.

A hand's points follow from more than the scoring row that scored it: from which seats play
together (the partnerships) and from a limit on an award (Five Hundred's defenders never
passing 490). When an engine's points differ while its tricks agree, the clause tracer
(:mod:`conformance.runner.cited_clause`) replays the case under each reading here and cites the
clause of the first reading that gives the engine's value: the engine read that piece of
data otherwise. The same kind of evidence the tracer uses for a bower read as a plain card,
lifted to a table's data.

A reading is tied to a clause by data only: the partnerships to the table's clause of the
``players`` topic; a limit to a clause whose text names that limit's value by its path
(``{scoring.rows.contract-set.award.1.points.total-at-most}``: the prose shows the number the
table holds, so the two cannot drift apart). A limit no clause names has no reading.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Iterator

from reference_impl import patches

# The parts of an award's points that bound it: a reading leaves one out.
LIMITS = ("total-at-most", "at-least")
# The fields a reading of the partnerships or of a limit can explain.
SCORING_FIELDS = frozenset({"hand_points", "scores"})


@dataclass(frozen=True)
class Reading:
    """The table as an engine may have read it, and the clauses of what it read otherwise."""

    what: str                       # in words, for a reader of the code and of a failing test
    clauses: tuple[str, ...]
    table: dict[str, Any]


def readings(table: dict[str, Any]) -> Iterator[Reading]:
    """Every other reading of the table's partnerships and named limits."""
    yield from _partnerships(table)
    yield from _limits(table)


def _partnerships(table: dict[str, Any]) -> Iterator[Reading]:
    """The seats split into teams of the same sizes otherwise (partners side by side where
    they sit opposite): the clause of the ``players`` topic states who plays with whom."""
    players = table.get("players") or {}
    teams = players.get("teams")
    clauses = tuple(c["id"] for c in table.get("clauses") or [] if c.get("topic") == "players")
    if not clauses or not isinstance(teams, list) or len(teams) < 2:
        return
    actual = _canonical(teams)
    for other in _partitions(tuple(sorted(s for team in teams for s in team)), tuple(len(team) for team in teams)):
        if _canonical(other) == actual:
            continue
        changed = copy.deepcopy(table)
        changed["players"]["teams"] = [list(team) for team in other]
        yield Reading(f"the partnerships {other}", clauses, changed)


def _canonical(teams: Any) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(team) for team in teams)


def _partitions(seats: tuple[int, ...], sizes: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """The seats split into groups of these sizes, in every way (the first group holding the
    lowest seat, so that no split is given twice when the sizes are equal)."""
    if not sizes:
        if not seats:
            yield ()
        return
    first, rest = seats[0], seats[1:]
    for others in combinations(rest, sizes[0] - 1):
        group = (first, *others)
        left = tuple(s for s in rest if s not in others)
        for tail in _partitions(left, sizes[1:]):
            yield (group, *tail)


def named_values(table: dict[str, Any]) -> Iterator[tuple[str, tuple[str, ...], Any]]:
    """(clause id, path, value) for every table value a clause's text names."""
    for clause in table.get("clauses") or []:
        for match in patches.PLACEHOLDER.finditer(str(clause.get("text", ""))):
            path = patches.split(match.group(1))     # as the rules site fills it in
            try:
                yield clause["id"], path, patches.get(table, path)
            except patches.PatchError:
                continue            # `corpus lint` and the site report a placeholder that names nothing


def _limits(table: dict[str, Any]) -> Iterator[Reading]:
    """A limit on the scoring rows' awards left out, where a clause names it: every award
    holding the same limit loses it (the clause states it once for every row it bounds)."""
    seen: set[tuple[str, Any]] = set()
    for clause, path, value in named_values(table):
        if len(path) < 2 or path[0] != "scoring" or path[-1] not in LIMITS or path[-2] != "points":
            continue
        key = path[-1]
        if (key, value) in seen:
            continue
        seen.add((key, value))
        changed = copy.deepcopy(table)
        for row in changed["scoring"].get("rows") or []:
            for award in row.get("award") or []:
                points = award.get("points")
                if isinstance(points, dict) and points.get(key) == value:
                    del points[key]
                    if not points:
                        award["points"] = 0
        yield Reading(f"no {key} {value}", (clause,), changed)
