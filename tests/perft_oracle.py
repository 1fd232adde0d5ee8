"""A brute-force action counter for the upcard-rounds family, written apart from the interpreter.

It re-implements one hand of four-handed partnership Euchre straight from the resolved
rule table (bidding rounds, stick the dealer, the Benny upcard, going alone, the lone
defence, the dealer's exchange, railroading, the play) with plain Python sets and
dictionaries, and counts action sequences the way the protocol's ``perft`` defines them.
It shares no code with ``reference_impl`` beyond the card-ranking reading in ``oracle.py``,
so a perft count both agree on is evidence about the rules, not about one program.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import oracle

SUITS = ("C", "D", "H", "S")


@dataclass
class Hand:
    table: dict[str, Any]
    dealer: int
    hands: list[set[str]]
    upcard: str
    phase: str = "bid-round-1"
    to_act: int | None = None
    offered_suit: str | None = None
    passes: int = 0
    round: int = 1
    trump: str | None = None
    maker: int | None = None
    alone: bool = False
    defender: int | None = None
    out: set[int] = field(default_factory=set)
    todo: list[str] = field(default_factory=list)       # steps still to come after making trumps
    asked: list[int] = field(default_factory=list)      # defenders still to be asked
    owed: int = 0                                       # cards the seat to act must discard
    taken: set[str] = field(default_factory=set)
    given: str | None = None
    trick: list[tuple[int, str]] = field(default_factory=list)
    tricks_played: int = 0

    # -- helpers ----------------------------------------------------------------------------
    def left(self, seat: int) -> int:
        return (seat + 1) % 4

    def partner(self, seat: int) -> int:
        return (seat + 2) % 4

    def next_in(self, seat: int) -> int:
        seat = self.left(seat)
        while seat in self.out:
            seat = self.left(seat)
        return seat

    def step(self, kind: str, **match: Any) -> dict[str, Any] | None:
        """The table's first step of ``kind`` whose fields equal ``match`` (None if none)."""
        return next((s for s in self.table["hand"] if s["kind"] == kind
                     and all(s.get(k) == v for k, v in match.items())), None)

    def position(self, kind: str, **match: Any) -> int:
        step = self.step(kind, **match)
        return self.table["hand"].index(step) if step is not None else -1


def start(table: dict[str, Any], dealer: int, hands: list[list[str]], upcard: str) -> Hand:
    hand = Hand(table, dealer, [set(h) for h in hands], upcard)
    if upcard == table["ranking"].get("benny"):
        hand.phase, hand.to_act = "benny-suit", dealer
    else:
        hand.offered_suit, hand.to_act = upcard[1], hand.left(dealer)
    return hand


def legal(h: Hand) -> list[str]:
    if h.to_act is None:
        return []
    if h.phase == "benny-suit":
        return [f"name:{s}" for s in SUITS]
    if h.phase == "bid-round-1":
        return ["pass", "order"]
    if h.phase == "bid-round-2":
        naming = h.step("make-trumps", action="call")
        stuck = naming.get("stuck") == "dealer" and h.to_act == h.dealer
        forbidden = naming.get("turned-down", "forbidden") == "forbidden"
        calls = [f"call:{s}" for s in SUITS if not (forbidden and s == h.offered_suit)]
        return calls if stuck else ["pass"] + calls
    if h.phase == "alone":
        return ["pass", "alone"]
    if h.phase == "defend-alone":
        return ["pass", "defend-alone"]
    if h.phase == "partners-best":
        return ["pass"] + [f"give:{c}" for c in h.hands[h.to_act]]
    if h.phase == "take-best":
        return ["pass", "take"]
    if h.phase == "discard":
        cards = h.hands[h.to_act]
        if not h.step("exchange").get("may-discard-taken", True):
            cards = cards - h.taken
        return [f"discard:{c}" for c in cards]
    if h.phase == "play":
        return [f"play:{c}" for c in oracle.legal_plays(h.table, h.trump, sorted(h.hands[h.to_act]), h.trick)]
    raise AssertionError(h.phase)


def _after_trumps(h: Hand) -> None:
    before = h.position("offer", effect="alone") < h.position("exchange")
    h.todo = ["alone", "defend", "exchange", "best", "play"] if before else ["exchange", "alone", "defend", "best", "play"]
    _next_step(h)


def _next_step(h: Hand) -> None:
    while h.todo:
        step = h.todo.pop(0)
        if step == "alone" and h.step("offer", effect="alone"):
            h.phase, h.to_act = "alone", h.maker
            return
        defence = h.step("offer", effect="defend-alone")
        if step == "defend" and defence and (h.alone or "alone" not in defence.get("when", {})):
            first = (h.maker + 1) % 4 if defence["to"]["from"] == "maker-left" else h.left(h.dealer)
            h.asked = [s for s in (first, (first + 1) % 4, (first + 2) % 4, (first + 3) % 4)
                       if s % 2 != h.maker % 2 and s not in h.out]      # the opponents in the hand, in turn
            h.phase, h.to_act = "defend-alone", h.asked[0]
            return
        if step == "exchange" and h.round == 1 and h.dealer not in h.out:
            h.hands[h.dealer].add(h.upcard)
            h.taken = {h.upcard}
            h.phase, h.to_act, h.owed = "discard", h.dealer, 1
            return
        if step == "best" and h.alone and h.step("give"):
            h.phase, h.to_act = "partners-best", h.partner(h.maker)
            return
        if step == "play":
            rules = h.step("play")["lead"]
            lone = next((r["seat"] for r in rules if r.get("when") == {"alone": True}), None)
            usual = next(r["seat"] for r in rules if "when" not in r)
            lead_rule = lone if h.alone and lone else usual
            first = h.left(h.maker) if lead_rule == "maker-left" else h.maker if lead_rule == "maker" else h.left(h.dealer)
            while first in h.out:
                first = h.left(first)
            h.phase, h.to_act = "play", first
            return
    raise AssertionError("no step left")


