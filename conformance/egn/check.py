"""Checking recorded games: each replayed through the reference, its first impossible event
reported with the deal, the trick and the seat.

What is reported, per game (:data:`~.replay.KINDS`): a revoke, a card dealt twice, a card
played by a seat that does not hold it, the upcard played by another seat than the dealer
who took it, a call or other decision the rules refuse, a trick of the wrong size, cards
played when none may be, a card not in the pack, a recorded hand of the wrong size, a deal
out of turn, a deal cut short and followed by another, a deal after the game's end, and a
final score that disagrees. A file that is not valid EGN is ``invalid``; one whose rules or
cards no option or card of ours can say is ``unsupported``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .importer import build_case, case_id, load_game, replay_record, representable
from .match import Match, counts_points, is_match, match_scores, read_match
from .record import EgnError, read_bytes
from .replay import GameReplay


@dataclass
class GameReport:
    """What ``egn check`` says of one game (one file)."""

    file: str
    game: str | None
    kind: str | None                   # None: sound; a defect kind; "invalid" or "unsupported"
    message: str
    deal: int | None = None
    deal_number: int | None = None
    trick: int | None = None
    seat: int | None = None
    deals: int = 0
    scores: list[int] | None = None
    game_over: bool | None = None
    replay: GameReplay | None = None
    reading: str | None = None           # the version and form read, and what an upgrade set aside
    ignored: list[str] = field(default_factory=list)
    redundant: list[str] = field(default_factory=list)
    case_name: str | None = None         # a match's game: its case id

    @property
    def ok(self) -> bool:
        return self.kind is None

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "game": self.game, "ok": self.ok, "kind": self.kind, "deal": self.deal,
                "dealNumber": self.deal_number, "trick": self.trick, "seat": self.seat, "message": self.message,
                "deals": self.deals, "scores": self.scores, "game_over": self.game_over, "read": self.reading,
                "ignored": self.ignored, "redundant": self.redundant}

    def where(self) -> str:
        parts = []
        if self.deal:
            parts.append(f"deal {self.deal}")
        elif self.deal == 0:
            parts.append("end of game")
        if self.trick:
            parts.append(f"trick {self.trick}")
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        return ", ".join(parts)

    def case(self) -> dict[str, Any] | None:
        """The game as a case (expecting the failure where it is defective), or None when its
        defect cannot be shown to an engine, or it could not be read."""
        if self.replay is None or not representable(self.replay):
            return None
        return build_case(self.replay, self.file, self.case_name)


def check_file(path: str | Path) -> GameReport:
    """Replay one EGN file (JSON or binary, any version) and report its first defect (or that
    it is sound)."""
    path = str(path)
    try:
        game = load_game(path)
    except EgnError as exc:
        return _refused(path, exc)
    return report_game(game, path)


def _refused(path: str, exc: EgnError, game: str | None = None) -> GameReport:
    return GameReport(path, game, exc.kind, "; ".join(f"{p.path}: {p.message}" for p in exc.problems))


def report_game(game: GameReplay, path: str, case_name: str | None = None) -> GameReport:
    """What ``egn check`` says of one replayed game."""
    record = game.record
    report = GameReport(path, record.name, None, "", deals=len([h for h in game.hands if not h.deal_reject]),
                        scores=list(game.state.scores), game_over=game.state.is_terminal(), replay=game,
                        reading=record.reading(), case_name=case_name)
    if record.upgraded is not None:
        report.ignored = list(record.upgraded.ignored)
        report.redundant = list(game.redundant)
    defect = game.defect
    if defect is None:
        ending = "game over" if game.state.is_terminal() else "the record stops before the game's end"
        checked = ", final score agrees" if game.final_checked else ""
        report.message = f"{report.deals} deal(s) replayed, scores {game.state.scores} ({ending}{checked})"
        return report
    report.kind, report.message = defect.kind, defect.message
    report.deal, report.deal_number, report.trick, report.seat = defect.deal, defect.deal_number, defect.trick, defect.seat
    return report


# -- match files -----------------------------------------------------------------------------------
MATCH_RESULT = "match-result"          # a match's stated result that its games do not give


@dataclass
class MatchReport:
    """What ``egn check`` says of a match file: each game's report, and the match's scores
    computed from the games, compared with the result the file states."""

    file: str
    name: str | None
    kind: str | None                    # None: read, and its result (if any) agrees; "invalid"; MATCH_RESULT
    message: str
    games: list[GameReport] = field(default_factory=list)
    scores: dict[str, float] | None = None
    winners: list[str] | None = None
    notes: list[str] = field(default_factory=list)
    reading: str | None = None

    @property
    def ok(self) -> bool:
        return self.kind is None

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "match": self.name, "ok": self.ok, "kind": self.kind, "message": self.message,
                "games": len(self.games), "scores": self.scores, "winners": self.winners, "notes": self.notes,
                "read": self.reading}


def check_match(path: str | Path) -> MatchReport:
    """Read a match file, replay each of its games with the match's players, and compare the
    match's stated result (if any) with the one its games give."""
    path = str(path)
    try:
        match = read_match(path)
    except EgnError as exc:
        return MatchReport(path, None, exc.kind, "; ".join(f"{p.path}: {p.message}" for p in exc.problems))
    report = MatchReport(path, match.name, None, "", reading=f"EMN {match.version} ({match.form})")
    finals: list[list[int] | None] = []
    unscored: list[str] = []
    for position, entry in enumerate(match.games, 1):
        name = f"{case_id(path)}-game-{position}"
        if entry.record is None:
            assert entry.error is not None
            report.games.append(_refused(path, entry.error, f"game {position}"))
            finals.append(None)
            unscored.append(f"game {position} ({entry.error.kind})")
            continue
        try:
            game = replay_record(entry.record, path)
        except EgnError as exc:
            exc.problems = [type(p)(p.file, f"$.games[{position - 1}].gameData{p.path[1:]}", p.message)
                            for p in exc.problems]
            report.games.append(_refused(path, exc, entry.record.name))
            finals.append(None)
            unscored.append(f"game {position} ({exc.kind})")
            continue
        seats = ", ".join(f"{ident} {player}" for ident, player in zip(entry.player_ids, entry.record.players))
        game.notes.insert(0, f"Game {position} of the match {match.name!r} ({Path(path).name}), players by seat: "
                             f"{seats}." + (f" {'; '.join(entry.notes)}." if entry.notes else ""))
        game_report = report_game(game, path, name)
        game_report.game = f"game {position}: {entry.record.name}"
        report.games.append(game_report)
        sound = game.defect is None and (game.state.is_terminal() or counts_points(match, entry.record))
        finals.append(list(game.state.scores) if sound else None)
        if not sound:
            unscored.append(f"game {position} ({game.defect.kind if game.defect else 'unfinished'})")
        report.notes += [f"game {position}: {note}" for note in entry.notes]
    scores, winners = match_scores(match, finals)
    report.scores, report.winners = scores, winners
    report.notes += _format_notes(match)
    board = ", ".join(f"{ident} {match.player(ident).name if match.player(ident) else ''} {value:g}".replace("  ", " ")
                      for ident, value in scores.items())
    by_points = [counts_points(match, g.record) for g in match.games if g.record is not None]
    kind = "points" if by_points and all(by_points) else "games won" if not any(by_points) else \
        "games won (points in games of a number of deals)"
    text = f"{len(match.games)} game(s); {kind}: {board}; winners {', '.join(winners) or 'none'}"
    result = match.result or {}
    if unscored:
        text += f" (not counted: {', '.join(unscored)})"
    if not result.get("scores") and "winner" not in result:
        report.message = text + "; the file states no result"
        return report
    if unscored:
        report.message = text + "; the file's result is not checked: " + ", ".join(unscored)
        return report
    wrong = []
    for ident, value in (result.get("scores") or {}).items():
        if ident not in scores:
            wrong.append(f"{ident!r} is no player of the match")
        elif scores[ident] != value:
            wrong.append(f"{ident} has {value:g}, the games give {scores[ident]:g}")
    if "winner" in result and sorted(result["winner"]) != sorted(winners):
        wrong.append(f"winners {', '.join(result['winner']) or 'none'}, the games give {', '.join(winners) or 'none'}")
    if wrong:
        report.kind = MATCH_RESULT
        report.message = "the match's result disagrees with its games: " + "; ".join(wrong) + f" ({text})"
    else:
        report.message = text + "; the file's result agrees"
    return report


def _format_notes(match: Match) -> list[str]:
    n = len(match.games)
    if match.target is None:
        return []
    if match.format == "FIXED_GAMES" and n != match.target:
        return [f"a match of {match.target} fixed games holds {n}"]
    if match.format == "BEST_OF_N" and n > match.target:
        return [f"a best of {match.target} holds {n} games"]
    return []


def check_path(path: str | Path) -> GameReport | MatchReport:
    """A match file's report, or one game's."""
    try:
        raw = read_bytes(path)
    except EgnError as exc:
        return _refused(str(path), exc)
    return check_match(path) if is_match(path, raw) else check_file(path)
