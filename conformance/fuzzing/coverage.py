"""What a fuzzing run exercised: phases, kinds of move, rare situations, scoring rows, clauses.

Counting is a few dictionary increments per step (the hot loop must stay cheap); clauses
are worked out from the counts only when the report is made.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .clauses import ClauseIndex
from conformance.runner.compare import action_kind

# Rare situations worth naming in the report, with the test that spots each in a step.
SITUATIONS = (
    "round 2 of bidding",
    "dealer to bid last in round 2",
    "stuck dealer (no pass)",
    "all passed (hand thrown in)",
    "going alone",
    "lone defence",
    "partner's best card given",
    "Benny (or special card) turned up",
    "auction won",
    "misère bid",
    "cards taken (upcard, widow, dummy)",
    "game over",
)

SITUATION_CLAUSES = {
    "going alone": ("lone-lead", "sitting-out-dealer"),
    "stuck dealer (no pass)": ("stick-the-dealer",),
    "all passed (hand thrown in)": ("throw-in", "no-bid"),
    "Benny (or special card) turned up": ("benny-upcard",),
    "misère bid": ("misere",),
}
PLAY_CLAUSES = ("rank-trump", "rank-plain", "left-bower-is-trump", "joker-is-trump", "no-trump-ranking",
                "joker-played-when-void")


@dataclass
class Coverage:
    hands: int = 0
    games: int = 0
    steps: int = 0
    probes: int = 0
    views: int = 0
    phases: Counter = field(default_factory=Counter)        # steps taken in each phase
    moves: Counter = field(default_factory=Counter)         # (phase, kind of action)
    situations: Counter = field(default_factory=Counter)    # hands in which each situation arose
    rows: Counter = field(default_factory=Counter)          # hands scored by each row (None: thrown in)
    setups: Counter = field(default_factory=Counter)        # games started with scores, or first-dealer cards
    _this_hand: set = field(default_factory=set, repr=False)

    def step(self, state: dict[str, Any], action: str) -> None:
        """A move ``action`` taken from the reference's observation ``state``."""
        phase = state["phase"]
        self.steps += 1
        self.phases[phase] += 1
        self.moves[phase, action_kind(action)] += 1
        seen = self._this_hand
        if phase == "bid-round-2":
            seen.add("round 2 of bidding")
            if state["to_act"] == state["dealer"]:
                seen.add("dealer to bid last in round 2")
                if "pass" not in state["legal"]:
                    seen.add("stuck dealer (no pass)")
        elif phase == "benny-suit":
            seen.add("Benny (or special card) turned up")
        elif action == "alone":
            seen.add("going alone")
        elif action == "defend-alone":
            seen.add("lone defence")
        elif phase == "partners-best" and action != "pass":
            seen.add("partner's best card given")
        elif action == "take" or phase == "discard":
            seen.add("cards taken (upcard, widow, dummy)")
        elif phase == "auction" and action != "pass":
            seen.add("auction won")
            if "mis" in action:
                seen.add("misère bid")

    def hand_end(self, state: dict[str, Any]) -> None:
        """The reference's observation once a hand is over (scored, thrown in, or game over)."""
        self.hands += 1
        row = state.get("scoring_row")
        points = state.get("hand_points")
        if row is None and (points is None or not any(points)):
            self._this_hand.add("all passed (hand thrown in)")
        if state.get("game_over"):
            self._this_hand.add("game over")
        self.rows[row] += 1
        self.situations.update(self._this_hand)
        self._this_hand = set()

    def merge(self, other: "Coverage") -> None:
        self.hands += other.hands
        self.games += other.games
        self.steps += other.steps
        self.probes += other.probes
        self.views += other.views
        self.phases.update(other.phases)
        self.moves.update(other.moves)
        self.situations.update(other.situations)
        self.rows.update(other.rows)
        self.setups.update(other.setups)

    def clauses(self, index: ClauseIndex) -> Counter:
        """Steps (or hands, for scoring) that exercised each clause of the table."""
        found: Counter = Counter()
        for phase, count in self.phases.items():
            for clause in index.all_for_phase(phase):
                found[clause] += count
        for situation, clauses in SITUATION_CLAUSES.items():
            for clause in index.existing(clauses):
                found[clause] += self.situations.get(situation, 0)
        for (phase, kind), count in self.moves.items():
            clause = index.first((kind,))          # an action named like its clause: alone, defend-alone
            if clause:
                found[clause] += count
        if self.phases.get("play"):
            for clause in index.existing(PLAY_CLAUSES):
                found[clause] += self.phases["play"]
        for row, count in self.rows.items():
            clause = index.for_row(row)
            if clause:
                found[clause] += count
        if self.hands:
            for always in ("players", "deck", "deal", "upcard"):
                clause = index.first((always,))
                if clause:
                    found[clause] += self.hands
        if self.setups.get("first_dealer"):
            clause = index.first(("first-dealer",))
            if clause:
                found[clause] += self.setups["first_dealer"]
        if self.situations.get("game over"):
            clause = index.first(("game-target",))
            if clause:
                found[clause] += self.situations["game over"]
        return found

    def to_json(self, index: ClauseIndex | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "hands": self.hands, "games": self.games, "steps": self.steps, "probes": self.probes, "views": self.views,
            "phases": dict(self.phases), "setups": dict(self.setups), "situations": {s: self.situations.get(s, 0) for s in SITUATIONS},
            "scoring_rows": {str(k) if k is not None else "thrown-in": v for k, v in self.rows.items()},
        }
        if index is not None:
            covered = self.clauses(index)
            data["clauses"] = {c: covered.get(c, 0) for c in index.ids}
        return data
