"""Replaying an EGN record through the reference interpreter.

The record says who dealt, the upcard, the calls in order, whether the maker went alone,
the dealer's discard (sometimes), cards passed (sometimes), and the cards of each trick in
the order they fell. It never says who won a trick, who played which card, the hands that
were not shown, the kitty, or the score of a hand. All of that comes from the reference
interpreter: the record is replayed action by action, and the interpreter decides whose
turn it is, who wins each trick, what a hand scores and when the game ends. The only rules
applied here are EGN's encoding: call ``i`` of a deal is made by the seat ``dealer + 1 + i``;
a trick's cards belong to the seats in the order the interpreter asks them to play.

A seat's hand is not known before its cards are played, but the interpreter needs every
hand at the deal. So a hand is replayed in rounds: the cards known so far are *pinned*
(from the record's ``playerCards``, exchanges and discard, and from each card a seat is
seen to play), the rest of the pack is *filled*, the lowest unseen cards in pack order to
the seats in seat order and what is left to the kitty; the hand is replayed from its deal
until a seat is asked to play a card it was not dealt (the card is pinned to that seat and
the hand replayed again) or until a filled card makes a seat's play look like a revoke (that
seat is not given that card, and the hand replayed again). A card that must go where it
cannot (played twice, held by two seats, played by a seat that had shown it did not hold
it) is a defect of the record, reported with the deal, the trick and the seat.

What the record leaves to choice (the dealer's discard when not recorded, the three cards
laid in a farmer's hand or going under, a railroading loner's discard, the suit named for
a Benny turned up or led at no-trumps) is chosen by a fixed rule: an annotation written by
our exporter (``euchre-spec: <tokens>``) when there is one; else a card nobody plays
(a filled card first, the upcard last), and for a suit the first in pack order with which
the rest of the record replays without a defect. Every filled card and choice is listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from reference_impl import ActionError, Deal, State, new_game
from reference_impl.conditions import card_mask
from reference_impl.rules import Rules
from reference_impl.steps import ALONE, DEFEND_ALONE, EXCHANGE, GIVE, MAKE_TRUMPS, NAME, OFFER, PROPOSAL, SWAP, THROW_IN

from .cards import CardError, from_egn
from .record import DealRecord, EgnUnsupported, Record
from reference_impl.errors import Problem

KITTY = -1
HINT = re.compile(r"euchre-spec:\s*(.*)$")
MAX_ROUNDS = 400                  # replays of one hand while cards are pinned (a bug guard)
MAX_CHOICES = 16                  # combinations of suits named (a Benny upcard, a Benny led at no-trumps)

# Defect kinds (docs/egn.md lists them, each with its test file).
REVOKE = "revoke"                 # a seat did not follow suit, though its later play shows it could
DEALT_TWICE = "dealt-twice"       # a card in two places: played twice, or held by two seats
NOT_HELD = "not-held"             # a card played (or passed) by a seat that does not hold it
UPCARD_PLAYED = "upcard-played"   # the upcard played by a seat other than the dealer who took it
ILLEGAL = "illegal-action"        # a call, lone call, lone defence, discard or exchange the rules refuse
TRICK_SIZE = "trick-size"         # a trick with more or fewer cards than seats in the hand
EXTRA_PLAY = "extra-play"         # cards played when none may be: after a throw-in, after the last trick
BAD_CARD = "bad-card"             # a card not in the pack of the record's rules
BAD_DEAL = "bad-deal"             # a recorded hand of the wrong size
WRONG_DEALER = "wrong-dealer"     # a deal by another seat than the one whose turn it is to deal
CUT_SHORT = "cut-short"           # a deal that stops before its end, followed by another deal
AFTER_END = "after-end"           # a deal after the game has ended
SCORE = "score"                   # a final score that disagrees with the replayed one
KINDS = (REVOKE, DEALT_TWICE, NOT_HELD, UPCARD_PLAYED, ILLEGAL, TRICK_SIZE, EXTRA_PLAY, BAD_CARD, BAD_DEAL,
         WRONG_DEALER, CUT_SHORT, AFTER_END, SCORE)


@dataclass
class Defect:
    """The first impossible event of a record."""

    kind: str
    deal: int                       # 1-based position in the file's deals (0 for the game's end)
    trick: int | None
    seat: int | None
    message: str
    step: int | None = None         # the step of the case's hand where an engine must fail
    field: str | None = None        # the field that must differ there
    deal_number: int | None = None  # the record's own dealNumber

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "deal": self.deal, "dealNumber": self.deal_number, "trick": self.trick,
                "seat": self.seat, "message": self.message}

    def where(self) -> str:
        parts = [f"deal {self.deal}" if self.deal else "end of game"]
        if self.trick:
            parts.append(f"trick {self.trick}")
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        return ", ".join(parts)


@dataclass
class HandResult:
    """One deal replayed: the deal (filled), the steps, what was filled, and any defect."""

    record: DealRecord
    deal: Deal
    steps: list[dict[str, Any]] = field(default_factory=list)
    after_deal: dict[str, Any] = field(default_factory=dict)
    expect: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    finished: bool = False
    defect: Defect | None = None
    deal_reject: str | None = None
    clauses: list[str] = field(default_factory=list)
    features: set[str] = field(default_factory=set)
    deal_refused: bool = False                  # the (recorded) deal is one an engine must refuse
    named_by_rule: bool = False                 # a suit was named by rule (the record does not give it)


@dataclass
class GameReplay:
    record: Record
    rules: Rules
    hands: list[HandResult]
    state: State
    defect: Defect | None = None
    notes: list[str] = field(default_factory=list)
    final_checked: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    redundant: list[str] = field(default_factory=list)   # a 1.0 record's kitty and initialLead against the replay

    @property
    def complete(self) -> bool:
        return self.state.is_terminal()


class _Restart(Exception):
    """The plan learned something: replay the hand again."""


class _Found(Exception):
    def __init__(self, defect: Defect):
        super().__init__(defect.message)
        self.defect = defect


@dataclass
class _Origin:
    """Where a filled card made a seat's play look like a revoke."""

    trick: int
    seat: int
    card: str
    step: int



class _NeedTrump(Exception):
    """A bower written R or L before trumps are known."""


class _BadCard(Exception):
    def __init__(self, token: str, message: str):
        super().__init__(message)
        self.token, self.message = token, message


