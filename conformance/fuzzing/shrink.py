"""Shrinking a divergence to a small game that still shows it.

A fuzzed divergence typically sits in the fourth hand of a game, after sixty moves. The
shrinker replays rewritten games on the engine and the reference and keeps a rewrite
whenever the *same* disagreement (the same signature: phase, request, fields, kinds of
action) is still the first one, and the game is smaller: fewer hands first, then fewer
steps, then plainer setups and cards. The rewrites, tried in turn until none helps:

1. start at the diverging hand (the game's scores and dealer at that point given in
   ``new_game``), or drop one earlier hand;
2. drop a probe (or a seat's view);
3. plainer setup: scores lowered to zero, the first-dealer cards cut short;
4. take the diverging step earlier, the moves between left out;
5. replace a move by another legal one (a bid instead of a pass ends the bidding sooner,
   going alone shortens the play), the rest of the hand repaired, or followed at once by
   the diverging step;
6. simpler cards: each position of the deal given the card a canonical deal has there
   (the two cards change places, and so do the moves that name them).

Every candidate costs one replay of a short game, so the work is bounded by a number of
replays and by a time budget.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any, Iterator

from reference_impl import Rules

from .clauses import ClauseIndex
from .divergence import Divergence
from .lockstep import Lockstep, SetupError
from .replay import Replay, replay
from .script import Hand, Script, Step

SHRINK_REPLAYS = 3000
SHRINK_SECONDS = 120.0


@dataclass
class Shrunk:
    divergence: Divergence
    original_hands: int
    original_steps: int
    replays: int
    seconds: float


def _size(script: Script, canonical: Any = None) -> tuple:
    """Smaller is simpler: fewer hands, fewer steps, a plainer setup, plainer cards."""
    scores = script.setup.get("scores")
    first = script.setup.get("first_dealer", {}).get("cards", [])
    setup = (sum(abs(s) for s in scores) + 1 if scores is not None else 0) + len(first)
    cards = _card_distance(script, canonical) if canonical is not None else 0
    return (len(script.hands), script.steps, setup, cards)


def _layout(deal: dict[str, Any]) -> list[tuple[str, int, int]]:
    """Every card position of a deal: (key, index, position in the key's list)."""
    places = []
    for s, hand in enumerate(deal.get("hands", [])):
        places += [("hands", s, i) for i in range(len(hand))]
    if deal.get("upcard") is not None:
        places.append(("upcard", 0, 0))
    for key in ("widow", "kitty"):
        places += [(key, 0, i) for i in range(len(deal.get(key, [])))]
    return places


def _card_at(deal: dict[str, Any], place: tuple[str, int, int]) -> str:
    key, s, i = place
    if key == "hands":
        return deal["hands"][s][i]
    if key == "upcard":
        return deal["upcard"]
    return deal[key][i]


def _canonical(deal: dict[str, Any], rules: Rules) -> dict[tuple[str, int, int], str]:
    """The plainest deal of this shape: the pack in its own order, dealt seat by seat."""
    order = [c for c in rules.card_names]
    dealt = {_card_at(deal, p) for p in _layout(deal)}
    order = [c for c in order if c in dealt] + sorted(dealt - set(order))
    return dict(zip(_layout(deal), order))


def _card_distance(script: Script, canonical: Any) -> int:
    return sum(1 for hand in script.hands for p in _layout(hand.deal) if canonical(hand.deal).get(p) != _card_at(hand.deal, p))


def _swap_cards(hand: Hand, a: str, b: str) -> Hand:
    """The hand with cards ``a`` and ``b`` changing places, in the deal and in every move."""
    def card(c: str) -> str:
        return b if c == a else a if c == b else c

    deal = dict(hand.deal)
    deal["hands"] = [[card(c) for c in cards] for cards in hand.deal.get("hands", [])]
    if deal.get("upcard") is not None:
        deal["upcard"] = card(deal["upcard"])
    for key in ("widow", "kitty"):
        if key in deal:
            deal[key] = [card(c) for c in deal[key]]
    steps = []
    for step in hand.steps:
        verb, sep, arg = step.action.partition(":")
        steps.append(replace(step, action=f"{verb}:{card(arg)}" if sep and len(arg) == 2 else step.action))
    return Hand(deal, steps)


class Shrinker:
    def __init__(self, lockstep: Lockstep, rules: Rules, clauses: ClauseIndex, max_replays: int = SHRINK_REPLAYS,
                 seconds: float = SHRINK_SECONDS):
        self.lockstep = lockstep
        self.rules = rules
        self.clauses = clauses
        self.max_replays = max_replays
        self.deadline = 0.0
        self.seconds = seconds
        self.replays = 0

    def _canonical(self, deal: dict[str, Any]) -> dict:
        return _canonical(deal, self.rules)

    def size(self, script: Script) -> tuple:
        return _size(script, self._canonical)

    def _spent(self) -> bool:
        return self.replays >= self.max_replays or time.monotonic() > self.deadline

    def _replay(self, script: Script, complete: bool = False) -> Replay | None:
        """One replay (with repair); an engine that can no longer be started ends the shrinking."""
        self.replays += 1
        try:
            return replay(self.lockstep, script, self.clauses, repair=True, complete=complete)
        except SetupError:
            self.deadline = 0.0
            return None

    def _try(self, script: Script, target: tuple, best: Divergence, complete: bool = True) -> Divergence | None:
        """The candidate's divergence if it is the same kind and the game is smaller."""
        if self._spent():
            return None
        played = self._replay(script, complete)
        if played is None or played.divergence is None or played.divergence.signature != target:
            return None
        found = played.divergence
        return found if self.size(found.script) < self.size(best.script) else None

    def shrink(self, divergence: Divergence) -> Shrunk:
        """Apply the rewrites in turn, each as long as it helps, until none does. Within a
        rewrite a cursor moves on from the last success: what failed before it is not tried
        again (the steps before a changed move are the same)."""
        started = time.monotonic()
        self.deadline = started + self.seconds
        best = divergence
        target = divergence.signature
        kinds = (self._fewer_hands, self._fewer_probes, self._plainer_setup, self._straight_on, self._other_moves,
                 self._plainer_cards)
        improving = True
        while improving and not self._spent():
            improving = False
            for kind in kinds:
                cursor = 0
                while not self._spent():
                    found = None
                    for index, candidate in kind(best, cursor):
                        improved = self._try(candidate, target, best)
                        if improved is not None:
                            found = index, improved
                            break
                        if self._spent():
                            break
                    if found is None:
                        break
                    cursor, best = found
                    best.game, best.count = divergence.game, divergence.count
                    improving = True
        return Shrunk(best, divergence.hands, divergence.steps, self.replays, time.monotonic() - started)

    # -- the rewrites: each yields (cursor, candidate) from a cursor on -------------------------------
    def _fewer_hands(self, best: Divergence, cursor: int) -> Iterator[tuple[int, Script]]:
        script = best.script
        if len(script.hands) < 2:
            return
        if cursor == 0 and "scores" not in self.lockstep.refused:
            played = self._replay(script)
            if played is not None and len(played.hand_starts) == len(script.hands):
                dealer, scores = played.hand_starts[-1]
                yield 0, Script({"dealer": dealer, "scores": scores}, [script.hands[-1]])
        for k in range(max(0, cursor - 1), len(script.hands) - 1):
            yield k + 1, Script(dict(script.setup), script.hands[:k] + script.hands[k + 1:])

    def _fewer_probes(self, best: Divergence, cursor: int) -> Iterator[tuple[int, Script]]:
        """Without a request to refuse, or a seat's view, that is not where the engine diverged."""
        script = best.script
        index = 0
        for h, hand in enumerate(script.hands):
            for s, step in enumerate(hand.steps):
                last = h == len(script.hands) - 1 and s == len(hand.steps) - 1
                if step.probe and not last:
                    if index >= cursor:
                        copy = script.copy()
                        del copy.hands[h].steps[s]
                        yield index, copy
                    index += 1
                elif step.views and not (last and best.position.kind == "view"):
                    if index >= cursor:
                        copy = script.copy()
                        copy.hands[h].steps[s] = replace(step, views=())
                        yield index, copy
                    index += 1

    def _straight_on(self, best: Divergence, cursor: int) -> Iterator[tuple[int, Script]]:
        """The last hand's diverging step taken earlier, the moves between left out (a request
        to refuse may be refused as well at the first bid as at the fourth)."""
        script = best.script
        if not script.hands or len(script.hands[-1].steps) < 2:
            return
        steps = script.hands[-1].steps
        for s in range(cursor, len(steps) - 1):
            copy = script.copy()
            copy.hands[-1].steps = steps[:s] + [steps[-1]]
            yield s, copy

    def _other_moves(self, best: Divergence, cursor: int) -> Iterator[tuple[int, Script]]:
        script = best.script
        played = self._replay(script)
        if played is None:
            return
        for index, ((h, s), legal) in enumerate(sorted(played.legal.items())):
            if index < cursor or h >= len(script.hands) or s >= len(script.hands[h].steps):
                continue
            step = script.hands[h].steps[s]
            in_time = h == len(script.hands) - 1 and s < len(script.hands[h].steps) - 1
            for action in sorted((a for a in legal if a != step.action), key=lambda a: (a == "pass", legal.index(a))):
                if in_time:
                    # Straight from the new move to the diverging step (a request to refuse, say,
                    # may then come in the same phase much sooner).
                    jump = script.copy()
                    jump.hands[h].steps[s:] = [Step(step.seat, action), script.hands[h].steps[-1]]
                    yield index, jump
                copy = script.copy()
                copy.hands[h].steps[s] = Step(step.seat, action)
                yield index, copy

    def _plainer_cards(self, best: Divergence, cursor: int) -> Iterator[tuple[int, Script]]:
        script = best.script
        index = 0
        for h, hand in enumerate(script.hands):
            for place, wanted in self._canonical(hand.deal).items():
                have = _card_at(hand.deal, place)
                if index >= cursor and have != wanted:
                    copy = script.copy()
                    copy.hands[h] = _swap_cards(hand, have, wanted)
                    yield index, copy
                index += 1

    def _plainer_setup(self, best: Divergence, cursor: int) -> Iterator[tuple[int, Script]]:
        script = best.script
        candidates: list[dict[str, Any]] = []
        scores = script.setup.get("scores")
        if scores is not None:
            if not any(scores):
                candidates.append({k: v for k, v in script.setup.items() if k != "scores"})
            for i, score in enumerate(scores):
                for lower in (0, score // 2, score - 1):
                    if 0 <= lower < score:
                        candidates.append({**script.setup, "scores": scores[:i] + [lower] + scores[i + 1:]})
        first = script.setup.get("first_dealer")
        if first and len(first["cards"]) > 1:
            for length in sorted({1, 2, 4, len(first["cards"]) // 2, len(first["cards"]) - 1}):
                if 0 < length < len(first["cards"]):
                    candidates.append({**script.setup, "first_dealer": {**first, "cards": first["cards"][:length]}})
        for index, setup in enumerate(candidates):
            if index >= cursor:
                yield index, Script(setup, script.hands)

def shrink_divergence(make_engine: Any, variant: str, engine_table: Any, reference_table: Any, divergence: Divergence,
                      seconds: float = SHRINK_SECONDS, max_replays: int = SHRINK_REPLAYS) -> Shrunk:
    """Shrink ``divergence`` on a fresh engine (its own process) beside the reference."""
    from reference_impl import load_rules

    lockstep = Lockstep(make_engine, variant, engine_table, reference_table)
    try:
        shrinker = Shrinker(lockstep, load_rules(variant, dict(reference_table.selected)),
                            ClauseIndex(reference_table.table), max_replays=max_replays, seconds=seconds)
        return shrinker.shrink(divergence)
    finally:
        lockstep.close()
