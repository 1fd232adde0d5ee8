"""Reading an EGN file: its structure checked, its games as plain records.

The checks follow EGN's published structure (version 1.2 to 1.4; a 1.0 or 1.1 record is
upgraded in memory first, :mod:`.upgrade`, and a binary one decoded, :mod:`.binary`;
condensed deals are expanded, :mod:`.bitpack`): the required keys, no
unknown key at any level, the types, enumerations and size limits, the card pattern and
the ruleset's completion rule (a target score or a number of deals, never both). They are
written here from the format's documentation; EGN's own JSON Schema is not part of this
project (the tests validate exported files against it where a copy is at hand).

A file that breaks them is *invalid* (:class:`EgnInvalid`); a valid file that this importer
cannot use (a match file given where one game is wanted, two bidding phases in one deal) is
*unsupported* (:class:`EgnUnsupported`). Both carry :class:`~reference_impl.errors.Problem`
lines, ``file: $.json.path: message``, as ``validate`` prints them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reference_impl.errors import Problem

from .binary import BinaryError, decode as decode_binary
from .bitpack import PackError, unpack_deal
from .cards import EGN_CARD
from .upgrade import Upgrade, is_old, upgrade

FILE_TYPE = "Euchre Game Notation"
MATCH_FILE_TYPE = "Euchre Match Notation"
VERSION = "1.4"                                   # what the exporter writes
VERSION_PATTERN = re.compile(r"^1\.[234](?:\.\d+)?$")
CONDENSED = re.compile(r"^[A-Za-z0-9+/_-]*={0,2}$")
DATE_LOCAL = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$")
DATE_ZONED = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
CALLS = ("Pass", "Order", "s", "h", "d", "c", "n", "x")
BIDDING, PLAY = "EUCHRE_BIDDING", "TRICK_PLAY"
MAX_FILE_BYTES = 8 * 1024 * 1024

# Every ruleset flag, with its type and EGN's default (EGN readers apply these themselves).
FLAGS: dict[str, tuple[type, Any]] = {
    "std": (bool, True), "min_rank": (int, 9), "winning_score": (int, 10), "num_deals": (int, 0),
    "canadian": (bool, False), "loner_lead": (str, "LEFT_OF_DEALER"), "loner_march_score": (int, 4),
    "loner_euchred_score": (int, 2), "defend_alone": (bool, False), "farmers": (bool, False),
    "partners_best": (bool, False), "go_under": (bool, False), "joker": (bool, False), "num_players": (int, 4),
    "allow_no_trump": (bool, False), "fast_break": (bool, False), "four_trick_tokens": (bool, False),
}
LONER_LEADS = ("LEFT_OF_DEALER", "LEFT_OF_LONER")


class EgnError(Exception):
    """A file that cannot be imported; ``problems`` says where and why."""

    kind = "invalid"

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class EgnInvalid(EgnError):
    """Not a valid EGN file."""

    kind = "invalid"


class EgnUnsupported(EgnError):
    """A valid EGN file that this importer cannot use (said why, with the flag or key)."""

    kind = "unsupported"


@dataclass
class Exchange:
    """Cards passed before the play: ``sender`` None means from the kitty."""

    sender: int | None
    receiver: int
    cards: list[str]


@dataclass
class DealRecord:
    """One deal of a game, as recorded (cards in EGN notation)."""

    index: int                                   # position in the file's deals (0-based)
    number: int                                  # the record's dealNumber
    dealer: int
    upcard: str
    player_cards: list[list[str]]                # by seat; [] where unknown
    has_bidding: bool = False
    calls: list[str] = field(default_factory=list)
    alone: bool = False
    alone_given: bool = False                    # isAlone is in the record (absent: maybe not yet decided)
    alone_defender: int | None = None
    discard: str | None = None
    exchanges: list[Exchange] = field(default_factory=list)
    call_annotations: dict[int, list[str]] = field(default_factory=dict)
    has_play: bool = False
    tricks: list[list[str]] = field(default_factory=list)
    play_annotations: dict[int, list[str]] = field(default_factory=dict)
    alternative_lines: int = 0


@dataclass
class Record:
    """One EGN file: one game."""

    file: str
    version: str
    title: str | None
    game_id: str | None
    description: str | None
    players: list[str]
    initial_score: list[int]
    final_score: list[int] | None
    ruleset: dict[str, Any]
    deals: list[DealRecord]
    date: str | None = None
    form: str = "JSON"                           # JSON, binary (condensed), binary (expanded), a match's game
    upgraded: Upgrade | None = None              # how a 1.0 or 1.1 record was read

    @property
    def version_read(self) -> str:
        """The version the file itself has (``version`` is what it was read as)."""
        return self.upgraded.version if self.upgraded else self.version

    def reading(self) -> str:
        """How the record was read, for reports: ``EGN 1.0.0 (JSON), upgraded in memory ...``."""
        text = f"EGN {self.version_read} ({self.form})"
        return f"{text}, {self.upgraded.summary()}" if self.upgraded else text

    def flag(self, name: str) -> Any:
        """A ruleset flag's value, EGN's default where the record omits it.

        The completion rule makes the default of ``winning_score`` depend on ``num_deals``:
        a game of a fixed number of deals has no target score (EGN allows one or the other)."""
        if name in self.ruleset:
            return self.ruleset[name]
        if name == "winning_score" and self.ruleset.get("num_deals", 0) >= 1:
            return 0
        return FLAGS[name][1]

    @property
    def name(self) -> str:
        return self.title or self.game_id or Path(self.file).stem


class _Checker:
    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []
        self.unsupported: list[Problem] = []

    def bad(self, path: str, message: str) -> None:
        self.problems.append(Problem(self.file, path, message))

    def unsupported_here(self, path: str, message: str) -> None:
        self.unsupported.append(Problem(self.file, path, message))

    def obj(self, value: Any, path: str, allowed: tuple[str, ...], required: tuple[str, ...]) -> bool:
        if not isinstance(value, dict):
            self.bad(path, f"expected an object, got {_kind(value)}")
            return False
        for key in value:
            if key not in allowed:
                self.bad(f"{path}.{key}", f"unknown key {key!r} (allowed: {', '.join(allowed)})")
        for key in required:
            if key not in value:
                self.bad(path, f"missing required key {key!r}")
        return True

    def integer(self, value: Any, path: str, minimum: int | None = None, maximum: int | None = None) -> bool:
        if not isinstance(value, int) or isinstance(value, bool):
            self.bad(path, f"expected an integer, got {_kind(value)}")
            return False
        if minimum is not None and value < minimum:
            self.bad(path, f"{value} is less than {minimum}")
            return False
        if maximum is not None and value > maximum:
            self.bad(path, f"{value} is more than {maximum}")
            return False
        return True

    def text(self, value: Any, path: str, max_length: int) -> bool:
        if not isinstance(value, str):
            self.bad(path, f"expected a string, got {_kind(value)}")
            return False
        if len(value) > max_length:
            self.bad(path, f"longer than {max_length} characters")
            return False
        return True

    def array(self, value: Any, path: str, max_items: int, min_items: int = 0) -> bool:
        if not isinstance(value, list):
            self.bad(path, f"expected an array, got {_kind(value)}")
            return False
        if len(value) > max_items:
            self.bad(path, f"more than {max_items} items ({len(value)})")
            return False
        if len(value) < min_items:
            self.bad(path, f"fewer than {min_items} items")
            return False
        return True

    def card(self, value: Any, path: str) -> bool:
        if not isinstance(value, str) or not EGN_CARD.match(value):
            self.bad(path, f"{value!r} is not an EGN card (rank 7 8 9 N T J Q K A X and suit s h c d x t n g, "
                           "or R, L, B)")
            return False
        return True

    def cards(self, value: Any, path: str, max_items: int = 10) -> bool:
        if not self.array(value, path, max_items):
            return False
        return all([self.card(c, f"{path}[{i}]") for i, c in enumerate(value)])

    def annotations(self, value: Any, path: str) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        if not isinstance(value, dict):
            self.bad(path, f"expected an object, got {_kind(value)}")
            return out
        for key, notes in value.items():
            if not re.fullmatch(r"[0-9]+", key):
                self.bad(f"{path}.{key}", "annotation keys are action indices (digits only)")
                continue
            if self.array(notes, f"{path}.{key}", 50):
                if all(self.text(n, f"{path}.{key}[{i}]", 1024) for i, n in enumerate(notes)):
                    out[int(key)] = list(notes)
        return out


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null",
            int: "an integer", float: "a number"}.get(type(value), type(value).__name__)


def read_bytes(path: str | Path) -> bytes:
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise EgnInvalid([Problem(str(path), "$", f"cannot read the file: {exc.strerror or exc}")]) from None
    if len(raw) > MAX_FILE_BYTES:
        raise EgnInvalid([Problem(str(path), "$", f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")])
    return raw


def is_binary(path: str | Path, raw: bytes) -> bool:
    """A binary record: named ``.egnb``, or starting with one of EGN's layout bytes (0, 1, 2)."""
    return str(path).lower().endswith(".egnb") or (bool(raw) and raw[0] in (0, 1, 2))


