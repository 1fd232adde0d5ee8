"""``fuzz --views``: what a seat's view lets through, tested as information flow.

For an engine that declares ``seat-view``, random hands are played on the reference; at a
few points of each hand one seat's view is put to three tests on the engine:

- **no leak**: a second world that differs only in what the seat may not see (the cards it
  does not know shuffled among the places they may be, keeping everything public and
  everything the seat knows; a card another seat laid away or passed face down is the card
  now in its place, the same actions are still legal, and the reference's view of
  the seat unchanged) must give the seat the very same view;
- **nothing forgotten**: a world that differs in a card the seat knows (one it laid away,
  passed, received, or sees face up, swapped with a card it does not know) must give it a
  different view (OpenSpiel's euchre, whose dealer forgets the card he buried, fails this);
- **one public part**: every seat's view agrees on every field but its private ones, and
  each equals the view the reference derives from the table's ``visibility``.

This is OpenSpiel's resampling test for information states, run over the protocol. A
finding is written as a case (the world in which the engine's view differs from the
reference's, its steps cut at the point found, ``views: every-step``), which ``check`` then
fails for the engine: shrinking to a case, as for any other divergence.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from reference_impl import ActionError, Deal, SpecError, new_game
from reference_impl.catalog import load_schema
from reference_impl.resolve import ResolvedTable
from reference_impl.rules import Rules
from reference_impl.visibility import HISTORY_FIELDS, hand_history

from conformance.runner.engine_process import EngineFailure, EngineProcess
from conformance.runner.seat_views import card_tokens, view_differences
from .casefile import slug, write_case
from .hands import random_hand
from .lockstep import Reference
from .policy import Policy

PRIVATE_FIELDS = frozenset({"legal", "hands", "partner"}) | frozenset(HISTORY_FIELDS)   # partner: known to himself first
PROTOCOL_FIELDS = frozenset(load_schema("protocol/observation.schema.json")["properties"])
IDENTITY_ONLY = frozenset({"called_card"})   # fields naming a card whose place the view does not tell
POINTS_PER_HAND = 3            # points of a hand at which a seat's view is tested
RESAMPLE_TRIES = 30            # shuffles tried for a world consistent with the seat's knowledge


@dataclass
class World:
    """One hand: its dealer, its cards and the actions played."""

    dealer: int
    deal: Deal
    actions: list[tuple[int, str]]


@dataclass
class ViewFinding:
    """An engine's view that fails one of the three tests."""

    kind: str                     # leak, forgotten, public-part, differs
    seat: int
    point: int                    # actions played before the view was asked
    field: str
    message: str
    world: World                  # the world to write as a case
    expected: Any = None
    actual: Any = None


@dataclass
class ViewFuzzResult:
    hands: int = 0
    points: int = 0
    leak_tests: int = 0
    forgotten_tests: int = 0
    refused: int = 0              # hands left because the engine refused a request of them
    findings: list[ViewFinding] = field(default_factory=list)   # the first of each kind and field
    occurrences: dict[tuple[str, str], int] = field(default_factory=dict)   # (kind, field) -> times found
    notes: list[str] = field(default_factory=list)

    def times_found(self, finding: ViewFinding) -> int:
        return self.occurrences.get((finding.kind, finding.field), 1)


def _layout(deal: Deal) -> list[tuple[str, int, int]]:
    """Every card place of a deal: (zone, seat or -1, index)."""
    places = [("hands", s, i) for s, hand in enumerate(deal.hands) for i in range(len(hand))]
    if deal.upcard is not None:
        places.append(("upcard", -1, 0))
    places += [("widow", -1, i) for i in range(len(deal.widow))]
    places += [("kitty", -1, i) for i in range(len(deal.kitty))]
    return places


def _card_at(deal: Deal, place: tuple[str, int, int]) -> str:
    zone, seat, index = place
    if zone == "hands":
        return deal.hands[seat][index]
    if zone == "upcard":
        return deal.upcard or ""
    return (deal.widow if zone == "widow" else deal.kitty)[index]


