"""Which rule clause a step exercises, for coverage and for the clause a shrunk case cites.

A table's clauses are anchors with a topic (bidding, alone, play, scoring, game, ...); the
interpreter does not say which clause decided a step, so this module reads it off the
phase, the field that differs and the scoring row the reference applied: a wrong legal
set in the play is a follow-suit matter, wrong points cite the row that scored the hand,
a wrong game end the target. Only clauses the table has are ever named, with an option's
clause standing in for the mechanism's clause it replaces.
"""

from __future__ import annotations

from typing import Any, Iterable

PHASE_CLAUSES = {
    "new_game": ("first-dealer",),
    "deal": ("deal", "upcard"),
    "benny-suit": ("benny-upcard", "benny"),
    "bid-round-1": ("round-1",),
    "bid-round-2": ("round-2", "turned-down-suit", "stick-the-dealer"),
    "auction": ("auction", "bid-values"),
    "alone": ("going-alone",),
    "defend-alone": ("defending-alone",),
    "partners-best": ("partners-best", "railroading"),
    "take-best": ("partners-best", "railroading"),
    "take-offer": ("dealer-pickup", "order-up-exchange", "take-up-exchange", "widow", "dummy"),
    "discard": ("dealer-pickup", "order-up-exchange", "take-up-exchange", "widow", "dummy"),
    "play": ("follow-suit", "trick-winner", "lead"),
    "master-suit": ("joker-led-at-no-trumps",),
}
PHASE_TOPICS = {"new_game": "game", "deal": "deal", "benny-suit": "bidding", "bid-round-1": "bidding",
                "bid-round-2": "bidding", "auction": "bidding", "alone": "alone", "defend-alone": "alone",
                "partners-best": "alone", "take-best": "alone", "take-offer": "exchange", "discard": "exchange",
                "play": "play", "master-suit": "play"}
GAME_FIELDS = ("game_over", "winner")
SCORING_FIELDS = ("hand_points", "scores", "scoring_row")
TURN_FIELDS = ("legal", "to_act", "phase")


class ClauseIndex:
    """The clauses of one resolved table, and how a step is attributed to one of them."""

    def __init__(self, table: dict[str, Any]):
        clauses = table.get("clauses") or []
        self.ids = [c["id"] for c in clauses]
        self.known = set(self.ids)
        self.replaced = {c["replaces"]: c["id"] for c in clauses if c.get("replaces")}
        self.topics = {c["id"]: c.get("topic") for c in clauses}

    def first(self, candidates: Iterable[str]) -> str | None:
        for candidate in candidates:
            candidate = self.replaced.get(candidate, candidate)
            if candidate in self.known:
                return candidate
        return None

    def existing(self, candidates: Iterable[str]) -> list[str]:
        """Every candidate the table has (an option's clause for the one it replaces)."""
        found = []
        for candidate in candidates:
            candidate = self.replaced.get(candidate, candidate)
            if candidate in self.known and candidate not in found:
                found.append(candidate)
        return found

    def all_for_phase(self, phase: str) -> list[str]:
        found = self.existing(PHASE_CLAUSES.get(phase, (phase,)))     # a phase may be named like its clause
        if not found:
            topic = self.by_topic(PHASE_TOPICS.get(phase))
            found = [topic] if topic else []
        return found

    def by_topic(self, topic: str | None) -> str | None:
        return next((c for c in self.ids if self.topics.get(c) == topic), None)

    def for_phase(self, phase: str) -> str | None:
        return self.first(PHASE_CLAUSES.get(phase, (phase,))) or self.by_topic(PHASE_TOPICS.get(phase))

    def for_row(self, row: Any) -> str | None:
        """The clause of a hand's result: its scoring row, else a throw-in."""
        if isinstance(row, str):
            return self.first((row,))
        return self.first(("stick-the-dealer", "throw-in", "no-bid"))

    def cite(self, phase: str, fields: Iterable[str], after: dict[str, Any] | None) -> str:
        """The clause a divergence at ``phase`` on ``fields`` tests; ``after`` is the
        reference's observation after the request."""
        fields = list(fields)
        after = after or {}
        if any(f in TURN_FIELDS for f in fields) and after.get("phase") in PHASE_TOPICS:
            phase = after["phase"]          # the seat to act and its moves belong to the phase reached
        found = None
        if any(f in GAME_FIELDS for f in fields) and after.get("game_over"):
            found = self.first(("game-target",))
        elif any(f in SCORING_FIELDS for f in fields) and after.get("hand_points") is not None:
            found = self.for_row(after.get("scoring_row"))
        elif "next_dealer" in fields or "dealer" in fields and phase != "new_game":
            found = self.first(("throw-in", "stick-the-dealer", "deal"))
        elif "tricks" in fields:
            found = self.first(("trick-winner",))
        elif phase == "play" and "legal" in fields:
            found = self.first(("follow-suit",))
        elif phase == "play" and "to_act" in fields:
            found = self.first(("lone-lead", "lead") if after.get("alone") else ("trick-winner", "lead"))
        elif any(f in ("sitting_out", "alone") for f in fields):
            found = self.first(("going-alone",))
        elif "defender_alone" in fields:
            found = self.first(("defending-alone",))
        elif "partner" in fields:
            found = self.first(("call-partner", "called-partner", "partner"))
        return found or self.for_phase(phase) or (self.ids[0] if self.ids else "rules")
