"""EGN match files (EMN, ``.emn``): several games of one pool of players, read and written.

Written from EGN's match specification (``docs/emn/match-specification.md``) and what its
``emn-match-combine`` tool does. A match names each player once (``metadata.players``, with
an ``id``), gives each game the ids of its four seats (``games[i].players``; seats 0 and 2
are one side), embeds each game whole (``gameData``, an EGN record of any version) and may
state a result: a status, the winners and a score per player id.

The score of a player is *format-aware*, as the combine tool computes it: in a match of
``PROGRESSIVE`` format, or of games played to a number of deals, each player adds the
points of his side in every game he plays; otherwise each player adds one for every game
his side wins. The winners are the players with the highest score (none if it is 0).
:func:`match_scores` computes them from the replayed games; :mod:`.check` compares them
with the file's result.

A binary match file starts with the byte ``0x02``, its games as EGN JSON text or as a
binary record (:mod:`.binary_schema`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from google.protobuf.message import DecodeError

from reference_impl.errors import Problem

from .binary import BinaryError, decode as decode_binary
from .binary_schema import MAGIC_MATCH, enum_names, message_class
from .record import EgnError, EgnInvalid, MATCH_FILE_TYPE, Record, _Checker, decode_json, parse_record, read_bytes

MATCH_VERSION = "1.0"
FORMATS = ("BEST_OF_N", "PROGRESSIVE", "ROUND_ROBIN", "CUSTOM", "FIXED_GAMES", "TARGET_SCORE", "ELIMINATION", "SWISS",
           "TIMED", "SINGLE_GAME")
STATUSES = ("COMPLETED", "IN_PROGRESS", "FORFEIT", "DRAW")


@dataclass
class MatchPlayer:
    id: str
    name: str
    player_ids: list[dict[str, str]] = field(default_factory=list)


@dataclass
class MatchGame:
    """One game of a match: its index, the player ids by seat, and its record (or why it
    could not be read)."""

    index: int
    player_ids: list[str]
    record: Record | None
    error: EgnError | None = None
    notes: list[str] = field(default_factory=list)


@dataclass
class Match:
    file: str
    version: str
    title: str | None
    match_id: str | None
    players: list[MatchPlayer]
    format: str | None
    target: int | None
    result: dict[str, Any] | None
    games: list[MatchGame]
    form: str = "JSON"

    @property
    def name(self) -> str:
        return self.title or self.match_id or Path(self.file).stem

    def player(self, ident: str) -> MatchPlayer | None:
        return next((p for p in self.players if p.id == ident), None)


def is_match(path: str | Path, raw: bytes) -> bool:
    """An EMN file: named ``.emn``, a binary match (first byte 2), or JSON whose fileType says so."""
    if str(path).lower().endswith(".emn") or (raw[:1] == bytes([MAGIC_MATCH])):
        return True
    head = raw[:256].decode("utf-8", "replace")
    return f'"{MATCH_FILE_TYPE}"' in head and '"fileType"' in head


def read_match(path: str | Path) -> Match:
    """Read and check a match file; each game is read as an EGN record of its own (a game that
    cannot be read is kept with its error, so the others are still checked)."""
    file = str(path)
    raw = read_bytes(path)
    if raw[:1] == bytes([MAGIC_MATCH]):
        return parse_match(_binary_match(raw, file), file, form="binary")
    return parse_match(decode_json(raw, file), file)


def _binary_match(raw: bytes, file: str) -> dict[str, Any]:
    try:
        message = message_class("match", "MatchFile").FromString(raw[1:])
    except DecodeError as exc:
        raise EgnInvalid([Problem(file, "$", f"not a binary match file (EMN): {exc}")]) from None
    meta = message.metadata
    data: dict[str, Any] = {"fileType": message.file_type, "version": message.version}
    m: dict[str, Any] = {}
    for name, key in (("match_id", "matchId"), ("title", "title"), ("description", "description"), ("date", "date")):
        if meta.HasField(name):
            m[key] = getattr(meta, name)
    m["players"] = [{"id": p.id, "name": p.name, "playerIds": [{"id": i.id, "source": i.source} for i in p.player_ids]}
                    for p in meta.players]
    if meta.HasField("match_format"):
        m["matchFormat"] = {"type": enum_names("match", "MatchFormat.MatchType").get(meta.match_format.type, "CUSTOM")}
        if meta.match_format.HasField("target"):
            m["matchFormat"]["target"] = meta.match_format.target
    if meta.HasField("result"):
        r = meta.result
        m["result"] = {"status": enum_names("match", "MatchResult.Status").get(r.status, "COMPLETED"),
                       "winner": list(r.winner), "scores": {k: _number(v) for k, v in r.scores.items()}}
    data["metadata"] = m
    games = []
    for i, g in enumerate(message.games):
        entry: dict[str, Any] = {"gameIndex": g.game_index, "players": list(g.players)}
        kind = g.WhichOneof("game_data")
        try:
            if kind == "egn_json":
                entry["gameData"] = decode_json(g.egn_json, file, f"$.games[{i}].gameData")
            elif kind == "egn_protobuf_bytes":
                entry["gameData"] = decode_binary(g.egn_protobuf_bytes)[0]
            else:
                entry["gameData"] = {}
        except (json.JSONDecodeError, BinaryError) as exc:
            raise EgnInvalid([Problem(file, f"$.games[{i}].gameData", f"the embedded game does not decode: {exc}")]) from None
        games.append(entry)
    data["games"] = games
    return data


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def parse_match(data: Any, file: str, form: str = "JSON") -> Match:
    """Check a match's structure (EMN's schema and its rules on player ids) and read its games."""
    c = _Checker(file)
    if not c.obj(data, "$", ("fileType", "version", "metadata", "games"), ("fileType", "version", "metadata", "games")):
        raise EgnInvalid(c.problems)
    if data.get("fileType") != MATCH_FILE_TYPE:
        c.bad("$.fileType", f"must be {MATCH_FILE_TYPE!r}")
    version = data.get("version")
    if not (isinstance(version, str) and (version == "1.0" or version.startswith("1.0."))):
        c.bad("$.version", f"{version!r} is not a version of EMN (1.0)")
    meta = data.get("metadata")
    players: list[MatchPlayer] = []
    fmt: str | None = None
    target: int | None = None
    result: dict[str, Any] | None = None
    if c.obj(meta, "$.metadata", ("matchId", "title", "description", "date", "players", "matchFormat", "result"),
             ("players",)):
        for key, limit in (("matchId", 64), ("title", 128), ("description", 1024), ("date", 64)):
            if key in meta:
                c.text(meta[key], f"$.metadata.{key}", limit)
        raw_players = meta.get("players")
        if c.array(raw_players, "$.metadata.players", 1000, 1):
            seen: set[str] = set()
            for i, p in enumerate(raw_players):
                where = f"$.metadata.players[{i}]"
                if not c.obj(p, where, ("id", "name", "playerIds"), ("id", "name")):
                    continue
                ident = p.get("id")
                if not c.text(ident, f"{where}.id", 64):
                    continue
                if ident in seen:
                    c.bad(f"{where}.id", f"player id {ident!r} is given twice")
                seen.add(ident)
                name = p.get("name") if c.text(p.get("name"), f"{where}.name", 64) else ""
                ids: list[dict[str, str]] = []
                if "playerIds" in p and c.array(p["playerIds"], f"{where}.playerIds", 10):
                    for k, x in enumerate(p["playerIds"]):
                        at = f"{where}.playerIds[{k}]"
                        if c.obj(x, at, ("id", "source"), ("id", "source")) and \
                                c.text(x.get("id"), f"{at}.id", 64) and c.text(x.get("source"), f"{at}.source", 64):
                            ids.append({"id": x["id"], "source": x["source"]})
                players.append(MatchPlayer(ident, name, ids))
        mf = meta.get("matchFormat")
        if "matchFormat" in meta and c.obj(mf, "$.metadata.matchFormat", ("type", "target"), ("type",)):
            if mf.get("type") not in FORMATS:
                c.bad("$.metadata.matchFormat.type", f"{mf.get('type')!r} is not a match format ({', '.join(FORMATS)})")
            else:
                fmt = mf["type"]
            if "target" in mf and c.integer(mf["target"], "$.metadata.matchFormat.target", 1):
                target = mf["target"]
        res = meta.get("result")
        if "result" in meta and c.obj(res, "$.metadata.result", ("status", "winner", "scores"), ()):
            result = {}
            if "status" in res:
                if res["status"] in STATUSES:
                    result["status"] = res["status"]
                else:
                    c.bad("$.metadata.result.status", f"{res['status']!r} is not a status ({', '.join(STATUSES)})")
            if "winner" in res and c.array(res["winner"], "$.metadata.result.winner", 1000):
                if all(c.text(w, f"$.metadata.result.winner[{i}]", 64) for i, w in enumerate(res["winner"])):
                    result["winner"] = list(res["winner"])
            if "scores" in res:
                if not isinstance(res["scores"], dict):
                    c.bad("$.metadata.result.scores", "expected an object (player id -> score)")
                else:
                    scores = {}
                    for key, value in res["scores"].items():
                        if isinstance(value, bool) or not isinstance(value, (int, float)):
                            c.bad(f"$.metadata.result.scores.{key}", "expected a number")
                        else:
                            scores[key] = value
                    result["scores"] = scores
    known = {p.id for p in players}
    games: list[MatchGame] = []
    if c.array(data.get("games"), "$.games", 1000):
        for i, g in enumerate(data["games"]):
            where = f"$.games[{i}]"
            if not c.obj(g, where, ("gameIndex", "players", "gameData"), ("gameIndex", "players", "gameData")):
                continue
            index = g.get("gameIndex") if isinstance(g.get("gameIndex"), int) else i
            c.integer(g.get("gameIndex"), f"{where}.gameIndex", 0)
            seats: list[str] = []
            if c.array(g.get("players"), f"{where}.players", 4, 4):
                for s, ident in enumerate(g["players"]):
                    if not c.text(ident, f"{where}.players[{s}]", 64):
                        continue
                    if ident not in known:
                        c.bad(f"{where}.players[{s}]", f"player id {ident!r} (seat {s}) is not in metadata.players")
                    if ident in seats:
                        c.bad(f"{where}.players[{s}]", f"player id {ident!r} sits twice in game {i}")
                    seats.append(ident)
            if not isinstance(g.get("gameData"), dict):
                c.bad(f"{where}.gameData", "expected an object (an EGN game)")
                continue
            games.append(_game(g["gameData"], file, where, index, seats, form))
    if c.problems:
        raise EgnInvalid(c.problems)
    match = Match(file, version, meta.get("title"), meta.get("matchId"), players, fmt, target, result, games, form)
    for game in games:
        _seat_names(match, game)
    return match


def _game(data: dict[str, Any], file: str, where: str, index: int, seats: list[str], form: str) -> MatchGame:
    try:
        record = parse_record(data, file, form=f"gameIndex {index} of a match, {form}")
    except EgnError as exc:
        exc.problems = [Problem(p.file, f"{where}.gameData{p.path[1:]}", p.message) for p in exc.problems]
        return MatchGame(index, seats, None, exc)
    return MatchGame(index, seats, record)


def _seat_names(match: Match, game: MatchGame) -> None:
    """The match's names for the game's seats (the match's player registry is the authority);
    a game that names its players otherwise is noted."""
    if game.record is None or len(game.player_ids) != 4:
        return
    names = [p.name if (p := match.player(ident)) else ident for ident in game.player_ids]
    own = game.record.players
    for seat, (mine, theirs) in enumerate(zip(own, names)):
        if mine.strip().lower() != theirs.strip().lower():
            game.notes.append(f"seat {seat}: the game names {mine!r}, the match {game.player_ids[seat]} {theirs!r} "
                              "(the match's name is used)")
    game.record.players = names


# -- scores ----------------------------------------------------------------------------------------
def counts_points(match: Match, record: Record) -> bool:
    """Whether a game adds its points (progressive, or a game of a number of deals) rather than a win."""
    return match.format == "PROGRESSIVE" or record.ruleset.get("num_deals", 0) > 0


def match_scores(match: Match, finals: list[list[int] | None]) -> tuple[dict[str, float], list[str]]:
    """Each player's score and the winners, from each game's final score (by side, None for a
    game that cannot be scored), as EGN's combine tool computes them."""
    scores: dict[str, float] = {p.id: 0 for p in match.players}
    for game, final in zip(match.games, finals):
        if final is None or game.record is None or len(game.player_ids) != 4 or len(final) != 2:
            continue
        sides = [[game.player_ids[0], game.player_ids[2]], [game.player_ids[1], game.player_ids[3]]]
        if counts_points(match, game.record):
            for side, points in zip(sides, final):
                for ident in side:
                    scores[ident] = scores.get(ident, 0) + points
        elif final[0] != final[1]:
            for ident in sides[0 if final[0] > final[1] else 1]:
                scores[ident] = scores.get(ident, 0) + 1
    best = max(scores.values(), default=0)
    winners = [ident for ident, value in scores.items() if value == best and best > 0]
    return scores, winners


# -- writing ---------------------------------------------------------------------------------------
def build_match(records: list[dict[str, Any]], title: str | None = None, fmt: str = "FIXED_GAMES",
                target: int | None = None, finals: list[list[int] | None] | None = None) -> dict[str, Any]:
    """A match file of EGN records (JSON form): players deduplicated by name (or by their first
    platform id), given ids ``p-01``..., each game's seats mapped to them, and the result
    computed from each game's final score when every game has one."""
    ids: dict[str, str] = {}
    players: list[dict[str, Any]] = []
    games = []
    for index, record in enumerate(records):
        seats = []
        for player in record["metadata"].get("players", []):
            name, key, extra = _player_key(player)
            if key not in ids:
                ids[key] = f"p-{len(ids) + 1:02d}"
                players.append({"id": ids[key], "name": name,
                                "playerIds": extra or [{"id": ids[key], "source": "euchre-spec"}]})
            seats.append(ids[key])
        games.append({"gameIndex": index, "players": seats, "gameData": record})
    meta: dict[str, Any] = {"title": (title or "Euchre match")[:128], "players": players,
                            "matchFormat": {"type": fmt}}
    if target is not None:
        meta["matchFormat"]["target"] = target
    data = {"fileType": MATCH_FILE_TYPE, "version": MATCH_VERSION, "metadata": meta, "games": games}
    finals = finals if finals is not None else [r["metadata"].get("finalScore") for r in records]
    if records and all(f is not None and len(f) == 2 for f in finals):
        match = parse_match(data, "<match>")
        scores, winners = match_scores(match, finals)
        meta["result"] = {"status": "COMPLETED", "winner": winners, "scores": scores}
    return data


def _player_key(player: Any) -> tuple[str, str, list[dict[str, str]]]:
    if isinstance(player, str):
        return player, player.strip().lower(), []
    ids = player.get("playerIds") or []
    key = f"{ids[0]['source'].strip().lower()}:{ids[0]['id'].strip().lower()}" if ids else player["name"].strip().lower()
    return player["name"], key, [dict(i) for i in ids]


def encode_match(data: dict[str, Any]) -> bytes:
    """A match file (JSON form) as EMN binary: ``0x02``, then the match message, each game as JSON text."""
    message = message_class("match", "MatchFile")()
    message.file_type = data["fileType"]
    message.version = data["version"]
    meta, m = data["metadata"], message.metadata
    for name, key in (("match_id", "matchId"), ("title", "title"), ("description", "description"), ("date", "date")):
        if key in meta:
            setattr(m, name, meta[key])
    for p in meta["players"]:
        entry = m.players.add(id=p["id"], name=p["name"])
        for ident in p.get("playerIds", []):
            entry.player_ids.add(id=ident["id"], source=ident["source"])
    if "matchFormat" in meta:
        m.match_format.type = FORMATS.index(meta["matchFormat"]["type"])
        if "target" in meta["matchFormat"]:
            m.match_format.target = meta["matchFormat"]["target"]
    if "result" in meta:
        r = meta["result"]
        m.result.status = STATUSES.index(r.get("status", "COMPLETED"))
        m.result.winner.extend(r.get("winner", []))
        for key, value in r.get("scores", {}).items():
            m.result.scores[key] = float(value)
    for g in data["games"]:
        message.games.add(game_index=g["gameIndex"], players=g["players"], egn_json=json.dumps(g["gameData"]))
    return bytes([MAGIC_MATCH]) + message.SerializeToString()


__all__ = ["Match", "MatchGame", "MatchPlayer", "build_match", "encode_match", "is_match", "match_scores",
           "parse_match", "read_match"]