def _rebuild(deal: Deal, moved: dict[tuple[str, int, int], str]) -> Deal:
    hands = tuple(tuple(moved.get(("hands", s, i), card) for i, card in enumerate(hand)) for s, hand in enumerate(deal.hands))
    upcard = moved.get(("upcard", -1, 0), deal.upcard) if deal.upcard is not None else None
    widow = tuple(moved.get(("widow", -1, i), c) for i, c in enumerate(deal.widow))
    kitty = tuple(moved.get(("kitty", -1, i), c) for i, c in enumerate(deal.kitty))
    return Deal(hands, upcard, widow, kitty)


PRIVATE_MOVES = ("discard:", "give:")       # actions that name a card face down


def _rewrite(actions: list[tuple[int, str]], sigma: dict[str, str]) -> list[tuple[int, str]]:
    """The actions of a world whose cards moved by ``sigma``: a card laid away or passed face
    down is the card now in the place it came from (a card played is public and never moves)."""
    out = []
    for seat, action in actions:
        head, _, card = action.partition(":")
        if action.startswith(PRIVATE_MOVES) and card in sigma:
            action = f"{head}:{sigma[card]}"
        out.append((seat, action))
    return out


class ViewFuzzer:
    """Plays hands on the reference and puts the engine's seat views to the three tests."""

    def __init__(self, engine: EngineProcess, table: ResolvedTable, seed: int, hands: int,
                 progress: Callable[[int, int], None] | None = None, max_findings: int = 1,
                 compare_reference: bool = True):
        self.engine = engine
        self.table = table
        self.rules = Rules(table)
        self.names = frozenset(self.rules.card_names)
        self.seed = seed
        self.hands = hands
        self.progress = progress
        self.max_findings = max_findings
        self.compare_reference = compare_reference      # False: the information-flow tests only
        self.result = ViewFuzzResult()
        self._policy: Policy | None = None

    # -- the reference -------------------------------------------------------------------------
    def _replay(self, world: World, upto: int) -> Any:
        """The reference's state after ``upto`` actions of ``world`` (ActionError or SpecError
        when an action is illegal there)."""
        state = new_game(self.rules, world.dealer)
        state.deal(world.deal)
        for seat, action in world.actions[:upto]:
            state.apply(action, seat)
        return state

    def _known(self, state: Any, world: World, seat: int) -> set[str]:
        """The cards ``seat`` knows the place of at ``state``: dealt to it, and every card its
        view names, but the called card (everyone knows which card it is, not who holds it:
        a world where another seat holds it must look the same to this one)."""
        known = set(world.deal.hands[seat])
        view = state.observation(seat)
        known.update(card_tokens({k: v for k, v in view.items() if k not in IDENTITY_ONLY}, self.names))
        for kind, who, card, other in hand_history(state):
            if who == seat or other == seat:
                known.add(card)
        return known

    # -- the engine ---------------------------------------------------------------------------------
    def _engine_views(self, world: World, upto: int) -> list[dict[str, Any]]:
        """Every seat's view from the engine after ``upto`` actions of ``world``."""
        self._ask({"type": "new_game", "dealer": world.dealer})
        self._ask({"type": "deal", **world.deal.to_json()})
        for seat, action in world.actions[:upto]:
            self._ask({"type": "act", "seat": seat, "action": action})
        return [self._ask({"type": "state", "seat": s}).get("state") for s in range(self.rules.n)]

    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        reply = self.engine.request(message)
        if not reply.get("ok"):
            error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
            raise EngineRefused(f"{message['type']}: {error.get('category')}: {error.get('message', '')}")
        return reply

    # -- the run ---------------------------------------------------------------------------------------
    def run(self) -> ViewFuzzResult:
        hello = self.engine.start() if not self.engine.alive() else self.engine.hello
        if "seat-view" not in ((hello or {}).get("commands") or []):
            self.result.notes.append("the engine does not declare seat-view: there are no views to test")
            return self.result
        try:
            self._ask({"type": "rules", "variant": self.table.id, "options": self.table.selected,
                       "sha256": self.table.sha256, "table": self.table.table})
        except EngineRefused as exc:
            self.result.notes.append(f"the engine refuses the table, so there are no views to test: {exc}")
            return self.result
        for h in range(self.hands):
            rng = random.Random(f"{self.seed}:views:{h}")
            world = self._random_hand(rng)
            self.result.hands += 1
            for _ in range(POINTS_PER_HAND):
                point = rng.randrange(len(world.actions) + 1)
                seat = rng.randrange(self.rules.n)
                try:
                    self._test(world, point, seat, rng)
                except EngineRefused as exc:
                    # The engine does not play this world as the reference does: a rule
                    # divergence (``fuzz`` finds and shrinks those), not a view's. Counted, and
                    # the hand left, so that an engine with a rule defect met often still has
                    # its views tested in the hands it plays.
                    self.result.points -= 1
                    self.result.refused += 1
                    if self.result.refused == 1:
                        self.result.notes.append(f"the engine refused a hand the reference plays (a rule divergence, "
                                                 f"which fuzz reports), first: {exc}")
                    break
                if len(self.result.findings) >= self.max_findings:
                    return self.result
            if self.progress is not None:
                self.progress(self.result.hands, len(self.result.findings))
        return self.result

    def _random_hand(self, rng: random.Random) -> World:
        """A hand as the fuzzer plays it (its deals and moods reach open misère, lone hands)."""
        if self._policy is None:
            self._policy = Policy(self.rules, Reference(self.table.id, self.table))
        dealer = rng.randrange(self.rules.n)
        deal, actions = random_hand(self._policy, rng, dealer)
        return World(dealer, deal, actions)

    def _test(self, world: World, point: int, seat: int, rng: random.Random) -> None:
        self.result.points += 1
        state = self._replay(world, point)
        views = self._engine_views(world, point)
        reference_view = state.observation(seat)
        known = self._known(state, world, seat)
        places = _layout(world.deal)
        hidden = [p for p in places if _card_at(world.deal, p) not in known]
        # no leak
        twin = self._resample(world, point, seat, hidden, reference_view, rng)
        if twin is not None:
            self.result.leak_tests += 1
            twin_view = self._engine_views(twin, point)[seat]
            if twin_view != views[seat]:
                key = next((k for k in sorted(set(twin_view) | set(views[seat])) if twin_view.get(k) != views[seat].get(k)), "state")
                chosen = world if view_differences(reference_view, views[seat], self.names) else twin
                self._found("leak", seat, point, key, f"seat {seat}'s view changes with cards it may not see ({key})",
                            chosen, views[seat].get(key), twin_view.get(key))
                return
        # nothing forgotten
        changed = self._change_known(world, point, seat, known, hidden, reference_view, rng)
        if changed is not None:
            self.result.forgotten_tests += 1
            changed_view = self._engine_views(changed, point)[seat]
            if changed_view == views[seat]:
                changed_reference = self._replay(changed, point).observation(seat)
                key = next((k for k in sorted(changed_reference) if changed_reference.get(k) != reference_view.get(k)), "state")
                self._found("forgotten", seat, point, key,
                            f"seat {seat}'s view is the same in a hand where a card it knows ({key}) differs",
                            changed, changed_reference.get(key), changed_view.get(key))
                return
        # then one public part (the flow tests and this need no reference)
        first = views[0]
        for s, view in enumerate(views[1:], 1):
            for key in sorted((set(first) | set(view)) & PROTOCOL_FIELDS):     # an engine's own fields may be private
                if key not in PRIVATE_FIELDS and first.get(key) != view.get(key):
                    self._found("public-part", s, point, key, f"seats 0 and {s} see different public values of {key}",
                                world, first.get(key), view.get(key))
                    return
        # and each view the reference's
        if not self.compare_reference:
            return
        for s, view in enumerate(views):
            differences = view_differences(state.observation(s), view, self.names)
            if differences:
                key, expected, actual = differences[0]
                self._found("differs", s, point, key, f"seat {s}'s view is not the one the table's visibility gives",
                            world, expected, actual)
                return

    def _consistent(self, world: World, point: int, seat: int, reference_view: dict[str, Any]) -> bool:
        """The same actions are legal in ``world`` and give ``seat`` the same reference view."""
        try:
            return self._replay(world, point).observation(seat) == reference_view
        except (ActionError, SpecError):
            return False

    def _resample(self, world: World, point: int, seat: int, hidden: list, reference_view: dict[str, Any],
                  rng: random.Random) -> World | None:
        if len(hidden) < 2:
            return None
        cards = [_card_at(world.deal, p) for p in hidden]
        for _ in range(RESAMPLE_TRIES):
            shuffled = cards[:]
            rng.shuffle(shuffled)
            if shuffled == cards:
                continue
            sigma = {card: new for card, new in zip(cards, shuffled)}
            twin = World(world.dealer, _rebuild(world.deal, dict(zip(hidden, shuffled))), _rewrite(world.actions, sigma))
            if self._consistent(twin, point, seat, reference_view):
                return twin
        return None

    def _change_known(self, world: World, point: int, seat: int, known: set[str], hidden: list,
                      reference_view: dict[str, Any], rng: random.Random) -> World | None:
        """A world where one card ``seat`` knows (preferably one it no longer holds) is another."""
        if not hidden:
            return None
        holding = set((reference_view.get("hands") or [None] * (seat + 1))[seat] or [])
        public = set(card_tokens({k: v for k, v in reference_view.items() if k not in PRIVATE_FIELDS}, self.names))
        candidates = sorted(known - public)
        remembered = [c for c in candidates if c not in holding]
        where = {_card_at(world.deal, p): p for p in _layout(world.deal)}
        for pool in (remembered, candidates):
            pool = pool[:]
            rng.shuffle(pool)
            for card in pool[:6]:
                for other in rng.sample(hidden, min(len(hidden), 6)):
                    moved = {where[card]: _card_at(world.deal, other), other: card}
                    sigma = {card: _card_at(world.deal, other), _card_at(world.deal, other): card}
                    changed = World(world.dealer, _rebuild(world.deal, moved), _rewrite(world.actions, sigma))
                    try:
                        view = self._replay(changed, point).observation(seat)
                    except (ActionError, SpecError):
                        continue
                    if view != reference_view:
                        return changed
        return None

    def _found(self, kind: str, seat: int, point: int, key: str, message: str, world: World,
               expected: Any, actual: Any) -> None:
        """Keep the first finding of each kind and field, and count the others: one defect
        met at many points (a forgotten discard) would otherwise use up ``max_findings``
        before the run reaches the hands where another shows (a leak at a lone hand's end)."""
        signature = (kind, key)
        self.result.occurrences[signature] = self.result.occurrences.get(signature, 0) + 1
        if self.result.occurrences[signature] == 1:
            self.result.findings.append(ViewFinding(kind, seat, point, key, message, world, expected, actual))


