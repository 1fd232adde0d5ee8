"""The other readings of a table's data the clause tracer tries when an engine's points differ
(conformance/runner/table_readings.py): each reading is tied to its clause by data, and reads the
table otherwise in that one respect only."""

from __future__ import annotations

from conformance.runner.table_readings import _partitions, named_values, readings
from reference_impl.resolve import resolve


def test_seats_split_into_teams_every_way_once():
    # four seats in pairs: 0 with 1, 2 or 3 (three ways); six in threes: C(5,2) = 10 ways
    assert sorted(_partitions((0, 1, 2, 3), (2, 2))) == [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    assert len(set(_partitions((0, 1, 2, 3, 4, 5), (3, 3)))) == 10


def test_partnership_readings_cite_the_players_clause_and_change_only_the_teams():
    table = resolve("five-hundred-four").table
    found = [r for r in readings(table) if r.clauses == ("players",)]
    teams = sorted(tuple(map(tuple, r.table["players"]["teams"])) for r in found)
    assert teams == [((0, 1), (2, 3)), ((0, 3), (1, 2))]          # partners side by side, either way
    for reading in found:
        assert {k: v for k, v in reading.table.items() if k != "players"} == \
            {k: v for k, v in table.items() if k != "players"}
    assert table["players"]["teams"] == [[0, 2], [1, 3]]            # the table itself is untouched


def test_a_limit_is_read_away_only_where_a_clause_names_it():
    table = resolve("five-hundred-four").table
    assert ("defence-stops-at-490", ("scoring", "rows", "contract-set", "award", "1", "points", "total-at-most"), 490) \
        in list(named_values(table))
    [limit] = [r for r in readings(table) if r.clauses != ("players",)]
    assert limit.clauses == ("defence-stops-at-490",)
    capped = [a for row in table["scoring"]["rows"] for a in row["award"] if "total-at-most" in (a["points"] or {})]
    assert len(capped) == 3                                         # slam, made, set: the clause states it once
    assert not [a for row in limit.table["scoring"]["rows"] for a in row["award"]
                if isinstance(a["points"], dict) and "total-at-most" in a["points"]]
    # Three-handed Five Hundred's slam has a floor (at-least 250) that no clause names: no reading
    assert [r.clauses for r in readings(resolve("five-hundred").table)] == []


def test_a_table_of_single_players_has_no_partnership_reading():
    assert not [r for r in readings(resolve("buck-euchre").table) if r.clauses == ("players",)]