class _Plan:
    """What is known of one deal's cards, grown round after round."""

    def __init__(self, rules: Rules, rec: DealRecord, position: int, choices: list[int]):
        self.rules, self.rec, self.position = rules, rec, position
        self.pins: dict[str, int] = {}            # card -> the seat (or KITTY) it was dealt to
        self.why: dict[str, str] = {}             # card -> how that is known
        self.closed: set[int] = set()             # seats whose whole hand is recorded
        self.excluded: dict[tuple[int, str], _Origin] = {}
        self.wished: dict[tuple[int, str], _Origin] = {}   # a card a seat must lay at a discard the record leaves open
        self.proven: dict[tuple[int, str], str] = {}       # a card a seat is shown to keep (it plays it later)
        self.kitty_front: list[str] = []          # cards taken from the kitty, in the record's order
        self.laid: dict[int, list[str]] = {}      # filled cards a swapper lays
        self.only: dict[int, set[str]] = {}       # a swapper going under holds only these
        self.choices = choices
        self.trump: str | None = None             # trumps, once a round has shown them (for R and L)
        self.deferred: list[tuple[str, int, str]] = []
        self.played: set[str] = set()             # every card in the record's tricks
        self.discard: str | None = None           # the recorded discard, as our card
        self.exchanges: list[tuple[int | None, int, list[str]]] = []
        self.upcard = ""

    # -- the record's own cards ----------------------------------------------------------------
    def card(self, raw: str, trump: str | None = None) -> str:
        trump = trump or self.trump
        try:
            card = from_egn(raw, trump if trump in ("C", "D", "H", "S") else None, self.rules.table["deck"]["colours"])
        except CardError as exc:
            if raw in ("R", "L") and trump is None:
                raise _NeedTrump() from None
            raise _BadCard(raw, f"{raw}: {exc}") from None
        if card not in self.rules.card_index:
            raise _BadCard(card, f"{raw} is not a card of the pack of these rules "
                                 f"({len(self.rules.card_names)} cards: {self.rules.card_names[0]} to {self.rules.card_names[-1]})")
        return card

    def _setup_card(self, raw: str, seat: int | None, what: str) -> str | None:
        try:
            return self.card(raw)
        except _NeedTrump:
            return None
        except _BadCard as exc:
            raise _Found(Defect(BAD_CARD, self.position, None, seat, f"{what}: {exc.message}")) from None

    def pin(self, card: str, seat: int, why: str) -> None:
        where = self.pins.get(card)
        if card == self.upcard:
            raise _Found(Defect(DEALT_TWICE, self.position, None, seat if seat >= 0 else None,
                                f"{card} is the upcard and also {why}"))
        if where is not None and where != seat:
            raise _Found(Defect(DEALT_TWICE, self.position, None, seat if seat >= 0 else None,
                                f"{card} is {self.why[card]} and also {why}"))
        self.pins[card] = seat
        self.why.setdefault(card, why)

    def setup(self) -> None:
        """Pin what the record says of the deal (before any play)."""
        rec, r = self.rec, self.rules
        try:
            self.upcard = self.card(rec.upcard)
        except (_NeedTrump, _BadCard) as exc:
            message = exc.message if isinstance(exc, _BadCard) else f"{rec.upcard}: a bower written R or L names no card before trumps are made"
            raise _Found(Defect(BAD_CARD, self.position, None, None, f"the upcard {message}")) from None
        dealer = rec.dealer
        for seat, hand in enumerate(rec.player_cards):
            if not hand:
                continue
            if seat >= r.n:
                raise _Found(Defect(BAD_DEAL, self.position, None, seat, f"cards recorded for seat {seat} of {r.n}"))
            cards = []
            for raw in hand:
                card = self._setup_card(raw, seat, f"seat {seat}'s recorded hand")
                if card is None:
                    self.deferred.append((raw, seat, f"in seat {seat}'s recorded hand"))
                else:
                    cards.append(card)
            count = len(hand)
            if seat == dealer and count == r.hand_size + 1 and self.upcard in cards:
                cards.remove(self.upcard)          # a dealer's hand listed with the upcard taken up
                count -= 1
            if count != r.hand_size:
                raise _Found(Defect(BAD_DEAL, self.position, None, seat,
                                    f"seat {seat}'s recorded hand holds {count} cards, not {r.hand_size}"))
            for card in cards:
                if cards.count(card) > 1:
                    raise _Found(Defect(DEALT_TWICE, self.position, None, seat, f"{card} is twice in seat {seat}'s hand"))
                self.pin(card, seat, f"in seat {seat}'s recorded hand")
            self.closed.add(seat)
        for item in rec.exchanges:
            cards = []
            for raw in item.cards:
                card = self._setup_card(raw, item.receiver, "a card passed")
                if card is None:
                    raise _Found(Defect(BAD_CARD, self.position, None, item.receiver,
                                        f"{raw}: a bower cannot be named before trumps are made"))
                cards.append(card)
            self.exchanges.append((item.sender, item.receiver, cards))
            for card in cards:
                if item.sender is None:
                    self.pin(card, KITTY, f"taken from the kitty by seat {item.receiver}")
                    self.kitty_front.append(card)
                elif item.sender not in self.closed and not (
                        self.pins.get(card) == KITTY and any(e[1] == item.sender and e[0] is None and card in e[2]
                                                             for e in self.exchanges)):
                    self.pin(card, item.sender, f"passed by seat {item.sender} to seat {item.receiver}")
        if rec.discard is not None:
            card = self._setup_card(rec.discard, dealer, "the dealer's discard")
            if card is None:
                raise _Found(Defect(BAD_CARD, self.position, None, dealer,
                                    f"{rec.discard}: a bower cannot be named before trumps are made"))
            self.discard = card
            if card != self.upcard and dealer not in self.closed:
                self.pin(card, dealer, f"discarded by the dealer (seat {dealer})")
        for trick in rec.tricks:
            for raw in trick:
                try:
                    self.played.add(from_egn(raw))
                except CardError:
                    pass
        self._plan_swaps()

    def resolve_deferred(self, trump: str) -> None:
        """Trumps are known: pin the bowers the recorded hands wrote R and L."""
        self.trump = trump
        for raw, seat, why in self.deferred:
            try:
                card = self.card(raw)
            except _BadCard as exc:
                raise _Found(Defect(BAD_CARD, self.position, None, seat, f"{why}: {exc.message}")) from None
            self.pin(card, seat, why)
        self.deferred = []

    def _plan_swaps(self) -> None:
        """A seat that took the kitty's cards laid as many of its own, which the record does
        not name: where its hand is not recorded, lay filled cards it could lay (and, going
        under, hold only cards of the kind that may go under)."""
        r = self.rules
        swap = next((step for step in r.steps if step.kind == OFFER and step.effect == SWAP), None)
        if swap is None:
            return
        spec = next((h for h in r.table["hand"] if h.get("id") == swap.id), {})
        holds = (spec.get("eligible") or {}).get("holds") or {}
        kind = card_mask(r, holds["of"]) if "of" in holds else r.full_mask
        layable = swap.swap_mask & kind
        for sender, receiver, cards in self.exchanges:
            if sender is not None or receiver in self.closed or receiver >= r.n:
                continue
            taken = set(self.pins) | {self.upcard} | self.played | {c for v in self.laid.values() for c in v}
            choice = [c for i, c in enumerate(r.card_names) if layable >> i & 1 and c not in taken][:swap.swap_count]
            self.laid[receiver] = choice
            if holds.get("only"):
                self.only[receiver] = {c for i, c in enumerate(r.card_names) if kind >> i & 1}

    # -- the deal ---------------------------------------------------------------------------------
    def build(self) -> tuple[Deal, dict[int, list[str]]]:
        """The deal: pinned cards where they are known, the rest filled; and each seat's
        filled cards (the kitty's under KITTY)."""
        r = self.rules
        hands: dict[int, list[str]] = {s: [] for s in range(r.n)}
        for card, seat in self.pins.items():
            if seat >= 0:
                hands[seat].append(card)
        for seat, cards in self.laid.items():
            hands[seat] += cards
        taken = set(self.pins) | {c for cards in self.laid.values() for c in cards} | {self.upcard}
        free = [c for c in r.card_names if c not in taken]
        need = {s: r.hand_size - len(hands[s]) for s in range(r.n)}
        over = [s for s, v in need.items() if v < 0]
        if over:
            seat = over[0]
            raise _Found(Defect(DEALT_TWICE, self.position, None, seat, f"seat {seat} would hold {len(hands[seat])} "
                                f"cards ({' '.join(sorted(hands[seat]))}): more than were dealt"))
        filled = _fill(free, need, lambda s, c: (s, c) not in self.excluded and (s not in self.only or c in self.only[s]))
        if filled is None and self.only:
            # Too few low cards for a seat going under: deal it others; the rules then refuse its swap.
            self.only = {}
            filled = _fill(free, need, lambda s, c: (s, c) not in self.excluded)
        if filled is None and not self.excluded:
            raise _Found(Defect(BAD_DEAL, self.position, None, None, "the cards the record names cannot be dealt"))
        if filled is None:
            origin = min(self.excluded.values(), key=lambda o: (o.trick, o.step))
            raise _Found(Defect(REVOKE, self.position, origin.trick, origin.seat,
                                f"seat {origin.seat} plays {origin.card} without following suit, and the unseen cards "
                                "cannot be placed so that it could not follow", origin.step))
        for seat, cards in filled.items():
            hands[seat] += cards
        used = {c for cards in filled.values() for c in cards}
        rest = [c for c in free if c not in used]
        kitty = list(self.kitty_front) + [c for c, s in self.pins.items() if s == KITTY and c not in self.kitty_front]
        order = r.card_index
        deal = Deal(tuple(tuple(sorted(hands[s], key=order.__getitem__)) for s in range(r.n)), self.upcard, (),
                    tuple(kitty + rest))
        for seat, cards in self.laid.items():
            filled[seat] = filled.get(seat, []) + cards
        filled[KITTY] = rest
        return deal, filled