def _copy(h: Hand) -> Hand:
    return dataclasses.replace(h, hands=[set(cards) for cards in h.hands], out=set(h.out), todo=list(h.todo),
                               asked=list(h.asked), taken=set(h.taken), trick=list(h.trick))


def apply(h: Hand, action: str) -> Hand:
    h = _copy(h)
    kind, _, arg = action.partition(":")
    seat = h.to_act
    if h.phase == "benny-suit":
        h.offered_suit, h.phase, h.to_act = arg, "bid-round-1", h.left(h.dealer)
    elif h.phase in ("bid-round-1", "bid-round-2"):
        if kind in ("order", "call"):
            h.trump, h.maker = (h.offered_suit if kind == "order" else arg), seat
            _after_trumps(h)
        else:
            h.passes += 1
            if h.passes < 4:
                h.to_act = h.left(seat)
            elif h.phase == "bid-round-1":
                h.phase, h.round, h.passes, h.to_act = "bid-round-2", 2, 0, h.left(h.dealer)
            else:
                h.phase, h.to_act = "thrown-in", None
    elif h.phase == "alone":
        if kind == "alone":
            h.alone = True
            h.out.add(h.partner(h.maker))
        _next_step(h)
    elif h.phase == "defend-alone":
        h.asked.pop(0)
        if kind == "defend-alone":
            h.defender = seat
            h.out.add(h.partner(seat))
            h.asked = []
        if h.asked:
            h.to_act = h.asked[0]
        else:
            _next_step(h)
    elif h.phase == "discard":
        h.hands[seat].discard(arg)
        h.owed -= 1
        if h.owed == 0:
            _next_step(h)
    elif h.phase == "partners-best":
        if kind == "give":
            h.hands[seat].discard(arg)
            h.given = arg
            h.phase, h.to_act = "take-best", h.maker
        else:
            _next_step(h)
    elif h.phase == "take-best":
        if kind == "take":
            h.hands[seat].add(h.given)
            h.taken = set()
            h.phase, h.owed = "discard", 1
        else:
            h.given = None
            _next_step(h)
    elif h.phase == "play":
        h.hands[seat].discard(arg)
        h.trick.append((seat, arg))
        if len(h.trick) < 4 - len(h.out):
            h.to_act = h.next_in(seat)
        else:
            winner = oracle.trick_winner(h.table, h.trump, h.trick)
            h.trick, h.tricks_played = [], h.tricks_played + 1
            h.to_act = winner if h.tricks_played < 5 else None
    return h


def perft(h: Hand, depth: int) -> int:
    if depth == 0 or h.to_act is None:
        return 1
    return sum(perft(apply(h, action), depth - 1) for action in legal(h))


# -- the play alone, for any table ---------------------------------------------------------------------
# Positions of tables outside the upcard family (packs with copies, the play step's `must`
# rules, any number of players) are counted from the first lead: the seats' hands, trumps and
# the leader are what the case states for that moment, and every seat plays (none sits out).
@dataclass
class Play:
    table: dict[str, Any]
    trump: str
    hands: list[set[str]]
    to_act: int | None
    trick: list[tuple[int, str]] = field(default_factory=list)
    tricks_played: int = 0


def play_start(table: dict[str, Any], hands: list[list[str]], trump: str, leader: int) -> Play:
    return Play(table, trump, [set(h) for h in hands], leader)


def play_legal(p: Play) -> list[str]:
    if p.to_act is None:
        return []
    return sorted(f"play:{c}" for c in oracle.legal_plays(p.table, p.trump, sorted(p.hands[p.to_act]), p.trick))


def play_apply(p: Play, action: str) -> Play:
    card = action.partition(":")[2]
    seat = p.to_act
    hands = [set(h) for h in p.hands]
    hands[seat].discard(card)
    trick = p.trick + [(seat, card)]
    n = len(hands)
    if len(trick) < n:
        return Play(p.table, p.trump, hands, (seat + 1) % n, trick, p.tricks_played)
    winner = oracle.trick_winner(p.table, p.trump, trick)
    played = p.tricks_played + 1
    return Play(p.table, p.trump, hands, winner if any(hands) else None, [], played)


def play_perft(p: Play, depth: int) -> int:
    if depth == 0:
        return 1
    moves = play_legal(p)
    if depth == 1:
        return len(moves)
    return sum(play_perft(play_apply(p, a), depth - 1) for a in moves)
