"""Who sees what: a table's ``visibility`` entries compiled, and a seat's view derived from them.

A view is never built by hand: :func:`seat_view` takes the whole observable state (what a
conformance case checks) and removes what the table's visibility entries do not let one seat
see, zone by zone. The defaults (:data:`DEFAULTS`) come first and a table's own entries after
them; for each card the last entry that applies decides. So a table states only what
differs, and the seed tables state everything, with their sources.

A seat's view has three parts (the axes of an observer in game-playing frameworks): the
public part, the same for every seat (phase, bidding, tricks, scores, the upcard, any hand
face up); the seat's private part (its own hand, and ``legal`` only when it is the seat to
act); and its own history of the hand (perfect recall: the cards it laid away, gave and
received, in ``discards``, ``passed`` and ``received``), which nothing else in the state would
remind it of.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

ZONES = ("hands", "upcard", "kitty", "widow", "dummy", "discards", "passed", "exchanged", "tricks", "called-card")
EVENTS = ("deal", "bidding-over", "opening-lead", "hand-end")

# Applied before a table's own entries (docs: the schema's `$defs/visibility`).
DEFAULTS: tuple[dict[str, Any], ...] = (
    {"zone": "hands", "seen-by": "owner"},
    {"zone": "upcard", "seen-by": "everyone"},
    {"zone": "kitty", "seen-by": "owner"},
    {"zone": "widow", "seen-by": "owner"},
    {"zone": "dummy", "seen-by": "owner"},
    {"zone": "discards", "seen-by": "owner"},
    {"zone": "passed", "seen-by": "owner"},
    {"zone": "exchanged", "seen-by": "owner"},
    {"zone": "tricks", "seen-by": "everyone"},
    {"zone": "called-card", "seen-by": "everyone"},
)

# The fields a view adds for a seat's own history, per seat (null where hidden).
HISTORY_FIELDS = ("discards", "passed", "received")


@dataclass(frozen=True)
class Entry:
    """One compiled entry: for whose cards, when, from which event, seen by whom."""

    zone: str
    of: Callable[[Any], int] | None      # the owner it is limited to (None: every owner)
    seen_by: str                          # owner, side, everyone, nobody, seats
    seats: frozenset[int]
    event: int                            # index into EVENTS
    when: Callable[[Any, int, int], bool] | None


class Visibility:
    """A table's visibility entries (defaults first), ready to ask."""

    def __init__(self, rules: Any):
        from .conditions import compile_condition, seat_function
        self.rules = rules
        by_zone: dict[str, list[Entry]] = {zone: [] for zone in ZONES}
        for raw in DEFAULTS + tuple(rules.table.get("visibility", ())):
            of = raw.get("of")
            owner: Callable[[Any], int] | None
            if of is None:
                owner = None
            elif isinstance(of, int):
                owner = _constant(of)
            else:
                owner = seat_function(rules, of)
            seen = raw["seen-by"]
            seats = frozenset(seen["seats"]) if isinstance(seen, dict) else frozenset()
            by_zone[raw["zone"]].append(Entry(raw["zone"], owner, "seats" if isinstance(seen, dict) else seen, seats,
                                              EVENTS.index(raw.get("from", "deal")),
                                              compile_condition(rules, raw["when"]) if "when" in raw else None))
        self.by_zone = by_zone
        # Per zone, the entries that can decide (from the last one that always applies: those
        # before it never do), and whether any waits for an event (else the hand's progress
        # need not be read): every seat's view asks this several times a step.
        self.deciding: dict[str, tuple[tuple[Entry, ...], bool]] = {}
        for zone, entries in by_zone.items():
            last = max((i for i, e in enumerate(entries) if e.of is None and e.when is None and e.event == 0), default=0)
            self.deciding[zone] = (tuple(entries[last:]), any(e.event > 0 for e in entries[last:]))
        # the zone that names the cards dealt apart (the table's `deal.widow-name`)
        self.widow_zone = rules.widow_name if rules.widow_name in ("kitty", "widow", "dummy") else "widow"

    def sees(self, state: Any, zone: str, owner: int, viewer: int, other_owner: int = -1) -> bool:
        """Whether ``viewer`` may see ``owner``'s cards of ``zone`` now (``other_owner``: a
        second owner, the receiver of a passed card)."""
        entries, timed = self.deciding[zone]
        reached = events_reached(state) if timed else 0
        rule: Entry | None = None
        for entry in entries:
            if entry.event > reached:
                continue
            if entry.of is not None and entry.of(state) != owner:
                continue
            if entry.when is not None and not entry.when(state, owner, state.rules.unit_of[owner] if owner >= 0 else -1):
                continue
            rule = entry
        if rule is None:
            return False
        kind = rule.seen_by
        if kind == "everyone":
            return True
        if kind == "nobody" or owner < 0:
            return False
        if kind == "owner":
            return viewer == owner or viewer == other_owner
        if kind == "side":
            return viewer == owner or viewer == other_owner or viewer in state._partners(owner)
        return viewer in rule.seats


def _constant(seat: int) -> Callable[[Any], int]:
    return lambda state: seat


def events_reached(state: Any) -> int:
    """The last of :data:`EVENTS` that has happened in the hand in progress."""
    if state.phase in ("deal", "game-over") or state.hand_points is not None:
        return 3
    if state.tricks or state.trick:
        return 2
    if state.maker >= 0 or state.trump >= 0:
        return 1
    return 0


_COMPILED: dict[str, Visibility] = {}