def _fill(free: list[str], need: dict[int, int], allowed) -> dict[int, list[str]] | None:
    """Give each seat ``need[seat]`` cards of ``free``: the lowest allowed, seat by seat; if
    that leaves a seat short, a matching (each card to one seat) that fills every seat."""
    out: dict[int, list[str]] = {s: [] for s in need}
    used: set[str] = set()
    for seat in sorted(need):
        for card in free:
            if len(out[seat]) == need[seat]:
                break
            if card not in used and allowed(seat, card):
                out[seat].append(card)
                used.add(card)
    if all(len(out[s]) == need[s] for s in need):
        return out
    slots = [s for s in sorted(need) for _ in range(need[s])]
    owner: dict[str, int] = {}

    def place(slot: int, seen: set[str]) -> bool:
        for card in free:
            if card in seen or not allowed(slots[slot], card):
                continue
            seen.add(card)
            if card not in owner or place(owner[card], seen):
                owner[card] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not place(slot, set()):
            return None
    out = {s: [] for s in need}
    for card in free:
        if card in owner:
            out[slots[owner[card]]].append(card)
    return out


def _hints(annotations: dict[int, list[str]]) -> list[str]:
    """The tokens of ``euchre-spec:`` annotations, in key order."""
    tokens: list[str] = []
    for key in sorted(annotations):
        for text in annotations[key]:
            match = HINT.search(text)
            if match:
                tokens += match.group(1).split()
    return tokens


BIDDING_EXPECT = ("trump", "maker", "alone", "sitting_out")