class EngineRefused(Exception):
    """The engine refused a request of a hand the reference plays."""


def finding_case(finding: ViewFinding, table: ResolvedTable, seed: int, engine_name: str) -> tuple[str, dict[str, Any]]:
    """A case that replays the finding's world up to its point, checking every view."""
    world = finding.world
    case_id = f"views-{slug(table.id)}-{finding.kind}-seed{seed}-seat{finding.seat}-step{finding.point}"
    options = {k: v for k, v in table.selected.items() if (table.table.get("options") or {}).get(k, {}).get("default") != v}
    deal: dict[str, Any] = {"hands": [" ".join(hand) for hand in world.deal.hands]}
    for key, value in world.deal.to_json().items():
        if key != "hands":
            deal[key] = " ".join(value) if isinstance(value, list) else value
    if world.deal.upcard is None:
        deal["upcard"] = None
    first_clause = next((c["id"] for c in table.table.get("clauses", [])), "deal")
    data: dict[str, Any] = {
        "id": case_id,
        "title": f"{engine_name}: {finding.message}",
        "description": f"Found by fuzz --views (seed {seed}): {finding.message}. The hand is replayed to the point "
                       f"found ({finding.point} actions) and every seat's view is checked at every step.",
        "variant": table.id,
    }
    if options:
        data["options"] = options
    data.update({"clauses": [first_clause], "tags": ["views"], "views": "every-step", "setup": {"dealer": world.dealer},
                 "hands": [{"deal": deal, "steps": [{"seat": s, "action": a} for s, a in world.actions[:finding.point]]}]})
    return case_id, data


def write_finding(out: Path, finding: ViewFinding, table: ResolvedTable, seed: int, engine_name: str) -> Path:
    case_id, data = finding_case(finding, table, seed, engine_name)
    path = out / f"{case_id}.yaml"
    write_case(path, data, f"fuzz --views: {finding.kind}, seat {finding.seat}, field {finding.field}\n"
                           f"expected {finding.expected!r}\nengine    {finding.actual!r}")
    return path


def engine_failure_note(exc: EngineFailure) -> str:
    return f"the engine failed: {exc}"