def visibility_of(rules: Any) -> Visibility:
    """The compiled visibility of a table (cached by the table's hash)."""
    key = rules.sha256 + rules.id
    found = _COMPILED.get(key)
    if found is None or found.rules is not rules and found.rules.table is not rules.table:
        found = _COMPILED[key] = Visibility(rules)
    return found


def hand_history(state: Any) -> list[tuple[str, int, str, int]]:
    """The hand's private moves since its deal, as (kind, seat, card, other seat): ``discard``
    (laid away), ``give`` (passed; ``other`` is the receiver once he has taken it, else -1),
    and ``take-<source>``: a card taken from the widow, from the kitty (a swap), drawn in an
    exchange, or from a partner (``other``: the giver)."""
    events = state.events
    if not events:
        return []
    # Every seat's view asks this of the same state (and a fuzzer's step asks it again): the
    # answer is kept for the event log as it stands (the log only grows, and its last event
    # is held here, so no other log can be taken for it).
    cached = _HISTORY_KEPT[0]
    if cached[0] is events and cached[1] == len(events) and cached[2] is events[-1]:
        return list(cached[3])
    start = len(events)
    while start > 0 and events[start - 1][0] != "deal":
        start -= 1
    if start == 0:
        return []                       # no hand dealt yet
    moves: list[tuple[str, int, str, int]] = []
    gifts: list[int] = []               # the indices in ``moves`` of the cards given and not yet taken
    for event in events[start:]:
        kind = event[0]
        if kind == "action":
            seat, token = event[1], event[2]
            if token.startswith("discard:"):
                moves.append(("discard", seat, token[8:], -1))
            elif token.startswith("give:"):
                gifts.append(len(moves))
                moves.append(("give", seat, token[5:], -1))
        elif kind == "take":
            seat, source = event[1], event[2]
            if source == "upcard":
                continue                # the upcard was face up: no one's secret
            giver = -1
            if source == "partner" and gifts:
                for gift in gifts[-len(event[3]):]:   # the cards just taken: one, or a packet (give-count)
                    _, giver, card, _ = moves[gift]
                    moves[gift] = ("give", giver, card, seat)
                gifts = []
            for card in event[3]:
                moves.append(("take-" + source, seat, card, giver))
        elif kind in ("swap", "exchange"):
            for card in event[3]:
                moves.append(("take-kitty" if kind == "swap" else "take-exchange", event[1], card, -1))
    _HISTORY_KEPT[0] = (events, len(events), events[-1], tuple(moves))
    return moves


_HISTORY_KEPT: list[tuple[Any, int, Any, tuple[tuple[str, int, str, int], ...]]] = [(None, 0, None, ())]


def history_fields(state: Any, viewer: int | None) -> dict[str, list[Any]]:
    """``discards``, ``passed`` and ``received`` per seat (a seat's entry null where
    ``viewer`` may not see it; everything when ``viewer`` is None)."""
    n = state.rules.n
    moves = hand_history(state)
    if not moves:                       # nothing laid away, passed or taken unseen yet
        return {name: [[] if viewer is None or s == viewer else None for s in range(n)] for name in HISTORY_FIELDS}
    vis = visibility_of(state.rules) if viewer is not None else None
    discards: list[list[str]] = [[] for _ in range(n)]
    passed: list[list[str]] = [[] for _ in range(n)]
    received: list[list[str]] = [[] for _ in range(n)]
    # In a seat's view another seat's entry is null unless it holds something and the seat
    # may see all of it: an empty entry would tell nothing, but a null one tells nothing either.
    secret = [[False] * n for _ in range(3)]
    for kind, seat, card, other in moves:
        if kind == "discard":
            zone, target, index, pair = "discards", discards, 0, -1
        elif kind == "give":
            zone, target, index, pair = "passed", passed, 1, other
        else:
            source = kind[5:]
            zone = {"partner": "passed", "kitty": "kitty", "exchange": "exchanged"}.get(source, "")
            if not zone:
                zone = vis.widow_zone if vis is not None else "widow"
            target, index, pair = received, 2, other
        if vis is not None and viewer is not None and seat != viewer and not vis.sees(state, zone, seat, viewer, pair):
            secret[index][seat] = True
        target[seat].append(card)
    out: dict[str, list[Any]] = {}
    for index, (name, lists) in enumerate(zip(HISTORY_FIELDS, (discards, passed, received))):
        out[name] = [cards if viewer is None or s == viewer or cards and not secret[index][s] else None
                     for s, cards in enumerate(lists)]
    return out


def seat_view(state: Any, full: dict[str, Any], seat: int) -> dict[str, Any]:
    """What ``seat`` may see of ``full`` (the whole observable state), by the table's entries."""
    vis = visibility_of(state.rules)
    view = dict(full)
    if full.get("to_act") != seat:
        view["legal"] = []
    hands = full.get("hands")
    if isinstance(hands, list):
        view["hands"] = [hand if owner == seat or vis.sees(state, "hands", owner, seat) else None
                         for owner, hand in enumerate(hands)]
    if full.get("upcard") is not None and not vis.sees(state, "upcard", state.dealer, seat):
        view["upcard"] = None
    if full.get("called_card") is not None and not vis.sees(state, "called-card", state.maker, seat):
        view["called_card"] = None
    if not vis.sees(state, "tricks", -1, seat):
        view["tricks"] = [{**trick, "cards": []} for trick in full.get("tricks", [])]
    view.update(history_fields(state, seat))
    return view
