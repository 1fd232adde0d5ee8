"""EGN match files (EMN, ``.emn``): each game read with the match's players and replayed, one
case per game, the match's stated result checked against its games, and a match written by
``egn export --match`` read back. The games are played here by the reference interpreter and
written as EGN by our own exporter; no EGN file is used."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.egn.check import MATCH_RESULT, check_match, check_path
from conformance.egn.export import game_from_events, to_egn
from conformance.egn.importer import build_case, load_game
from conformance.egn.match import build_match, encode_match, read_match
from conformance.egn.record import FLAGS, EgnInvalid
from conformance.egn.ruleset import options_for_flags
from reference_impl import load_rules, new_game
from reference_impl.selfplay import random_action

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "egn"
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
SEATS = [["Ann", "Ben", "Cat", "Dan"], ["Ben", "Ann", "Dan", "Cat"], ["Eve", "Ben", "Ann", "Dan"]]


def played_game(seed: int, players: list[str], num_deals: int | None = None) -> dict:
    """A whole game of random legal play, from 6-6 (or a game of ``num_deals`` deals), as EGN."""
    flags = {flag: default for flag, (_, default) in FLAGS.items()}
    if num_deals:
        flags.update(num_deals=num_deals, winning_score=0)
    rules = load_rules("euchre", options_for_flags(flags))
    rng = random.Random(seed)
    state = new_game(rules, dealer=rng.randrange(4), scores=None if num_deals else [6, 6])
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal_random(rng)
        else:
            state.apply(random_action(rng, state))
    dealer, hands = game_from_events(rules, state.events)
    record = to_egn(rules, dealer, hands, scores=None if num_deals else [6, 6], title=f"game {seed}", players=players)
    assert record["metadata"]["finalScore"] == state.scores
    return record


@pytest.fixture(scope="module")
def games() -> list[dict]:
    return [played_game(seed, seats) for seed, seats in enumerate(SEATS)]


def write(tmp_path: Path, data: dict, name: str = "match.emn") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def wins_by_hand(games: list[dict]) -> dict[str, int]:
    """Each player's games won, counted from each game's final score and seats 0/2 against 1/3."""
    wins = dict.fromkeys(NAMES, 0)
    for game in games:
        final, seats = game["metadata"]["finalScore"], game["metadata"]["players"]
        for seat in ((0, 2) if final[0] > final[1] else (1, 3)):
            wins[seats[seat]] += 1
    return wins


def test_a_match_gives_one_case_per_game_with_the_matchs_players(games, tmp_path):
    match = build_match(games, title="Club night")
    ids = {p["name"]: p["id"] for p in match["metadata"]["players"]}
    assert list(ids) == NAMES and list(ids.values()) == ["p-01", "p-02", "p-03", "p-04", "p-05"]
    assert [g["players"] for g in match["games"]] == [[ids[n] for n in seats] for seats in SEATS]
    path = write(tmp_path, match)
    report = check_match(path)
    assert report.ok, report.message
    assert [g.ok for g in report.games] == [True, True, True]
    for position, (game, seats) in enumerate(zip(report.games, SEATS), 1):
        case = game.case()
        assert case["id"] == f"egn-match-game-{position}"
        alone = tmp_path / f"alone-{position}.egn"
        alone.write_text(json.dumps(games[position - 1]), encoding="utf-8")
        single = build_case(load_game(alone), alone)
        assert {k: v for k, v in case.items() if k not in ("id", "description")} == \
            {k: v for k, v in single.items() if k not in ("id", "description")}
        assert f"Game {position} of the match 'Club night' (match.emn), players by seat: " \
               + ", ".join(f"{ids[n]} {n}" for n in seats) in case["description"]
        assert f"players by seat {json.dumps(seats)}" in case["description"]


def test_the_matchs_result_is_checked_against_its_games(games, tmp_path):
    match = build_match(games)
    expected = wins_by_hand(games)
    ids = {p["name"]: p["id"] for p in match["metadata"]["players"]}
    assert match["metadata"]["result"]["scores"] == {ids[n]: w for n, w in expected.items()}
    report = check_match(write(tmp_path, match))
    assert report.ok and "the file's result agrees" in report.message
    assert report.scores == {ids[n]: w for n, w in expected.items()}
    best = max(expected.values())
    assert sorted(report.winners) == sorted(ids[n] for n, w in expected.items() if w == best)

    wrong = copy.deepcopy(match)
    wrong["metadata"]["result"]["scores"]["p-05"] = expected["Eve"] + 1
    report = check_match(write(tmp_path, wrong))
    assert report.kind == MATCH_RESULT
    assert f"p-05 has {expected['Eve'] + 1}, the games give {expected['Eve']}" in report.message
    wrong["metadata"]["result"]["scores"]["p-09"] = 1
    assert "'p-09' is no player of the match" in check_match(write(tmp_path, wrong)).message


def test_a_progressive_match_adds_each_sides_points(tmp_path):
    games = [played_game(seed, seats, num_deals=2) for seed, seats in enumerate(SEATS)]
    match = build_match(games, fmt="PROGRESSIVE")
    report = check_match(write(tmp_path, match))
    assert report.ok, report.message
    points = dict.fromkeys(NAMES, 0)
    for game in games:
        final, seats = game["metadata"]["finalScore"], game["metadata"]["players"]
        for seat, name in enumerate(seats):
            points[name] += final[seat % 2]
    ids = {p["name"]: p["id"] for p in match["metadata"]["players"]}
    assert report.scores == {ids[n]: p for n, p in points.items()}
    assert report.message.startswith("3 game(s); points:")


def test_a_defective_game_is_refused_at_its_defect_and_the_others_still_read(games, tmp_path):
    bad = json.loads((FIXTURES / "defect-revoke.egn").read_text(encoding="utf-8"))
    match = build_match([games[0], bad, games[2]])
    match["metadata"]["result"] = {"status": "COMPLETED", "winner": ["p-01"], "scores": {"p-01": 1}}
    report = check_match(write(tmp_path, match))
    single = load_game(FIXTURES / "defect-revoke.egn").defect
    assert [g.kind for g in report.games] == [None, single.kind, None]
    assert report.games[1].where() == single.where()
    assert report.ok and "the file's result is not checked: game 2 (revoke)" in report.message


def test_an_old_game_in_a_match_is_upgraded_and_a_broken_one_is_refused_at_its_path(games, tmp_path):
    old = copy.deepcopy(games[1])
    old["version"] = "1.0.0"
    for deal in old["deals"]:
        deal["initialState"]["player_cards"] = deal["initialState"].pop("playerCards")
    broken = copy.deepcopy(games[2])
    broken["deals"][0]["initialState"]["upCard"] = "10h"
    report = check_match(write(tmp_path, build_match([games[0], old, broken])))
    assert report.games[1].ok and report.games[1].reading.startswith("EGN 1.0.0 (gameIndex 1 of a match, JSON), upgraded")
    assert report.games[2].kind == "invalid"
    assert "$.games[2].gameData.deals[0].initialState.upCard: '10h' is not an EGN card" in report.games[2].message


@pytest.mark.parametrize("damage, where", [
    (lambda m: m["games"][1]["players"].__setitem__(2, "p-77"), "$.games[1].players[2]: player id 'p-77' (seat 2)"),
    (lambda m: m["games"][0]["players"].pop(), "$.games[0].players: fewer than 4 items"),
    (lambda m: m["metadata"]["players"][1].__setitem__("id", "p-01"), "$.metadata.players[1].id: player id 'p-01'"),
    (lambda m: m["metadata"].update(matchFormat={"type": "BEST_OF_SEVEN"}), "$.metadata.matchFormat.type"),
    (lambda m: m.update(version="2.0"), "$.version: '2.0' is not a version of EMN"),
    (lambda m: m["games"][0].update(gameData=[]), "$.games[0].gameData: expected an object"),
])
def test_a_damaged_match_is_refused_at_its_path(games, tmp_path, damage, where):
    match = build_match(games)
    damage(match)
    with pytest.raises(EgnInvalid) as caught:
        read_match(write(tmp_path, match))
    assert where in str(caught.value)


def test_a_binary_match_reads_as_its_json_form(games, tmp_path):
    match = build_match(games, title="Binary night", target=3)
    path = tmp_path / "match.emnb"
    path.write_bytes(encode_match(match))
    binary, plain = read_match(path), read_match(write(tmp_path, match))
    assert binary.form == "binary" and (binary.name, binary.format, binary.target) == ("Binary night", "FIXED_GAMES", 3)
    assert [p.__dict__ for p in binary.players] == [p.__dict__ for p in plain.players]
    assert binary.result == plain.result
    assert [g.record.deals for g in binary.games] == [g.record.deals for g in plain.games]
    assert check_path(path).ok


def test_export_match_then_import_gives_the_same_games(games, tmp_path):
    cases = tmp_path / "cases"
    files = []
    for i, game in enumerate(games):
        files.append(write(tmp_path, game, f"g{i}.egn"))
    cli = [sys.executable, "-m", "conformance.cli", "egn"]
    run = lambda *args: subprocess.run([*cli, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)  # noqa
    result = run("import", "-o", str(cases), *map(str, files))
    assert result.returncode == 0, result.stdout + result.stderr
    match = tmp_path / "out" / "night.emn"
    result = run("export", "--match", str(match), "--title", "Night", *sorted(map(str, cases.glob("*.yaml"))))
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads(match.read_text(encoding="utf-8"))
    assert [p["name"] for p in data["metadata"]["players"]] == NAMES          # names kept through the cases
    again = tmp_path / "again"
    result = run("import", "-o", str(again), str(match))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "match 'Night': 3 game(s); games won:" in result.stdout and "the file's result agrees" in result.stdout
    import yaml
    for i in range(3):
        first = yaml.safe_load((cases / f"egn-g{i}.yaml").read_text(encoding="utf-8"))
        second = yaml.safe_load((again / f"egn-night-game-{i + 1}.yaml").read_text(encoding="utf-8"))
        assert second["hands"] == first["hands"] and second["expect"] == first["expect"]
    lines = [json.loads(line) for line in run("check", "--json", str(match)).stdout.splitlines()]
    assert [line.get("ok") for line in lines] == [True] * 4 and lines[-1]["match"] == "Night"
    assert run("export", "--match", str(match), "-o", str(tmp_path), str(cases)).returncode == 2


def test_the_match_names_the_players_where_a_game_names_them_otherwise(games, tmp_path):
    match = build_match(games)
    match["metadata"]["players"][0]["name"] = "Annie"           # p-01: the games call her Ann
    report = check_match(write(tmp_path, match))
    assert report.ok
    assert "game 1: seat 0: the game names 'Ann', the match p-01 'Annie' (the match's name is used)" in report.notes
    case = report.games[0].case()
    assert 'players by seat ["Annie", "Ben", "Cat", "Dan"]' in case["description"]