class _Hand:
    """One round of replaying a deal: the plan's deal, then the record's actions, the
    interpreter answering. Ends by returning (the record is replayed, or stops), by
    :class:`_Restart` (the plan learned a card) or by :class:`_Found` (a defect)."""

    def __init__(self, plan: _Plan, base: State):
        self.plan, self.rules, self.rec = plan, plan.rules, plan.rec
        self.deal, self.filled = plan.build()
        self.state = base.clone(keep_events=False)
        self.counters_before = {key: list(values) for key, values in base.counters.items()}
        self.state.deal(self.deal)
        self.steps: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.clauses: list[str] = []
        self.features: set[str] = set()
        self.hints = _hints(self.rec.call_annotations)
        self.namings: list[int] = []              # legal counts of the suits named by rule, in order
        self.call = 0
        self.trick = self.card = 0                # the record's trick and card within it
        self.flat = 0                             # cards played so far (the play annotations' index)
        self.used_exchanges: set[int] = set()
        self.discard_done = self.defender_done = self.checked = False
        self.gave_from_record = False
        self.open_discards: dict[int, set[str]] = {}     # seat -> cards it could have laid at a discard we chose
        self.laid_by_rule: list[str] = []                # the cards those discards laid
        self.trumps_step: int | None = None
        self.finished = False

    # -- helpers ---------------------------------------------------------------------------------
    def _add(self, seat: int, action: str) -> dict[str, Any]:
        step: dict[str, Any] = {"seat": seat, "action": action}
        self.steps.append(step)
        return step

    def _fail(self, kind: str, seat: int | None, action: str | None, message: str, *, trick: int | None = None,
              field_name: str | None = None, value: Any = None, step: int | None = None) -> None:
        """A defect: the step where an engine must fail is added (or given) and the round stops."""
        if action is not None:
            shown = field_name is not None or self._refused(seat if seat is not None else 0, action)
            self._add(seat if seat is not None else 0, action)
            step = len(self.steps) if shown else None      # an engine that took it would show nothing
        if field_name is not None and step is not None:
            self.steps[step - 1].setdefault("expect", {})[field_name] = value
        raise _Found(Defect(kind, self.plan.position, trick, seat, message, step, field_name))

    def _refused(self, seat: int, token: str) -> bool:
        probe = self.state.clone(keep_events=False)
        try:
            probe.apply(token, seat)
        except ActionError:
            return True
        return False

    def _apply(self, seat: int, token: str, kind_if_refused: str = ILLEGAL, what: str = "") -> dict[str, Any]:
        st = self.state
        if st.step is not None and st.step.clause and st.phase != "play":
            self._cite(st.step.clause)
        trump_before = st.trump
        try:
            st.apply(token, seat)
        except ActionError as exc:
            holds = self._holds(seat, token)
            kind = NOT_HELD if holds is False else kind_if_refused
            trick = self.trick + 1 if st.phase == "play" else None
            self._fail(kind, seat, token, f"{what or token} by seat {seat} is refused: {exc.message}", trick=trick)
        step = self._add(seat, token)
        if st.trump >= 0 and trump_before < 0:
            obs = st.observation()
            step["expect"] = {key: obs[key] for key in BIDDING_EXPECT}
            self.trumps_step = len(self.steps)
        return step

    def _holds(self, seat: int, token: str) -> bool | None:
        _, _, card = token.partition(":")
        if card not in self.rules.card_index:
            return None
        return bool(self.state.hands[seat] >> self.rules.card_index[card] & 1)

    def _cite(self, clause: str) -> None:
        if clause not in self.clauses:
            self.clauses.append(clause)

    def _hint(self, legal: list[str]) -> str | None:
        if self.hints and self.hints[0] in legal:
            return self.hints.pop(0)
        return None

    def _goes_on(self) -> bool:
        """Whether the record has cards beyond the decision at hand (else a choice it does
        not make is not filled in: the record stops there)."""
        return any(self.rec.tricks)

    # -- the round -------------------------------------------------------------------------------
    def run(self) -> None:
        st, rec = self.state, self.rec
        while True:
            if st.phase in ("deal", "game-over"):
                self.finished = True
                self._after_hand()
                return
            if st.phase == "play" and not self.checked:
                self._before_play()
            if st.phase == "play":
                if not self._play():
                    return
                continue
            if st.phase == "master-suit":
                if not self._name_master():
                    return
                continue
            kind = st.step.kind
            if kind == MAKE_TRUMPS:
                if not self._bid():
                    return
            elif kind == NAME and st.step.effect == PROPOSAL:
                if not (rec.calls or self._goes_on()):
                    return
                self._name("Benny turned up", self.hints, show_suit=True)
            elif kind == OFFER and st.phase == "discard":
                if not self._discard("the kitty's cards", self.plan.laid.get(st.to_act, []), bool(rec.calls)):
                    return
            elif kind == OFFER:
                if not self._offer():
                    return
            elif kind == EXCHANGE and st.phase == "discard":
                if not self._dealer_discard():
                    return
            elif kind == GIVE:
                if not self._give():
                    return
            else:
                raise EgnUnsupported([Problem("<record>", "$", f"deal {self.plan.position}: phase {st.phase} of "
                                                                "these rules has no place in an EGN record")])

    # -- bidding ---------------------------------------------------------------------------------
    def _bid(self) -> bool:
        st, rec, r = self.state, self.rec, self.rules
        if self.call >= len(rec.calls):
            if self._goes_on():
                first = self._first_card()
                self._fail(EXTRA_PLAY, st.to_act, f"play:{first}", "cards are played before the bidding has ended",
                           trick=1)
            return False
        raw = rec.calls[self.call]
        seat = (rec.dealer + 1 + self.call) % r.n
        token = _call_token(raw)
        if st.step.stuck(st) == seat:
            self.features.add("stick-the-dealer")
        phase = st.phase
        self.call += 1
        self._apply(seat, token, what=f"call {self.call} ({raw})")
        if st.trump >= 0 and self.call < len(rec.calls):
            self._fail(ILLEGAL, seat, None, f"call {self.call + 1} ({rec.calls[self.call]}) follows the call that made "
                       "trumps: the bidding was over", field_name="phase", value=phase, step=len(self.steps))
        if st.phase == "deal":
            self.features.add("throw-in")
        return True

    def _name(self, what: str, hints: list[str], show_suit: bool) -> None:
        st = self.state
        legal = st.legal_actions()
        token = hints.pop(0) if hints and hints[0] in legal else None
        if token is None:
            k = len(self.namings)
            self.namings.append(len(legal))
            token = legal[self.plan.choices[k] if k < len(self.plan.choices) else 0]
            self.notes.append(f"the suit named for the {what} ({token}), not in the record: the first in pack order "
                              "with which the record replays")
        self._apply(st.to_act, token)
        self.features.add("benny")
        if show_suit:
            self.steps[-1].setdefault("expect", {})["upcard_suit"] = st.observation()["upcard_suit"]

    def _name_master(self) -> bool:
        hints = _hints({0: self.rec.play_annotations.get(self.flat - 1, [])})
        remaining = sum(len(t) for t in self.rec.tricks) - self.flat
        if remaining <= 0 and not hints:
            return False
        self._name("Benny led at no-trumps", hints, show_suit=False)
        return True

    def _offer(self) -> bool:
        """Answer an offer as the record does; False where the record stops before it (a bidding
        that made trumps, with nothing after it and no ``isAlone``: the lone call not yet made)."""
        st, rec = self.state, self.rec
        seat, effect = st.to_act, st.step.effect
        accept = st.step.accept
        if effect == ALONE and not (rec.alone_given or self._goes_on() or rec.discard or rec.exchanges
                                    or rec.alone_defender is not None):
            return False
        if effect == ALONE:
            token = accept if rec.alone else "pass"
        elif effect == DEFEND_ALONE:
            token = accept if rec.alone_defender == seat else "pass"
            if token == accept:
                self.defender_done = True
        elif effect == SWAP:
            token = "pass"
            for k, (sender, receiver, cards) in enumerate(self.plan.exchanges):
                if sender is None and receiver == seat and k not in self.used_exchanges:
                    if self._hint(["pass"]):
                        break                      # declined here, to swap at a later offer (our exporter says so)
                    self.used_exchanges.add(k)
                    token = accept
                    if len(cards) != st.step.swap_count:
                        self._fail(ILLEGAL, seat, None, f"seat {seat} takes {len(cards)} card(s) from the kitty, not "
                                   f"{st.step.swap_count}", step=None)
                    break
        else:
            token = "pass"
        step = self._apply(seat, token)
        if effect == ALONE and token == accept:
            self.features.add("going-alone")
            step["expect"] = {"alone": True, "sitting_out": st.observation()["sitting_out"]}
        if effect == DEFEND_ALONE and token == accept:
            self.features.add("defending-alone")
            obs = st.observation()
            step["expect"] = {"defender_alone": seat, "sitting_out": obs["sitting_out"]}
        if effect == SWAP and token == accept:
            self.features.add("swap")
        return True

    def _choose_discard(self, intended: list[str]) -> tuple[str, str]:
        """A card to lay that the record does not name: one it meant (a filled card chosen to be
        laid), else a filled card nobody plays, else a card nobody plays (the upcard last)."""
        st, r, plan = self.state, self.rules, self.plan
        legal = [t.partition(":")[2] for t in st.legal_actions()]
        seat = st.to_act
        for card in intended:
            if card in legal:
                return card, "filled"
        for (who, card) in plan.wished:
            if who == seat and card in legal:
                return card, "filled"
        filled = set(self.filled.get(seat, []))
        unplayed = [c for c in legal if c not in plan.played]
        # Filled cards first: unseen ones, then ones another seat will be found to play (the
        # next round moves them); then a card of its own nobody plays, the upcard last.
        for pool in ([c for c in unplayed if c in filled], [c for c in legal if c in filled],
                     [c for c in unplayed if c != plan.upcard], unplayed, legal):
            if pool:
                return min(pool, key=r.card_index.__getitem__), "filled"
        raise AssertionError("no card to discard")

    def _discard(self, what: str, intended: list[str], goes_on: bool = False) -> bool:
        if not (goes_on or self._goes_on() or self.hints):
            return False
        st = self.state
        seat = st.to_act
        legal = st.legal_actions()
        token = self._hint(legal)
        if token is None:
            card, _ = self._choose_discard(intended)
            token = f"discard:{card}"
            self.open_discards.setdefault(seat, set()).update(t.partition(":")[2] for t in legal)
            self.laid_by_rule.append(card)
            head = f"seat {seat}'s discard for {what} ("
            if self.notes and self.notes[-1].startswith(head):      # one note for a swap's three cards
                self.notes[-1] = self.notes[-1].replace(")", f" {card})", 1)
            else:
                self.notes.append(f"{head}{card}), not in the record")
        self._apply(seat, token)
        return True

    def _dealer_discard(self) -> bool:
        st, plan = self.state, self.plan
        seat = st.to_act
        self.features.add("exchange")
        if plan.discard is not None and not self.discard_done:
            self.discard_done = True
            self._apply(seat, f"discard:{plan.discard}", what="the recorded discard")
            if plan.discard == plan.upcard:
                self.features.add("buried-upcard")
            return True
        return self._discard("the upcard it took", [])

    def _give(self) -> bool:
        st, plan = self.state, self.plan
        seat, phase = st.to_act, st.phase
        if phase == "discard":
            return self._discard("the card its partner passed", [])
        legal = st.legal_actions()
        if phase == "take-best":
            token = "take" if self.gave_from_record else (self._hint(legal) or "take")
            self._apply(seat, token)
            return True
        for k, (sender, receiver, cards) in enumerate(plan.exchanges):
            if sender == seat and k not in self.used_exchanges:
                self.used_exchanges.add(k)
                if len(cards) != 1:
                    self._fail(ILLEGAL, seat, None, f"seat {seat} passes {len(cards)} cards to its lone partner, not one")
                self.gave_from_record = True
                self.features.add("railroading")
                self._apply(seat, f"give:{cards[0]}", what=f"passing {cards[0]} to seat {receiver}")
                return True
        if not self._goes_on() and not self.hints:
            return False
        token = self._hint(legal) or "pass"
        if token != "pass":
            self.features.add("railroading")
        self._apply(seat, token)
        return True

    # -- what the record says and the interpreter never asked --------------------------------------
    def _before_play(self) -> None:
        self.checked = True
        self._pending()

    def _pending(self) -> None:
        st, rec, plan = self.state, self.rec, self.plan
        if plan.deferred and st.trump >= 0:
            trump = self.rules.strain_names[st.trump]
            if trump in ("C", "D", "H", "S"):
                plan.resolve_deferred(trump)
                raise _Restart()
        dealer = rec.dealer
        for k, (sender, receiver, cards) in enumerate(plan.exchanges):
            if k in self.used_exchanges:
                continue
            if sender is None:
                self._fail(ILLEGAL, receiver, "swap", f"seat {receiver} takes {' '.join(cards)} from the kitty, which "
                           "these rules do not allow here (no farmer's hand or going under, or seat not eligible)")
            self._fail(ILLEGAL, sender, f"give:{cards[0]}", f"seat {sender} passes {' '.join(cards)} to seat "
                       f"{receiver}, which these rules do not allow here (no lone maker's partner to pass a card)")
        if plan.discard is not None and not self.discard_done:
            self._fail(ILLEGAL, dealer, f"discard:{plan.discard}", f"the dealer (seat {dealer}) discards "
                       f"{plan.discard}, but took no upcard (the upcard was turned down, or the dealer sits out)")
        if self.trumps_step is not None and st.alone != rec.alone:
            self._fail(ILLEGAL, st.maker, None, f"the record says the maker (seat {st.maker}) "
                       f"{'goes' if rec.alone else 'does not go'} alone; the rules say otherwise here"
                       + (" (canadian loner: the dealer's partner who orders up plays alone)" if st.alone else ""),
                       field_name="alone", value=rec.alone, step=self.trumps_step)
        if rec.alone_defender is not None and not self.defender_done and self.steps:
            self._fail(ILLEGAL, rec.alone_defender, None, f"seat {rec.alone_defender} defends alone, but the rules "
                       "offer it no lone defence here (no lone maker, a partner of the maker, or defending alone "
                       "not allowed)", field_name="defender_alone", value=rec.alone_defender, step=len(self.steps))

    # -- the play ----------------------------------------------------------------------------------
    def _first_card(self) -> str:
        raw = next(c for t in self.rec.tricks for c in t)
        try:
            return from_egn(raw)
        except CardError:
            return "JK"

    def _play(self) -> bool:
        st, rec, plan, r = self.state, self.rec, self.plan, self.rules
        tricks = rec.tricks
        while self.trick < len(tricks) and not tricks[self.trick]:
            if self.trick + 1 < len(tricks):
                self._fail(TRICK_SIZE, None, None, f"trick {self.trick + 1} holds no card", trick=self.trick + 1)
            self.trick += 1
        if self.trick >= len(tricks):
            return False
        trick = tricks[self.trick]
        if self.card >= len(trick):
            return False                          # the record stops within this trick
        raw = trick[self.card]
        seat = st.to_act
        number = self.trick + 1
        trump = r.strain_names[st.trump] if st.trump >= 0 else None
        try:
            card = plan.card(raw, trump)
        except _BadCard as exc:
            self._fail(BAD_CARD, seat, f"play:{exc.token}", exc.message, trick=number)
        except _NeedTrump:
            self._fail(BAD_CARD, seat, "play:JK", f"{raw}: no trump suit to name a bower of", trick=number)
        if not st.hands[seat] >> r.card_index[card] & 1:
            self._not_held(seat, card, number, st.observation())
        token = f"play:{card}"
        before = len(st.tricks)
        won_before = list(st.tricks_won)
        try:
            st.apply(token, seat)
        except ActionError as exc:
            legal = {t[5:] for t in st.legal_actions()}
            culprits = [c for c in legal if c in self.filled.get(seat, [])]
            wishes = [c for c in legal if c in self.open_discards.get(seat, ()) and c not in culprits
                      and (seat, c) not in plan.wished and (seat, c) not in plan.proven]
            if culprits or wishes:
                origin = _Origin(number, seat, card, len(self.steps) + 1)
                for c in culprits:
                    plan.excluded[(seat, c)] = origin
                for c in wishes:                   # it could have laid that card away: let it
                    plan.wished[(seat, c)] = origin
                raise _Restart() from None
            follow = " ".join(sorted(legal, key=r.card_index.__getitem__))
            self._fail(REVOKE, seat, token, f"seat {seat} plays {card} without following suit; it holds {follow}"
                       + self._why_holds(seat, legal), trick=number)
        step = self._add(seat, token)
        for clause in _topic(r, "play"):
            self._cite(clause)
        self.flat += 1
        completed = len(st.tricks) > before
        last = self.card == len(trick) - 1
        if completed and not last:
            self._fail(TRICK_SIZE, seat, None, f"trick {number} holds {len(trick)} cards, but {len(st.tricks[-1][1])} "
                       "seats play in this hand", trick=number, field_name="tricks_won", value=won_before,
                       step=len(self.steps))
        if not completed and last and self.trick + 1 < len(tricks):
            self._fail(TRICK_SIZE, seat, None, f"trick {number} holds {len(trick)} cards, but {st.n_active} seats "
                       "play in this hand", trick=number, field_name="trick_winner", value=st.leader,
                       step=len(self.steps))
        if completed:
            step["expect"] = {"trick_winner": st.tricks[-1][2]}
            self.features.add("trick")
            self.trick, self.card = self.trick + 1, 0
        else:
            self.card += 1
        return True

    def _why_holds(self, seat: int, cards: set[str]) -> str:
        for card in sorted(cards, key=self.rules.card_index.__getitem__):
            if self.plan.pins.get(card) == seat:
                return f" ({card} is {self.plan.why.get(card, 'its card')})"
            if (seat, card) in self.plan.proven:
                return f" ({card} is {self.plan.proven[(seat, card)]})"
        return ""

    def _not_held(self, seat: int, card: str, number: int, obs: dict[str, Any]) -> None:
        """Seat ``seat`` is to play ``card`` and does not hold it: learn where it was dealt,
        or say why the record is impossible."""
        plan, rec = self.plan, self.rec
        token = f"play:{card}"
        if plan.wished.pop((seat, card), None) is not None:
            # It was let lay this card away so that an earlier play would follow suit; it plays
            # it now, so it kept it: the earlier play is a revoke (the next round shows where).
            plan.proven[(seat, card)] = f"kept by seat {seat}, which plays it in trick {number}"
            raise _Restart()
        earlier = [(t["leader"], s) for t in obs["tricks"] for s, c in t["cards"] if c == card]
        if earlier:
            self._fail(DEALT_TWICE, seat, token, f"seat {seat} plays {card}, which seat {earlier[0][1]} has already "
                       "played in this deal", trick=number)
        if card == plan.upcard:
            if seat != rec.dealer:
                message = f"seat {seat} plays the upcard {card}, which only the dealer (seat {rec.dealer}) could take up"
            else:
                message = f"the dealer (seat {seat}) plays the upcard {card}, which it did not take up or discarded"
            self._fail(UPCARD_PLAYED, seat, token, message, trick=number)
        where = plan.pins.get(card)
        if where == seat:
            self._fail(NOT_HELD, seat, token, f"seat {seat} plays {card}, which it no longer holds (it was "
                       f"{plan.why[card]}, then laid away or passed on)", trick=number)
        if where is not None:
            self._fail(DEALT_TWICE, seat, token, f"seat {seat} plays {card}, which is {plan.why[card]}", trick=number)
        if seat in plan.closed:
            self._fail(NOT_HELD, seat, token, f"seat {seat} plays {card}, which is not in its recorded hand",
                       trick=number)
        if plan.excluded.pop((seat, card), None) is not None:
            # It was kept from this seat so that an earlier play would follow suit; the seat
            # plays it now: the earlier play is a revoke (the next round shows where).
            plan.pin(card, seat, f"played by seat {seat} in trick {number}")
            raise _Restart()
        plan.pin(card, seat, f"played by seat {seat} in trick {number}")
        self._pin_rest_of_trick(number, obs)
        raise _Restart()

    def _pin_rest_of_trick(self, number: int, obs: dict[str, Any]) -> None:
        """The trick's later cards belong to the seats after this one, clockwise, skipping
        those who sit out (EGN's encoding): pin those not yet known, to spare a round each."""
        plan, r = self.plan, self.rules
        active = [s for s in range(r.n) if s not in obs["sitting_out"]]
        leader = self.state.leader
        order = [s for k in range(r.n) for s in [(leader + k) % r.n] if s in active]
        trick = self.rec.tricks[self.trick]
        for j in range(self.card + 1, min(len(trick), len(order))):
            seat = order[j]
            try:
                card = plan.card(trick[j], r.strain_names[self.state.trump] if self.state.trump >= 0 else None)
            except (_BadCard, _NeedTrump):
                return
            if (card in plan.pins or card == plan.upcard or seat in plan.closed or (seat, card) in plan.excluded
                    or any(card in cards for cards in plan.laid.values())):
                continue
            plan.pins[card] = seat
            plan.why[card] = f"played by seat {seat} in trick {number}"

    # -- the end of the hand -------------------------------------------------------------------------
    def _after_hand(self) -> None:
        st, rec, r = self.state, self.rec, self.rules
        if not self.checked and st.thrown_in:
            self.checked = True
            self._pending()
        if self.call < len(rec.calls):
            seat = (rec.dealer + 1 + self.call) % r.n
            raw = rec.calls[self.call]
            token = _call_token(raw)
            self._fail(ILLEGAL, seat, token, f"call {self.call + 1} ({raw}) comes after the deal was thrown in")
        rest = [c for t in rec.tricks[self.trick:] for c in t][self.card:]
        if rest:
            last = st.tricks[-1][2] if st.tricks else (rec.dealer + 1) % r.n
            try:
                card = from_egn(rest[0], r.strain_names[st.trump] if st.trump >= 0 else None,
                                r.table["deck"]["colours"])
            except CardError:
                card = "JK"
            where = "after the deal was thrown in" if st.thrown_in else f"after the deal's last trick ({len(st.tricks)})"
            self._fail(EXTRA_PLAY, last, f"play:{card}", f"{rest[0]} is played {where}",
                       trick=self.trick + 1)


