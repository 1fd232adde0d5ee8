"""What the reference's seat views leak, hide and forget, counted over the fuzzer's random games.

At every state of a game (after each deal and each action) each seat's view
(what the reference answers to ``state {seat}``: see :func:`reference_views`) is scanned for
card tokens wherever they appear (hands, ``legal``, tricks, the history fields, a field of
its own). A token is *allowed* when the game told the seat that card: dealt to it, taken,
given or laid away by it, the upcard, a card played to a trick, the called card, or a card of
a hand the table's visibility shows it. That knowledge is rebuilt here from the game's event
log, not from the view code, so the two can disagree:

- a *leaking* view names a card the seat cannot know;
- a *hiding* view leaves out (null) a hand the table's visibility shows the seat;
- a *forgetting* view leaves out a card the seat itself laid away (``discards``).

Why this is as strict as scanning every view whole, at a fraction of the cost:

- What a seat knows only grows during a hand (perfect recall: a card it was told stays
  told), so its allowed set is kept from step to step and grown by the new events only,
  instead of being rebuilt from the hand's start at every step.
- A view that passed at the previous step named only allowed cards, and the allowed set has
  not shrunk; so a token that can fail now is in a part of the view that changed: each
  field (each item of a list field) equal to the previous view's is not scanned again. After
  a leak the seat's next view is scanned whole, so a leaking card still shown counts again.
- The cards of the hands a table shows (a dummy, an open misère) are looked up only when a
  view names a card the seat is not otherwise known to hold: the answer is the same.

Every view of every seat at every state is still asked of the reference and checked.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from reference_impl.rules import Rules
from reference_impl.state import State
from reference_impl.visibility import HISTORY_FIELDS, seat_view, visibility_of

from .hands import HANDS_PER_GAME, random_game
from .policy import Policy

ViewsOf = Callable[[State], list[dict[str, Any]]]

# The fields of ``observation(seat)`` that ``State.observation`` fills in for the seat before
# the table's visibility is applied: a list of seats and a seat, never a card.
SEAT_FIELDS = ("reneges", "partner")


def reference_views(state: State) -> list[dict[str, Any]]:
    """Every seat's view as the reference answers ``state {seat}``, sharing one observation.

    ``State.observation(seat)`` builds the whole observation and hands it to
    :func:`reference_impl.visibility.seat_view`; only :data:`SEAT_FIELDS` (seat numbers) are
    built otherwise for a seat. So each view here is ``seat_view`` of one observation shared
    by the seats, without those two fields: the very cards ``state {seat}`` answers, at a
    fraction of the cost (tests/test_visibility.py holds the two equal, field for field)."""
    full = state.observation()
    views = []
    for seat in range(state.rules.n):
        view = seat_view(state, full, seat)
        for name in SEAT_FIELDS:
            view.pop(name, None)
        views.append(view)
    return views


def pre_fix_views(state: State) -> list[dict[str, Any]]:
    """The views as the reference gave them before the table's visibility was data (until
    f14de4a): every hand but the seat's own hidden, ``legal`` the moves of the seat to act
    whoever asks, no history of the hand, and an open misère hand hidden like any other."""
    full = state.observation()
    views = []
    for seat, view in enumerate(reference_views(state)):
        view["legal"] = full["legal"]
        view["hands"] = [hand if owner == seat else None for owner, hand in enumerate(full["hands"])]
        for name in HISTORY_FIELDS:
            view.pop(name, None)
        views.append(view)
    return views


@dataclass
class Tally:
    games: int = 0
    states: int = 0
    views: int = 0
    other_views: int = 0          # views of a seat that is not to act
    leaking: int = 0
    hiding: int = 0
    forgetting: int = 0
    seconds: float = 0.0
    example: str = ""

    def add(self, other: "Tally") -> None:
        for name in ("games", "states", "views", "other_views", "leaking", "hiding", "forgetting"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.seconds += other.seconds
        self.example = self.example or other.example


class HandKnowledge:
    """Per seat, the cards the hand in progress has told it (grown event by event) and the
    cards it laid away; and its previous view, to scan only what changed."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.events: list | None = None
        self.seen = 0                                  # events of ``self.events`` taken in
        self.reset()

    def reset(self) -> None:
        n = self.rules.n
        self.allowed: list[set[str]] = [set() for _ in range(n)]
        self.laid: list[set[str]] = [set() for _ in range(n)]
        self.previous: list[dict[str, Any] | None] = [None] * n

    def catch_up(self, state: State) -> None:
        """Take in the events since the last call (from the game's start for a new game)."""
        events = state.events
        if events is not self.events:
            self.events, self.seen = events, 0
            self.reset()
        names = self.rules.card_names
        for event in events[self.seen:]:
            kind = event[0]
            if kind == "deal":
                self.reset()
                _, _, _, hand_masks, upcard, _ = event
                for seat in range(self.rules.n):
                    self.allowed[seat].update(self.rules.cards_of(hand_masks[seat]))
                if upcard >= 0:
                    self._public(names[upcard])
            elif kind == "action":
                seat, token = event[1], event[2]
                head, _, card = token.partition(":")
                if head == "play":
                    self._public(card)
                elif head in ("discard", "give"):
                    self.allowed[seat].add(card)
                    if head == "discard":
                        self.laid[seat].add(card)
            elif kind in ("take", "swap", "exchange"):
                self.allowed[event[1]].update(event[3])
            elif kind == "call" and event[3] is not None:
                self._public(event[3])
        self.seen = len(events)

    def _public(self, card: str) -> None:
        for allowed in self.allowed:
            allowed.add(card)