MAX_JSON_DEPTH = 64        # an EGN record nests about 8 deep
MAX_JSON_DIGITS = 40       # an EGN integer fits in 64 bits (20 digits); a longer one is refused, not converted
_NOT_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[^\[\]{}"]+')


class _Refused(ValueError):
    pass


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_JSON_DIGITS:
        raise _Refused(f"an integer of {digits} digits (at most {MAX_JSON_DIGITS})")
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > 2 * MAX_JSON_DIGITS:
        raise _Refused(f"a number of {len(text)} characters")
    return float(text)


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name}, which is not JSON")


_decoder = json.JSONDecoder(parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant)


def _too_deep(text: str) -> bool:
    """Whether brackets outside strings nest more than MAX_JSON_DEPTH deep (checked before
    decoding: the decoder's recursion is the interpreter's)."""
    depth = 0
    for char in "".join(_NOT_BRACKETS.split(text)):
        depth += 1 if char in "[{" else -1
        if depth > MAX_JSON_DEPTH:
            return True
    return False


def decode_json(raw: bytes | str, file: str, where: str = "$") -> Any:
    """JSON of an EGN file (or embedded in one, at ``where``), bounded: integers of at most
    MAX_JSON_DIGITS digits, nesting at most MAX_JSON_DEPTH deep, no lone surrogate (text no
    case file could be written with); each refusal one problem, never an exception of the
    decoder's."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise EgnInvalid([Problem(file, where, f"not UTF-8 text: {exc.reason} at byte {exc.start}")]) from None
    if _too_deep(text):
        raise EgnInvalid([Problem(file, where, f"not an EGN record: nested more than {MAX_JSON_DEPTH} deep")])
    try:
        data = _decoder.decode(text)
    except _Refused as exc:
        raise EgnInvalid([Problem(file, where, f"not an EGN record: it holds {exc}")]) from None
    except json.JSONDecodeError as exc:
        raise EgnInvalid([Problem(file, where, f"not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")]) from None
    except (RecursionError, ValueError) as exc:
        raise EgnInvalid([Problem(file, where, f"not JSON: {exc}")]) from None
    if "\\u" in text:
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise EgnInvalid([Problem(file, where, "not an EGN record: it holds an escaped lone surrogate "
                                                   "(\\ud800 to \\udfff alone is not Unicode text)")]) from None
    return data


def read_record(path: str | Path) -> Record:
    """Read and check one EGN file (JSON, or binary in either layout; any version from 1.0);
    raises :class:`EgnInvalid` or :class:`EgnUnsupported`."""
    raw = read_bytes(path)
    if is_binary(path, raw):
        try:
            data, layout = decode_binary(raw)
        except BinaryError as exc:
            raise EgnInvalid([Problem(str(path), exc.problem.path, exc.problem.message)]) from None
        return parse_record(data, str(path), form=f"binary, {layout}")
    return parse_record(decode_json(raw, str(path)), str(path))


def parse_record(data: Any, file: str = "<egn>", form: str = "JSON") -> Record:
    """Check the decoded JSON of an EGN file and return its game (a 1.0 or 1.1 record is
    upgraded first, and its problems reported at the paths the file has)."""
    if is_old(data):
        data, upgraded = upgrade(data)
        try:
            record = _parse(data, file, form)
        except EgnError as exc:
            exc.problems = [Problem(p.file, upgraded.original_path(p.path),
                                    f"{p.message} (EGN {upgraded.version}, read as {data['version']})")
                            for p in exc.problems]
            exc.args = ("\n".join(str(p) for p in exc.problems),)
            raise
        record.upgraded = upgraded
        return record
    return _parse(data, file, form)


def _parse(data: Any, file: str, form: str) -> Record:
    c = _Checker(file)
    if isinstance(data, dict) and data.get("fileType") == MATCH_FILE_TYPE:
        raise EgnUnsupported([Problem(file, "$.fileType", "a match file (EMN), not one game: read it as a match "
                                                          "(egn import and egn check read .emn files)")])
    if not c.obj(data, "$", ("fileType", "version", "metadata", "deals"), ("fileType", "version", "metadata", "deals")):
        raise EgnInvalid(c.problems)
    if data.get("fileType") != FILE_TYPE and "fileType" in data:
        c.bad("$.fileType", f"must be {FILE_TYPE!r}")
    version = data.get("version")
    if "version" in data:
        if not isinstance(version, str) or not VERSION_PATTERN.match(version):
            c.bad("$.version", f"{version!r} is not a version of EGN (1.0 to 1.4)")
    meta = data.get("metadata")
    players: list[str] = []
    initial: list[int] = []
    final: list[int] | None = None
    ruleset: dict[str, Any] = {}
    if "metadata" in data and c.obj(meta, "$.metadata", ("gameId", "title", "description", "players", "initialScore",
                                                          "finalScore", "date", "ruleset"), ("players", "initialScore")):
        for key, limit in (("gameId", 64), ("title", 128), ("description", 1024), ("date", 64)):
            if key in meta:
                c.text(meta[key], f"$.metadata.{key}", limit)
        if isinstance(meta.get("date"), str) and not (DATE_LOCAL.match(meta["date"]) or DATE_ZONED.match(meta["date"])):
            c.bad("$.metadata.date", f"{meta['date']!r} is not a date and time (YYYY-MM-DDTHH:MM, seconds and zone optional)")
        players = _players(c, meta.get("players"))
        if "initialScore" in meta:
            initial = _scores(c, meta["initialScore"], "$.metadata.initialScore")
        if "finalScore" in meta:
            final = _scores(c, meta["finalScore"], "$.metadata.finalScore")
        if "ruleset" in meta:
            ruleset = _ruleset(c, meta["ruleset"])
    deals: list[DealRecord] = []
    if "deals" in data and c.array(data["deals"], "$.deals", 100):
        for i, deal in enumerate(data["deals"]):
            where = f"$.deals[{i}]"
            if isinstance(deal, str):
                if not CONDENSED.match(deal):
                    c.bad(where, "a string deal must be condensed Base64URL")
                    continue
                try:
                    deal = unpack_deal(deal, i)
                except PackError as exc:
                    c.bad(where, f"a condensed deal that does not decode: {exc}")
                    continue
            parsed = _deal(c, deal, where, i)
            if parsed is not None:
                deals.append(parsed)
    if c.problems:
        raise EgnInvalid(c.problems)
    if c.unsupported:
        raise EgnUnsupported(c.unsupported)
    return Record(file, version, meta.get("title"), meta.get("gameId"), meta.get("description"), players,
                  initial, final, ruleset, deals, meta.get("date"), form=form)


def _players(c: _Checker, value: Any) -> list[str]:
    names: list[str] = []
    if not c.array(value, "$.metadata.players", 10):
        return names
    for i, player in enumerate(value):
        where = f"$.metadata.players[{i}]"
        if isinstance(player, str):
            c.text(player, where, 64)
            names.append(player)
        elif c.obj(player, where, ("name", "playerIds", "id"), ("name",)):
            if c.text(player.get("name"), f"{where}.name", 64):
                names.append(player["name"])
            if "id" in player:
                c.text(player["id"], f"{where}.id", 64)
            if "playerIds" in player and c.array(player["playerIds"], f"{where}.playerIds", 10):
                for k, ident in enumerate(player["playerIds"]):
                    at = f"{where}.playerIds[{k}]"
                    if c.obj(ident, at, ("id", "source"), ("id", "source")):
                        c.text(ident.get("id"), f"{at}.id", 64)
                        c.text(ident.get("source"), f"{at}.source", 64)
    return names


def _scores(c: _Checker, value: Any, path: str) -> list[int]:
    if not c.array(value, path, 2):
        return []
    if all(c.integer(v, f"{path}[{i}]") for i, v in enumerate(value)):
        return list(value)
    return []


def _ruleset(c: _Checker, value: Any) -> dict[str, Any]:
    if not c.obj(value, "$.metadata.ruleset", tuple(FLAGS), ()):
        return {}
    out: dict[str, Any] = {}
    for key, flag in value.items():
        if key not in FLAGS:
            continue
        where = f"$.metadata.ruleset.{key}"
        kind = FLAGS[key][0]
        if kind is bool:
            if not isinstance(flag, bool):
                c.bad(where, f"expected a boolean, got {_kind(flag)}")
                continue
        elif kind is int:
            if not c.integer(flag, where, 0 if key in ("winning_score", "num_deals") else None):
                continue
        elif flag not in LONER_LEADS:
            c.bad(where, f"{flag!r} is not one of {', '.join(LONER_LEADS)}")
            continue
        out[key] = flag
    if "winning_score" in value and "num_deals" in value:
        c.bad("$.metadata.ruleset", "winning_score and num_deals may not both be given (a game has a target score "
                                    "or a number of deals)")
    elif value.get("winning_score") == 0 and not (isinstance(value.get("num_deals"), int) and value["num_deals"] >= 1):
        c.bad("$.metadata.ruleset.winning_score", "0 (no target) needs num_deals of at least 1")
    return out


def _deal(c: _Checker, deal: Any, where: str, index: int) -> DealRecord | None:
    if not c.obj(deal, where, ("dealNumber", "initialState", "phases", "alternativeLines"),
                 ("dealNumber", "initialState", "phases")):
        return None
    ok = "dealNumber" in deal and c.integer(deal["dealNumber"], f"{where}.dealNumber", 0)
    state = deal.get("initialState")
    record = DealRecord(index, deal.get("dealNumber", index) if ok else index, 0, "", [])
    if "initialState" in deal and c.obj(state, f"{where}.initialState", ("dealer", "upCard", "playerCards"),
                                        ("dealer", "upCard")):
        if "dealer" in state and c.integer(state["dealer"], f"{where}.initialState.dealer", 0, 9):
            record.dealer = state["dealer"]
        if "upCard" in state and c.card(state["upCard"], f"{where}.initialState.upCard"):
            record.upcard = state["upCard"]
        if "playerCards" in state and c.array(state["playerCards"], f"{where}.initialState.playerCards", 10):
            for s, hand in enumerate(state["playerCards"]):
                if c.cards(hand, f"{where}.initialState.playerCards[{s}]"):
                    record.player_cards.append(list(hand))
                else:
                    record.player_cards.append([])
    if "alternativeLines" in deal and c.array(deal["alternativeLines"], f"{where}.alternativeLines", 50):
        record.alternative_lines = len(deal["alternativeLines"])
        for k, line in enumerate(deal["alternativeLines"]):
            at = f"{where}.alternativeLines[{k}]"
            if c.obj(line, at, ("branchIndex", "phases"), ("branchIndex", "phases")):
                c.integer(line.get("branchIndex"), f"{at}.branchIndex", 0)
                if c.array(line.get("phases"), f"{at}.phases", 2, 1):
                    for p, phase in enumerate(line["phases"]):
                        _phase(c, phase, f"{at}.phases[{p}]", DealRecord(index, 0, 0, "", []))
    if "phases" in deal and c.array(deal["phases"], f"{where}.phases", 2):
        seen: set[str] = set()
        for p, phase in enumerate(deal["phases"]):
            kind = _phase(c, phase, f"{where}.phases[{p}]", record)
            if kind in seen:
                c.unsupported_here(f"{where}.phases[{p}]", f"a second {kind} phase in one deal")
            if kind:
                seen.add(kind)
        if record.has_play and not record.has_bidding:
            c.unsupported_here(f"{where}.phases", "a play phase without a bidding phase: who made trumps is unknown")
    return record


def _phase(c: _Checker, phase: Any, where: str, record: DealRecord) -> str | None:
    if not isinstance(phase, dict):
        c.bad(where, f"expected an object, got {_kind(phase)}")
        return None
    kind = phase.get("type")
    if kind == BIDDING:
        if not c.obj(phase, where, ("phaseNumber", "type", "calls", "isAlone", "aloneDefender", "discard",
                                    "cardExchanges", "callAnnotations"), ("phaseNumber", "type", "calls")):
            return kind
        record.has_bidding = True
        if "phaseNumber" in phase:
            c.integer(phase["phaseNumber"], f"{where}.phaseNumber")
        if "calls" in phase and c.array(phase["calls"], f"{where}.calls", 16):
            for i, call in enumerate(phase["calls"]):
                if call not in CALLS:
                    c.bad(f"{where}.calls[{i}]", f"{call!r} is not a call ({', '.join(CALLS)})")
            record.calls = [call for call in phase["calls"] if call in CALLS]
        if "isAlone" in phase:
            if isinstance(phase["isAlone"], bool):
                record.alone = phase["isAlone"]
                record.alone_given = True
            else:
                c.bad(f"{where}.isAlone", f"expected a boolean, got {_kind(phase['isAlone'])}")
        if "aloneDefender" in phase and c.integer(phase["aloneDefender"], f"{where}.aloneDefender"):
            record.alone_defender = phase["aloneDefender"] if phase["aloneDefender"] >= 0 else None
        if "discard" in phase and c.card(phase["discard"], f"{where}.discard"):
            record.discard = phase["discard"]
        if "cardExchanges" in phase and c.array(phase["cardExchanges"], f"{where}.cardExchanges", 4):
            for k, item in enumerate(phase["cardExchanges"]):
                at = f"{where}.cardExchanges[{k}]"
                if not c.obj(item, at, ("sender", "receiver", "cards"), ("receiver", "cards")):
                    continue
                sender = item.get("sender")
                good = ("sender" not in item or c.integer(sender, f"{at}.sender", 0, 9))
                good = c.integer(item.get("receiver"), f"{at}.receiver", 0, 9) and good
                good = c.cards(item.get("cards"), f"{at}.cards") and good
                if good:
                    record.exchanges.append(Exchange(sender, item["receiver"], list(item["cards"])))
        if "callAnnotations" in phase:
            record.call_annotations = c.annotations(phase["callAnnotations"], f"{where}.callAnnotations")
        return kind
    if kind == PLAY:
        if not c.obj(phase, where, ("phaseNumber", "type", "tricks", "isAlone", "playAnnotations"),
                     ("phaseNumber", "type", "tricks")):
            return kind
        record.has_play = True
        if "phaseNumber" in phase:
            c.integer(phase["phaseNumber"], f"{where}.phaseNumber")
        if "isAlone" in phase and not isinstance(phase["isAlone"], bool):
            c.bad(f"{where}.isAlone", f"expected a boolean, got {_kind(phase['isAlone'])}")
        if "tricks" in phase and c.array(phase["tricks"], f"{where}.tricks", 10):
            record.tricks = [list(t) if c.cards(t, f"{where}.tricks[{i}]") else [] for i, t in enumerate(phase["tricks"])]
        if "playAnnotations" in phase:
            record.play_annotations = c.annotations(phase["playAnnotations"], f"{where}.playAnnotations")
        return kind
    c.bad(f"{where}.type", f"{kind!r} is not a phase type ({BIDDING} or {PLAY})")
    return None