def _counter_clauses(rules: Rules) -> list[str]:
    """The clauses of the options in force that add a counter (four-trick tokens)."""
    out = []
    for key, value in rules.selected.items():
        option = rules.table["options"][key]
        for choice in option.get("choices", []):
            if choice["value"] == value and any(entry.get("into") == "counters" for entry in choice.get("insert", [])):
                out += [clause["id"] for clause in choice.get("clauses", [])]
    return out


def _call_token(raw: str) -> str:
    """The action of an EGN call: Pass, Order, a suit letter, n (no-trumps)."""
    return {"Pass": "pass", "Order": "order", "n": "call:NT"}.get(raw) or f"call:{raw.upper()}"


def _topic(rules: Rules, topic: str) -> list[str]:
    return [c["id"] for c in rules.table.get("clauses", []) if c["topic"] == topic]


# -- one deal ---------------------------------------------------------------------------------------
def hand_outcomes(base: State, rec: DealRecord, position: int, rules: Rules):
    """Replay one deal from ``base`` (a state awaiting the deal): yields (hand, state after
    it), first every outcome without a defect, in the order of the suits named by rule (a
    Benny turned up, a Benny led at no-trumps; one outcome where none is named), and, if there
    is none, the first outcome (with its defect)."""
    first: tuple[HandResult, State] | None = None
    vector: list[int] | None = []
    sound = False
    for _ in range(MAX_CHOICES):
        if vector is None:
            break
        plan = _Plan(rules, rec, position, vector)
        try:
            plan.setup()
        except _Found as found:
            yield _deal_defect(rules, rec, found.defect), base
            return
        hand, defect, namings = _settle(plan, base)
        result = _result(hand, defect, rules, rec) if hand is not None else (
            HandResult(rec, plain_deal(rules, rec), defect=defect, after_deal={"dealer": rec.dealer}))
        outcome = (result, hand.state if hand is not None else base)
        if first is None:
            first = outcome
        if defect is None:
            sound = True
            yield outcome
        vector = _next_vector(vector, namings)
    if not sound and first is not None:
        yield first


