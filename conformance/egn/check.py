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

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .importer import build_case, load_game, representable
from .record import EgnError
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

    @property
    def ok(self) -> bool:
        return self.kind is None

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "game": self.game, "ok": self.ok, "kind": self.kind, "deal": self.deal,
                "dealNumber": self.deal_number, "trick": self.trick, "seat": self.seat, "message": self.message,
                "deals": self.deals, "scores": self.scores, "game_over": self.game_over}

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
        return build_case(self.replay, self.file)


def check_file(path: str | Path) -> GameReport:
    """Replay one EGN file and report its first defect (or that it is sound)."""
    path = str(path)
    try:
        game = load_game(path)
    except EgnError as exc:
        return GameReport(path, None, exc.kind, "; ".join(f"{p.path}: {p.message}" for p in exc.problems))
    record = game.record
    report = GameReport(path, record.name, None, "", deals=len([h for h in game.hands if not h.deal_reject]),
                        scores=list(game.state.scores), game_over=game.state.is_terminal(), replay=game)
    defect = game.defect
    if defect is None:
        ending = "game over" if game.state.is_terminal() else "the record stops before the game's end"
        checked = ", final score agrees" if game.final_checked else ""
        report.message = f"{report.deals} deal(s) replayed, scores {game.state.scores} ({ending}{checked})"
        return report
    report.kind, report.message = defect.kind, defect.message
    report.deal, report.deal_number, report.trick, report.seat = defect.deal, defect.deal_number, defect.trick, defect.seat
    return report
