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
    "play": ("follow-suit", "follow-or-trump", "trick-winner", "lead"),
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
        # the play step's own clause (an option may set it: the maker leads), for the opening lead
        play = [step for step in table.get("hand") or [] if isinstance(step, dict) and step.get("kind") == "play"]
        self.play_clause = (play[0].get("clause") or play[0].get("id")) if play else None
        self.teams = (table.get("players") or {}).get("teams")

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

    def cite(self, phase: str, fields: Iterable[str], after: dict[str, Any] | None,
             engine: dict[str, Any] | None = None) -> str:
        """The clause a divergence at ``phase`` on ``fields`` tests; ``after`` is the
        reference's observation after the request, ``engine`` the engine's (when it sent one).

        Upstream first, as the runner's trace does (conformance/runner/cited_clause.py): who sits
        out decides who is to act and what is legal; a hand's points decide the scores and
        the game's end; the seat to act decides the legal set (a wrong opening leader has
        other cards than the right one, which is no follow-suit matter)."""
        fields = list(fields)
        after = after or {}
        engine = engine if isinstance(engine, dict) else {}
        if any(f in TURN_FIELDS for f in fields) and after.get("phase") in PHASE_TOPICS:
            phase = after["phase"]          # the seat to act and its moves belong to the phase reached
        found = None
        sitting_out = set(after.get("sitting_out") or []) if isinstance(after.get("sitting_out"), list) else set()
        asked = engine.get("to_act")
        if "sitting_out" in fields or ("to_act" in fields and asked in sitting_out):
            theirs = engine.get("sitting_out")
            seats = sitting_out ^ set(theirs if isinstance(theirs, list) else []) if "sitting_out" in fields else {asked}
            found = self.sat_out(after, seats)
        elif any(f in SCORING_FIELDS for f in fields) and after.get("hand_points") is not None:
            found = self.for_row(after.get("scoring_row"))
        elif any(f in GAME_FIELDS for f in fields) and after.get("game_over"):
            found = self.first(("game-target",))
        elif "next_dealer" in fields or "dealer" in fields and phase != "new_game":
            found = self.first(("throw-in", "stick-the-dealer", "deal"))
        elif "tricks" in fields:
            found = self.first(("trick-winner",))
        elif phase == "play" and "to_act" in fields:
            found = self.opening_lead(after) if _opening(after) else self.first(("trick-winner", "lead"))
        elif phase == "play" and "legal" in fields:
            found = self.first(("follow-suit", "follow-or-trump"))
        elif "alone" in fields:
            found = self.first(("going-alone",))
        elif "defender_alone" in fields:
            found = self.first(("defending-alone",))
        elif "partner" in fields:
            found = self.first(("call-partner", "called-partner", "partner"))
        return found or self.for_phase(phase) or (self.ids[0] if self.ids else "rules")

    def opening_lead(self, after: dict[str, Any]) -> str | None:
        """The rule of the first lead in force: a lone hand's, else the play step's own."""
        lone = ("lone-lead",) if after.get("alone") else ()
        return self.first((*lone, *((self.play_clause,) if self.play_clause else ()), "lead"))

    def sat_out(self, after: dict[str, Any], seats: set[Any]) -> str | None:
        """The rule that puts ``seats`` out of the hand: a lone maker's partners (going
        alone), a lone defender's (defending alone), or a seat that drops."""
        maker, defender = after.get("maker"), after.get("defender_alone")
        if isinstance(defender, int) and self.teams and any(isinstance(s, int) and _partners(s, defender, self.teams)
                                                            for s in seats):
            return self.first(("defending-alone", "going-alone"))
        if after.get("alone") and isinstance(maker, int):
            return self.first(("going-alone", "sitting-out", "drop"))
        return self.first(("sitting-out", "drop", "going-alone", "defending-alone"))


def _opening(after: dict[str, Any]) -> bool:
    """No card played yet in the hand: the turn is the opening lead's."""
    tricks = after.get("tricks")
    return not tricks or (len(tricks) == 1 and isinstance(tricks[0], dict) and not tricks[0].get("cards"))


def _partners(seat: int, other: int, teams: Any) -> bool:
    return seat != other and any(isinstance(team, list) and seat in team and other in team for team in teams)