def _settle(plan: _Plan, base: State) -> tuple[_Hand | None, Defect | None, list[int]]:
    """Replay the deal round after round until the plan stops learning; also the suits named
    by rule in the last round that ran (for trying the others)."""
    namings: list[int] = []
    for _ in range(MAX_ROUNDS):
        try:
            hand = _Hand(plan, base)
        except _Found as found:          # no deal fits what the plan knows: no step to show it at
            found.defect.step = None
            return None, found.defect, namings
        try:
            hand.run()
            return hand, None, hand.namings
        except _Restart:
            namings = hand.namings
            continue
        except _Found as found:
            return hand, found.defect, hand.namings
    raise RuntimeError(f"deal {plan.position}: the replay did not settle after {MAX_ROUNDS} rounds")


def _next_vector(vector: list[int], counts: list[int]) -> list[int] | None:
    """The next choice of suits to name, odometer-wise over the namings made by rule."""
    if not counts:
        return None
    v = (vector + [0] * len(counts))[:len(counts)]
    for k in range(len(v) - 1, -1, -1):
        v[k] += 1
        if v[k] < counts[k]:
            return v
        v[k] = 0
    return None


def _result(hand: _Hand, defect: Defect | None, rules: Rules, rec: DealRecord) -> HandResult:
    st = hand.state
    result = HandResult(rec, hand.deal, steps=hand.steps, after_deal={"dealer": rec.dealer}, notes=list(hand.notes),
                        finished=hand.finished, defect=defect, clauses=list(hand.clauses), features=set(hand.features),
                        named_by_rule=bool(hand.namings))
    out = st.observation()["sitting_out"]
    filled = []
    for seat in range(rules.n):
        cards = [c for c in hand.filled.get(seat, []) if c in hand.deal.hands[seat] and c not in hand.plan.played
                 and c not in hand.laid_by_rule]
        if cards:
            why = ("it sits out" if seat in out else "not played before the record stops" if not hand.finished
                   else "the deal is thrown in" if st.thrown_in else "laid away before the play")
            filled.append(f"seat {seat}'s {' '.join(cards)} ({why})")
    result.notes[:0] = filled
    if defect is None:
        obs = st.observation()
        if hand.finished:
            result.expect = {key: obs[key] for key in ("hand_points", "scores", "next_dealer", "game_over", "winner")}
            if obs["scoring_row"] and not st.thrown_in:
                result.clauses.append(obs["scoring_row"])
                result.features.add("scoring")
            if st.thrown_in:
                thrown = next((s for s in rules.steps if s.clause and s.kind == THROW_IN), None)
                if thrown is not None:
                    result.clauses.append(thrown.clause)
            if obs.get("counters") and obs["counters"] != hand.counters_before:
                result.clauses += _counter_clauses(rules)
            if obs["game_over"]:
                result.features.add("game-end")
                result.clauses += [c for c in _topic(rules, "game") if c in ("game-target", "fixed-deals")]
        else:
            result.expect = {"phase": obs["phase"], "to_act": obs["to_act"]}
    return result