class TokenReader:
    """Card tokens of a JSON value, as :func:`conformance.runner.seat_views.card_tokens` reads them
    (a card, or an action token ending in one; not a bid, nor under ``contract``), with each
    string's answer kept: a view repeats the same few hundred strings at every step."""

    def __init__(self, names: frozenset[str]):
        self.names = names
        self.known: dict[str, str] = {}

    def card(self, text: str) -> str:
        found = self.known.get(text)
        if found is None:
            head, _, card = text.rpartition(":")
            found = self.known[text] = card if card in self.names and head != "bid" else ""
        return found

    def add(self, value: Any, out: set[str]) -> None:
        kind = type(value)
        if kind is str:
            card = self.card(value)
            if card:
                out.add(card)
        elif kind is list or kind is tuple:
            for item in value:
                if type(item) is str:
                    card = self.card(item)
                    if card:
                        out.add(card)
                elif item is not None and type(item) is not int and type(item) is not bool:
                    self.add(item, out)
        elif kind is dict:
            for key, item in value.items():
                if key != "contract":
                    self.add(item, out)
        elif isinstance(value, str):            # subclasses, read as their base types
            self.add(str(value), out)
        elif isinstance(value, dict):
            self.add(dict(value), out)
        elif isinstance(value, (list, tuple)):
            self.add(list(value), out)

    def changed(self, view: dict[str, Any], previous: dict[str, Any] | None) -> set[str]:
        """The card tokens of the parts of ``view`` that differ from ``previous`` (all of it
        when there is none): a field, or for a list field each item, not equal to before."""
        found: set[str] = set()
        if previous is None:
            self.add(view, found)
            return found
        for key, value in view.items():
            if key == "contract":                   # a contract's id may read like a card
                continue
            old = previous.get(key, _MISSING)
            if old is value or old == value:
                continue
            if type(value) is list and type(old) is list:
                for index, item in enumerate(value):
                    if index < len(old) and old[index] == item:
                        continue
                    self.add(item, found)
            else:
                self.add(value, found)
        return found


_MISSING = object()


class LeakCheck:
    """Checks every seat's view at each state of a game it is shown, in order."""

    def __init__(self, rules: Rules, tally: Tally, views_of: ViewsOf = reference_views):
        self.rules = rules
        self.names = frozenset(rules.card_names)
        self.visibility = visibility_of(rules)
        self.tally = tally
        self.views_of = views_of
        self.knowledge = HandKnowledge(rules)
        self.tokens = TokenReader(self.names)
        # Whether any entry can show a hand beyond its owner: if not, no view may show one
        # (the defaults keep hands to their owners), and the hiding test has nothing to ask.
        self.shows_hands = any(entry.seen_by != "owner" for entry in self.visibility.by_zone["hands"])

    def check(self, state: State) -> None:
        knowledge = self.knowledge
        knowledge.catch_up(state)
        tally = self.tally
        tally.states += 1
        n = self.rules.n
        to_act = state.current_player()
        full_hands: list[list[str]] | None = None
        for seat, view in enumerate(self.views_of(state)):
            tally.views += 1
            if seat != to_act:
                tally.other_views += 1
            allowed = knowledge.allowed[seat]
            hands = view.get("hands") or []
            shown = [owner for owner in range(n) if owner != seat
                     and self.visibility.sees(state, "hands", owner, seat)] if self.shows_hands else []
            if any(owner < len(hands) and hands[owner] is None for owner in shown):
                tally.hiding += 1
            extra = self.tokens.changed(view, knowledge.previous[seat]) - allowed
            if extra and shown:
                if full_hands is None:
                    full_hands = state.observation()["hands"]
                for owner in shown:
                    allowed.update(full_hands[owner])
                extra -= allowed
            if extra:
                tally.leaking += 1
                knowledge.previous[seat] = None     # scanned whole next time
                if not tally.example:
                    tally.example = (f"hand {state.hand_number} phase {state.phase}: seat {seat} sees "
                                     f"{' '.join(sorted(extra)[:6])}")
            else:
                knowledge.previous[seat] = view
            laid = knowledge.laid[seat]
            if laid:
                own = (view.get("discards") or [None] * (seat + 1))[seat] if "discards" in view else None
                if own is None or set(own) != laid:
                    tally.forgetting += 1


def measure(rules: Rules, policy: Policy, games: int, seed: int, views_of: ViewsOf = reference_views,
            first_game: int = 0, hands: int = HANDS_PER_GAME) -> Tally:
    """Games ``first_game`` .. ``first_game + games - 1`` of ``seed``, as the fuzzer plays
    them (game ``g`` is the fuzzer's game ``g`` of that seed on the reference), every view checked."""
    tally = Tally()
    began = time.perf_counter()
    for game in range(first_game, first_game + games):
        check = LeakCheck(rules, tally, views_of)
        for state in random_game(policy, random.Random(f"{seed}:{game}"), hands):
            check.check(state)
        tally.games += 1
    tally.seconds = time.perf_counter() - began
    return tally