def _deal_defect(rules: Rules, rec: DealRecord, defect: Defect) -> HandResult:
    """A deal the record gets wrong before any play: the deal as recorded, without the cards
    that cannot be there, which an engine must refuse if a seat is left short."""
    deal = plain_deal(rules, rec, keep_short=True)
    result = HandResult(rec, deal, defect=defect, after_deal={"dealer": rec.dealer})
    result.deal_refused = bool(rules.check_deal(deal))
    return result


def plain_deal(rules: Rules, rec: DealRecord, keep_short: bool = False) -> Deal:
    """The record's deal without replaying it: recorded hands (their valid, unrepeated cards),
    the upcard, the rest filled in pack order (seats not recorded get five)."""
    seen: set[str] = set()

    def good(raw: str) -> str | None:
        try:
            card = from_egn(raw)
        except CardError:
            return None
        if card not in rules.card_index or card in seen:
            return None
        seen.add(card)
        return card

    upcard = good(rec.upcard) or next(c for c in rules.card_names if c != "JK")
    seen.add(upcard)
    hands: list[list[str]] = []
    for seat in range(rules.n):
        recorded = rec.player_cards[seat] if seat < len(rec.player_cards) else []
        cards = [c for c in (good(raw) for raw in recorded) if c is not None]
        if seat == rec.dealer and upcard in cards and len(recorded) == rules.hand_size + 1:
            cards.remove(upcard)
        hands.append(cards[:rules.hand_size])
    free = [c for c in rules.card_names if c not in seen]
    for seat in range(rules.n):
        recorded = seat < len(rec.player_cards) and rec.player_cards[seat]
        while len(hands[seat]) < rules.hand_size and free and not (keep_short and recorded):
            hands[seat].append(free.pop(0))
    order = rules.card_index
    return Deal(tuple(tuple(sorted(h, key=order.__getitem__)) for h in hands), upcard, (), tuple(free))


# -- the game -----------------------------------------------------------------------------------------
def replay_game(record: Record, rules: Rules) -> GameReplay:
    """Replay a whole record: each deal in turn, stopping at the first defect.

    Where a deal names a suit by rule (the record does not give it), the next suit is tried
    if the rest of the record then fails to replay (within a small budget of tries)."""
    for deal in record.deals:
        if "x" in deal.calls:
            raise EgnUnsupported([Problem(record.file, f"$.deals[{deal.index}]", "an unknown call (x): which call "
                                                                                "was made is not recorded")])
        seats = [("aloneDefender", deal.alone_defender)] + [
            (name, seat) for item in deal.exchanges for name, seat in (("sender", item.sender), ("receiver", item.receiver))]
        for name, seat in seats:
            if seat is not None and seat >= rules.n:
                raise EgnUnsupported([Problem(record.file, f"$.deals[{deal.index}]",
                                              f"{name} {seat} is no seat of {rules.n} players")])
    units = len(rules.units)
    initial = list(record.initial_score) or [rules.start_score] * units
    if len(initial) != units:
        raise EgnUnsupported([Problem(record.file, "$.metadata.initialScore",
                                      f"{len(initial)} score(s) for {units} partnerships")])
    first = record.deals[0].dealer if record.deals else 0
    state = new_game(rules, dealer=first if first < rules.n else 0, scores=initial)
    budget = [MAX_CHOICES]
    hands, state, defect, notes, checked = _replay_from(record, rules, state, 0, budget)
    game = GameReplay(record, rules, hands, state, defect, notes, checked)
    return game


def _replay_from(record: Record, rules: Rules, state: State, index: int, budget: list[int]):
    """The deals from ``index`` on: (hands, final state, defect, notes, final score checked)."""
    hands: list[HandResult] = []
    for position in range(index + 1, len(record.deals) + 1):
        rec = record.deals[position - 1]
        if rec.dealer >= rules.n:
            defect = Defect(WRONG_DEALER, position, None, rec.dealer, f"the dealer is seat {rec.dealer}, not a seat "
                            f"of {rules.n}", deal_number=rec.number)
            return hands, state, defect, [], False
        if state.is_terminal():
            scores = state.scores
            defect = Defect(AFTER_END, position, None, None, f"the game ended after deal {position - 1} (scores "
                            f"{scores[0]}-{scores[1]}), yet deal {position} follows", deal_number=rec.number)
            hands += [HandResult(later, plain_deal(rules, later), deal_reject="wrong_phase")
                      for later in record.deals[position - 1:]]
            return hands, state, defect, [], False
        if not state.is_chance_node():
            hands.append(HandResult(rec, plain_deal(rules, rec), deal_reject="wrong_phase"))
            defect = Defect(CUT_SHORT, position - 1, None, None, f"deal {position - 1} stops before its end "
                            f"(phase {state.phase}), yet deal {position} follows", deal_number=rec.number)
            return hands, state, defect, [], False
        if rec.dealer != state.dealer:
            hand = HandResult(rec, plain_deal(rules, rec), after_deal={"dealer": rec.dealer})
            hand.defect = Defect(WRONG_DEALER, position, None, rec.dealer, f"seat {rec.dealer} deals, but the deal "
                                 f"passes to the left: it is seat {state.dealer}'s turn", field="dealer",
                                 deal_number=rec.number)
            return hands + [hand], state, hand.defect, [], False
        outcomes = hand_outcomes(state, rec, position, rules)
        hand, after = next(outcomes)
        if hand.defect is not None:
            hand.defect.deal_number = rec.number
            return hands + [hand], after, hand.defect, [], False
        if hand.named_by_rule:
            # Suits named by rule: the rest of the record decides among them.
            first_try = None
            for hand, after in [(hand, after)] + list(outcomes):
                if hand.defect is not None:
                    break
                rest = _replay_from(record, rules, after, position, budget)
                if first_try is None:
                    first_try = (hand, rest)
                budget[0] -= 1
                if rest[2] is None or budget[0] <= 0:
                    return (hands + [hand] + rest[0],) + rest[1:]
            hand, rest = first_try
            return (hands + [hand] + rest[0],) + rest[1:]
        hands.append(hand)
        state = after
    notes: list[str] = []
    checked = False
    if record.final_score is not None:
        if hands and not hands[-1].finished:
            notes.append(f"The record's finalScore {record.final_score} is not checked: its last deal stops before "
                         "its end.")
        elif list(record.final_score) != state.scores:
            defect = Defect(SCORE, 0, None, None, f"the record's final score is {record.final_score}, but the deals "
                            f"replayed score {state.scores}", field="scores")
            return hands, state, defect, notes, False
        else:
            checked = True
    return hands, state, None, notes, checked
