"""The rule an engine broke: the clause behind the field that differed, at that step.

A case lists the clauses it is about, but its first one (its headline) is rarely the rule a
failing engine broke: a bug in the left bower shows up as wrong points at the end of a
hand whose case is about the dealer's pick-up. So when a comparison fails, the case is
replayed in the reference interpreter up to that point while a **trace** records, for every
observable field, the clauses that produced its value: the step that consumed each action
(its own clause, or the clause of an option that patched that step), the scoring row that
scored the hand, the game's end, the deal, and for the play the ranking and follow rules
that decided each legal card and each trick. Then the engine's own state at that point is
compared with the reference's, upstream first: a hand's points follow from its tricks, so
when the engine's tricks already differ the broken rule is the one that decided the first
trick it got wrong (a bower, the trump order, the plain order, the trick rule), not the
scoring row.

The table links most clauses to what they govern by data (a step's ``clause`` or id, a row's
id, an option's patched paths and its clauses). Ranking and the play have no such link, so
the mechanisms of the interpreter that decide a card's suit and power name their conventional
anchors (``MECHANISMS``); only anchors the table has are ever cited, with an option's clause
standing in for the one it ``replaces``.

A seat's view that shows what the whole table's state shows (a leak: the reference's own value
of a field that names cards) cites the clause of the table's ``visibility`` entry for that zone.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Iterable

from reference_impl import cards as notation
from reference_impl.errors import ActionError, SpecError
from reference_impl.resolve import table_hash
from reference_impl.options import choice_for
from reference_impl.rules import Rules
from reference_impl.state import DISCARD_PHASE, MASTER_SUIT, PLAY_PHASE, TAKE_OFFER, State, new_game
from reference_impl.visibility import DEFAULTS as VISIBILITY_DEFAULTS, Visibility
from reference_impl.visibility import events_reached
from reference_impl.steps import CONCEDE, EXCHANGE, OFFER, PLAY, SET_TRUMPS, THROW_IN, UPCARD_SUIT

from conformance.cases import Case, case_deal
from conformance.runner.table_readings import SCORING_FIELDS, readings

# The interpreter's mechanisms without a data link to a clause, and the anchors that state them.
MECHANISMS: dict[str, tuple[str, ...]] = {
    "left-bower": ("left-bower-is-trump", "rank-trump"),
    "benny": ("benny", "joker-is-trump", "rank-trump"),
    # a card the table makes a trump in every suit (Spoil Five's ace of hearts)
    "top-trump": ("top-trumps", "rank-trump"),
    "master": ("joker-is-trump", "no-trump-ranking", "joker-led-at-no-trumps", "joker-any-time"),
    # the master card led: its leader names the suit it stands for before anyone follows
    "master-led": ("joker-led-at-no-trumps", "joker-is-trump", "no-trump-ranking"),
    "trump-order": ("rank-trump",),
    "no-trump-order": ("no-trump-ranking", "rank-plain"),
    # low no-trumps: its own clause where a table has one, else where the plain order states it
    "low-no-trump-order": ("low-no-trumps", "no-trump-ranking", "rank-plain"),
    "plain-order": ("rank-plain",),
    "trick": ("trick-winner",),
    # two copies of one card in a trick (a doubled pack): the first played wins
    "identical": ("identical-cards",),
    "follow": ("follow-suit", "follow-or-trump"),
    # the fields of a play step that free a card from following (the step's own clause after them)
    "may-trump": ("follow-or-trump",),
    "privileged-trumps": ("reneging",),
    # the first card led names trumps (Napoleon)
    "trumps-by-lead": ("trumps-by-lead",),
    "lone-lead": ("lone-lead",),
    "game-end": ("game-target", "one-hand-per-game", "fixed-deals"),
    "first-dealer": ("first-dealer",),
    "deal": ("deal", "upcard"),
    # the fields of a bidding step that make one token legal or not
    "turned-down": ("turned-down-suit",),
    "stuck": ("stick-the-dealer",),
    "no-trump": ("no-trump-call",),
    # an exchange the rules skip because its taker sits out
    "sitting-out-takes": ("sitting-out-dealer",),
}
TURN_FIELDS = ("to_act", "legal", "phase")
CONCEDED_FIELDS = ("conceded", "hand_points", "scores", "scoring_row", "next_dealer")   # what a concession settles
# The fields of a seat's view that show cards, and the visibility zone that hides or shows them
# (None: the zone that names the cards dealt apart, the table's `deal.widow-name`).
VIEW_ZONES = {"hands": "hands", "legal": "hands", "discards": "discards", "passed": "passed", "received": None}
# Events a step settled without a decision can give, the kind of that step, and the fields they set.
SETTLING = {"alone": OFFER, "defend-alone": OFFER, "drop": OFFER, "swap": OFFER, "take": EXCHANGE, "decline": EXCHANGE}
EVENT_FIELDS = {"alone": ("alone", "sitting_out"), "defend-alone": ("defender_alone", "sitting_out"),
                "drop": ("sitting_out",), "swap": ("hands",), "take": ("hands", "upcard"), "decline": ("hands",)}
# Upstream first: what a later field's value is computed from.
UPSTREAM = ("trump", "maker", "contract", "alone", "defender_alone", "sitting_out", "tricks", "tricks_won",
            "scoring_row", "hand_points", "scores", "game_over")
DOWNSTREAM_OF_TRICKS = frozenset({"tricks", "tricks_won", "scoring_row", "hand_points", "scores", "counters",
                                  "game_over", "winner", "to_act", "next_dealer"})


@dataclass
class Point:
    """Where a comparison failed: the setup (hand None), a hand's deal, a step (before or
    after its action), a hand's end, or the end of the case."""

    hand: int | None = None
    step: int | None = None
    moment: str = "after"            # "setup", "deal", "before", "after", "end", "case-end"


@dataclass
class Trace:
    state: State
    provenance: dict[str, list[str]] = field(default_factory=dict)   # field -> clause candidates, most specific first
    passed: list[Any] = field(default_factory=list)   # steps the last action went past without a decision
    consumed: Any = None                              # the step that took the last action (None: the deal)
    _observation: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def observation(self) -> dict[str, Any]:
        """The whole table's observation at the traced point, built once: one failure's
        citation reads it up to three times (the scoring guard, a view shown whole, the
        fields upstream), and the state does not move after the replay."""
        if self._observation is None:
            self._observation = self.state.observation()
        return self._observation


class ClauseTracer:
    """Replays cases of one resolved table and says which clause a differing field traces to."""

    def __init__(self, case: Case):
        self.rules = Rules(case.table)
        table = case.table.table
        clauses = table.get("clauses") or []
        self.anchors = {c["id"] for c in clauses}
        self.replaced = {c["replaces"]: c["id"] for c in clauses if c.get("replaces")}
        self.topics = {c["id"]: c.get("topic") for c in clauses}
        self.patched = _patched_paths(table, case.table.selected)
        self.visibility = [entry for entry in table.get("visibility") or [] if isinstance(entry, dict)]
        self._visibility: Visibility | None = None      # compiled when a view is traced
        self._readings: list[tuple[tuple[str, ...], Rules]] | None = None   # compiled when points differ
        # the cards trump in every suit (``ranking.top-trumps`` entries naming a card, not a rank)
        self.top_cards = {entry["card"] for entry in (table.get("ranking") or {}).get("top-trumps") or []
                          if isinstance(entry, dict) and "card" in entry}

    # -- the clauses of the table's parts ---------------------------------------------------------
    def existing(self, candidates: Iterable[str]) -> list[str]:
        found = []
        for candidate in candidates:
            candidate = self.replaced.get(candidate, candidate)
            if candidate in self.anchors and candidate not in found:
                found.append(candidate)
        return found

    def _option_clauses(self, prefix: str) -> list[str]:
        return [c for path, ids in self.patched for c in ids if path == prefix or path.startswith(prefix + ".")]

    def step_clauses(self, step: Any, part: str | None = None) -> list[str]:
        """The clauses of a hand's step: an option's that put it there (or, with ``part``,
        that patched that field of it), then the step's own."""
        if step is None or not step.id:
            return []
        own = [c for path, ids in self.patched for c in ids if path == f"hand.{step.id}"]
        if part:
            own = [c for path, ids in self.patched for c in ids if path == f"hand.{step.id}.{part}"] \
                + list(MECHANISMS.get(part, ())) + own
        return self.existing([*own, *([step.clause] if step.clause else []), step.id])

    def own_clauses(self, step: Any) -> list[str]:
        """The step's own clause first, then an option's: who sits out follows from the step's
        rule (a loner's partner takes no part), even where an option made the lone hand
        (a Canadian loner, forced) or changed who may take it."""
        if step is None or not step.id:
            return []
        return self.existing([*([step.clause] if step.clause else []), step.id, *self.step_clauses(step)])

    def row_clauses(self, row: str | None) -> list[str]:
        return self.existing([*self._option_clauses(f"scoring.rows.{row}"), row]) if row else []

    def game_clauses(self) -> list[str]:
        return self.existing([*self._option_clauses("game.target"), *MECHANISMS["game-end"][:1],
                              *self._option_clauses("game"), *MECHANISMS["game-end"][1:]]) or \
            [c for c in self.anchors if self.topics.get(c) == "game" and not c.startswith("first-dealer")][:1]

    def mechanism(self, name: str) -> list[str]:
        prefix = {"benny": "ranking.benny", "left-bower": "ranking.bowers", "first-dealer": "game.first-dealer",
                  "top-trump": "ranking.top-trumps",
                  "deal": "deal"}.get(name)
        return self.existing([*(self._option_clauses(prefix) if prefix else []), *MECHANISMS[name]])

    # -- replay with a trace ------------------------------------------------------------------------
    def replay(self, case: Case, point: Point, rules: Rules | None = None) -> Trace:
        """The case played in the reference up to ``point``, each field traced to its clauses
        (under ``rules``, a reading of the table, nothing is traced: only the state counts)."""
        tracing = rules is None
        rules = rules or self.rules
        setup = case.setup
        if "dealer" in setup:
            state = new_game(rules, setup["dealer"], scores=setup.get("scores"))
        else:
            first = setup["first_dealer"]
            state = new_game(rules, first_dealer_cards=first["cards"].split() if isinstance(first["cards"], str)
                             else first["cards"], start_seat=first.get("start", 0), scores=setup.get("scores"))
        trace = Trace(state)
        record = self._record if tracing else _untraced
        trace.provenance["dealer"] = self.mechanism("first-dealer")
        # the starting scores are the game's (a count-down game states them with its target)
        trace.provenance["scores"] = self.existing(self._option_clauses("game.start-score")) + self.game_clauses()
        if point.moment == "setup":
            return trace
        for h, hand in enumerate(case.hands, 1):
            if "deal_reject" in hand:
                continue
            before, events = state.observation(), len(state.events)
            deal = hand["deal"]
            if "deck" in deal:
                state.deal(rules.deal_from_order(deal["deck"], state.dealer))
            else:
                state.deal(case_deal(deal))
            record(trace, before, None, events)
            if h == point.hand and point.moment == "deal":
                return trace
            for s, step in enumerate(hand["steps"], 1):
                if h == point.hand and s == point.step and point.moment == "before":
                    return trace
                if "reject" in step:
                    continue
                before, consuming, events = state.observation(), state.step, len(state.events)
                state.apply(step["action"], step["seat"])
                record(trace, before, consuming, events)
                if h == point.hand and s == point.step:
                    return trace
            if h == point.hand:
                return trace
        return trace

    def _record(self, trace: Trace, before: dict[str, Any], consuming: Any, events_from: int) -> None:
        """Give each field the action (or deal) changed the clauses that changed it."""
        state = trace.state
        after = state.observation()
        changed = [k for k in after if after.get(k) != before.get(k)]
        # at the deal, only what a step settled at once (a king turned up, declared) is traced
        new_events = state.events[events_from:] if consuming is not None \
            else [event for event in state.events[events_from:] if event[0] == "declare"]
        cause = self.step_clauses(consuming) if consuming is not None else self.mechanism("deal")
        for key in changed:
            trace.provenance[key] = cause
        if "trump" in changed and consuming is not None and consuming.kind == PLAY:
            # trumps fixed by the card led, not by a bid (Napoleon)
            trace.provenance["trump"] = self.mechanism("trumps-by-lead") + cause
        if "trump" in changed:
            # trumps the rules set at once (the card turned up, a suit turned): the step that set them
            setting = [step for step in self._passed(consuming, state.step) if step.kind == SET_TRUMPS
                       and step.trumps in (state.trump, UPCARD_SUIT) and step.when(state, -1, -1)]
            if setting:
                trace.provenance["trump"] = self.own_clauses(setting[-1]) + trace.provenance["trump"]
        if "sitting_out" in changed and consuming is not None:
            # a bid played alone (misère) puts the partner out by its own clause
            bid = [self.rules.bid_list[state.bid].id] if state.alone and state.bid >= 0 else []
            trace.provenance["sitting_out"] = self.existing(bid) + self.own_clauses(consuming)
        scored = False
        passed = self._passed(consuming, state.step) if consuming is not None else []
        for event in new_events:
            kind = event[0]
            settled = next((step for step in reversed(passed) if step.kind == SETTLING.get(kind)), None)
            if settled is not None:         # a step the action went past decided this (a forced lone hand)
                for key in EVENT_FIELDS.get(kind, ()):
                    trace.provenance[key] = self.own_clauses(settled) if key == "sitting_out" \
                        else self._settled(state, settled)
            if kind == "declare":           # a declaration's points: the clauses of the step that scored them
                declaring = next((step for step in self.rules.steps if step.id == event[2]), None)
                for key in ("scores", "hand_points"):
                    trace.provenance[key] = self.step_clauses(declaring)
            elif kind == "trick":
                for key in ("tricks", "tricks_won"):
                    trace.provenance[key] = self.mechanism("trick")
            elif kind == "score":
                scored = True
                for key in ("hand_points", "scores", "scoring_row", "counters"):
                    trace.provenance[key] = self.row_clauses(event[1])
            elif kind == "counters":
                trace.provenance["counters"] = self.existing(c for path, ids in self.patched if path.startswith("counters")
                                                             for c in ids) or trace.provenance.get("counters", [])
            elif kind == "game-over":
                for key in ("game_over", "winner"):
                    trace.provenance[key] = self.game_clauses()
            elif kind == "throw-in":
                # the throw-in step the action went past (or rests at) says who deals next
                throwing = [step for step in (*passed, state.step) if step is not None and step.kind == THROW_IN]
                thrown = self.own_clauses(throwing[-1]) + cause if throwing else cause
                for key in ("next_dealer", "dealer", "hand_number", "hand_points", "scoring_row"):
                    trace.provenance[key] = thrown
        if scored and self._turned_in(before.get("counters"), after.get("counters")):
            # a full counter turned into points: the points follow from the counter's clause too
            counting = self.existing(c for path, ids in self.patched if path.startswith("counters") for c in ids)
            for key in ("hand_points", "scores"):
                trace.provenance[key] = counting + trace.provenance.get(key, [])
        trace.passed = passed if consuming is not None else self._passed(None, state.step)
        trace.consumed = consuming
        waiting = self.step_clauses(state.step) if state.step is not None and state.step.id else []
        if scored:                          # a scored hand: whether the game goes on, and who deals next
            waiting = self.game_clauses()
            trace.provenance["next_dealer"] = waiting
        for key in TURN_FIELDS:
            if key in changed or waiting:
                trace.provenance[key] = waiting or cause
        if state.step is not None and state.step.kind == OFFER and state.step.effect == CONCEDE and state.to_act >= 0:
            # a side asked whether to concede: an engine that has already scored the hand went by this step's rule
            for key in CONCEDED_FIELDS:
                trace.provenance[key] = self.step_clauses(state.step)

    def _turned_in(self, before: Any, after: Any) -> bool:
        """Whether a counter that turns into points did so this hand: counters only grow, so
        one that fell was turned in."""
        if not isinstance(before, dict) or not isinstance(after, dict):
            return False
        converting = {counter.id for counter in self.rules.counters if counter.every}
        return any(a < b for key in converting for a, b in zip(after.get(key) or [], before.get(key) or []))

    def _passed(self, consuming: Any, waiting: Any) -> list[Any]:
        """The steps of the hand between the one that took the action (or the deal) and the
        one now waiting: settled at once (forced, skipped by their ``when``, nothing to take)."""
        steps = list(self.rules.steps)
        start = next((i + 1 for i, step in enumerate(steps) if step is consuming), 0)
        end = next((i for i, step in enumerate(steps) if step is waiting), len(steps))
        return steps[start:end] if start <= end else []

    def _settled(self, state: State, step: Any) -> list[str]:
        """The clauses of a step the rules settled without a decision where the engine stopped
        at it: an option that changed one of its parts (a forced lone hand), a taker who sits
        out, then the step's own."""
        parts = [c for path, ids in self.patched for c in ids if path.startswith(f"hand.{step.id}.")]
        if step.kind == EXCHANGE and state.active != (1 << self.rules.n) - 1:
            parts += list(MECHANISMS["sitting-out-takes"])
        return self.existing(parts + self.step_clauses(step))

    def _stopped_at(self, trace: Trace, engine: dict[str, Any]) -> list[str]:
        """Where the engine waits at a step the reference went past: that step's clauses."""
        phase = engine.get("phase")
        consumed = trace.consumed
        if consumed is not None and consumed.kind == OFFER and consumed is not trace.state.step and phase == consumed.phase:
            # still asking at an offer the action settled (one decision for the side, taken as each seat's)
            return self._settled(trace.state, consumed)
        for step in trace.passed:
            phases = {DISCARD_PHASE, TAKE_OFFER} if step.kind == EXCHANGE else {step.phase}
            if phase in phases:
                return self._settled(trace.state, step)
        return []

    # -- what the engine got wrong ------------------------------------------------------------------
    def cite(self, case: Case, point: Point, field_name: str, engine: dict[str, Any] | None,
             actual: Any = None, refused: str | None = None) -> str | None:
        """The clause behind ``field_name`` at ``point``, given the engine's state there
        (``engine``; None when the reply had none) and its value of the field; ``refused``:
        a legal action the engine refused (its legal set is then known only to lack it)."""
        trace = self.replay(case, point)
        state = trace.state
        engine = engine if isinstance(engine, dict) else {}
        if field_name == "trick_winner":
            if state.tricks and isinstance(actual, int):
                return self._first(self._trick(state, state.tricks[-1], actual))
        hidden = self._hid_shown(trace, field_name, actual) if refused is None else []
        if hidden:
            return hidden[0]
        if refused is None and self._shows_all(trace, field_name, actual):
            shown = self._view_clauses(field_name)
            if shown:
                return shown[0]
        upstream = self._upstream(trace, field_name, engine)
        if upstream:
            return upstream
        if field_name in SCORING_FIELDS and actual is not None and refused is None \
                and _differs(field_name, trace.observation().get(field_name), actual):
            # only where the table as written does not give the engine's value: where it does,
            # the case's expectation is what differs, and another reading would be a coincidence
            read = self._read_otherwise(case, point, field_name, actual, engine)
            if read:
                return read
        if field_name in TURN_FIELDS:
            stopped = self._stopped_at(trace, engine)
            if stopped:
                return stopped[0]
        if refused is not None:
            actual = [a for a in state.legal_actions() if a != refused]
        if field_name == "legal" and state.phase == PLAY_PHASE:
            return self._first(self._play_legal(state, actual if isinstance(actual, list) else engine.get("legal"),
                                                refused))
        if field_name in TURN_FIELDS and state.phase == MASTER_SUIT:
            # the reference waits for the master card's leader to name its suit: the rule that says so
            return self._first(self.mechanism("master-led") + self._play_turn(state))
        if field_name in TURN_FIELDS and state.phase == PLAY_PHASE:
            # what follows a special card (a Benny or master led) depends on reading it; after
            # the master led, a phase of naming its suit is the rule of the master led
            special = self._special(state, state.trick[-1][1]) if field_name == "phase" and state.trick else None
            if special == "master" and len(state.trick) == 1:
                special = "master-led"
            return self._first((self.mechanism(special) if special else []) + self._play_turn(state))
        if field_name == "legal" and state.step is not None and state.step.id:
            return self._first(self._step_legal(state, actual if isinstance(actual, list) else engine.get("legal"))
                               or trace.provenance.get(field_name, []))
        if field_name == "counters" and isinstance(actual, dict):
            # the counter the engine got wrong: the clause of the option that brought it
            reference = state.observation().get("counters") or {}
            wrong = [key for key in reference if actual.get(key) != reference[key]]
            own = self.existing(c for key in wrong for path, ids in self.patched if path == f"counters.{key}" for c in ids)
            if own:
                return own[0]
        return self._first(trace.provenance.get(field_name, []))

    def _read_otherwise(self, case: Case, point: Point, field_name: str, actual: Any,
                        engine: dict[str, Any]) -> str | None:
        """The clause of the first other reading of the table's data (the partnerships, a
        limit a clause names: :mod:`conformance.runner.table_readings`) under which the reference
        gives the engine's value of the field, and the engine's values of everything the
        field follows from (the tricks, the scoring row): the engine read that data
        otherwise. A reading that gets the field by chance but changes the hand's outcome
        (another side made, another row) is not the engine's."""
        if self._readings is None:
            self._readings = []
            for reading in readings(case.table.table):
                resolved = dataclasses.replace(case.table, table=reading.table, sha256=table_hash(reading.table))
                try:
                    self._readings.append((reading.clauses, Rules(resolved)))
                except SpecError:
                    continue                # a reading the interpreter cannot play: no evidence
        for clauses, rules in self._readings:
            try:
                state = self.replay(case, point, rules).state
            except (ActionError, SpecError):
                continue                    # the script is not a game under this reading
            reading = state.observation()
            if reading.get(field_name) == actual and not any(
                    _differs(key, reading.get(key), engine[key]) for key in UPSTREAM if key in engine):
                found = self.existing(clauses)
                if found:
                    return found[0]
        return None

    def _shows_all(self, trace: Trace, field_name: str, actual: Any) -> bool:
        """Whether the engine's value of a field that shows cards is the whole table's (the
        reference's own, or a field of the engine's own naming cards) where a check expected
        another: only a seat's view expects less, so the engine showed a seat what it may not see."""
        if field_name not in VIEW_ZONES or actual is None:
            return False
        reference = trace.observation()
        if field_name not in reference:
            return isinstance(actual, (list, dict)) and bool(actual)
        expected = reference[field_name]
        if field_name == "legal" and isinstance(actual, list) and isinstance(expected, list):
            return sorted(map(str, actual)) == sorted(map(str, expected))
        if isinstance(expected, list) and isinstance(actual, list) and len(actual) == len(expected) \
                and field_name != "legal":
            # per seat: the engine shows some seat's cards the reference has, hides the others
            return all(mine in (theirs, None) or mine == [] == theirs for mine, theirs in zip(actual, expected)) \
                and any(mine == theirs and mine for mine, theirs in zip(actual, expected))
        return bool(expected) and actual == expected

    def _hid_shown(self, trace: Trace, field_name: str, actual: Any) -> list[str]:
        """Where a seat's view hides (null) an owner's cards that the table's visibility entry
        in force shows beyond their owner (an open hand laid face up): that entry's clause."""
        zone = VIEW_ZONES.get(field_name)
        if zone is None or not isinstance(actual, list):
            return []
        state = trace.state
        if self._visibility is None:
            self._visibility = Visibility(self.rules)
        raw = [entry for entry in (*VISIBILITY_DEFAULTS, *self.visibility) if entry.get("zone") == zone]
        reached = events_reached(state)
        found: list[str] = []
        for owner, mine in enumerate(actual):
            if mine is not None or owner >= self.rules.n:
                continue
            governing = None
            for entry, compiled in zip(raw, self._visibility.by_zone[zone]):
                if compiled.event > reached or (compiled.of is not None and compiled.of(state) != owner):
                    continue
                if compiled.when is not None and not compiled.when(state, owner, self.rules.unit_of[owner]):
                    continue
                governing = (entry, compiled)
            if governing and governing[1].seen_by not in ("owner", "nobody") and governing[0].get("clause"):
                found += self.existing([governing[0]["clause"]])
        return found

    def _view_clauses(self, field_name: str) -> list[str]:
        """The clause of the table's visibility entry (for every owner, at all times) that
        hides the zone the field shows."""
        zone = VIEW_ZONES.get(field_name) or (self.rules.widow_name if self.rules.widow_name in ("kitty", "widow", "dummy")
                                          else "widow")
        entries = [entry for entry in self.visibility if entry.get("zone") == zone and entry.get("clause")
                   and "of" not in entry and "when" not in entry]
        return self.existing([entries[-1]["clause"]]) if entries else []

    def cite_own_field(self, field_name: str, actual: Any) -> str | None:
        """The clause behind a field of the engine's own (outside the observation schema) where
        a check expected none: one that names cards shows a seat the cards dealt apart (or the
        zone of its name), so the clause of the visibility entry that hides them; None for
        another field (nothing in the table governs it)."""
        return self._first(self._view_clauses(field_name)) if self._names_cards(actual) else None

    def _names_cards(self, value: Any) -> bool:
        """Whether a value of an engine's own field shows cards: card names of this table,
        alone or in lists (per seat)."""
        if isinstance(value, str):
            return value in self.rules.card_index
        if isinstance(value, list):
            return any(self._names_cards(item) for item in value)
        if isinstance(value, dict):
            return any(self._names_cards(item) for item in value.values())
        return False

    def _first(self, candidates: list[str]) -> str | None:
        return candidates[0] if candidates else None

    def _upstream(self, trace: Trace, field_name: str, engine: dict[str, Any]) -> str | None:
        """The clause of the first field upstream of ``field_name`` where the engine
        already differs from the reference (a trick first of all)."""
        reference = trace.observation()
        order = UPSTREAM[:UPSTREAM.index(field_name)] if field_name in UPSTREAM else UPSTREAM
        for key in order:
            if key not in engine or key == field_name:
                continue
            if key == "tricks":
                if field_name in DOWNSTREAM_OF_TRICKS or field_name == "legal":
                    found = self._first_wrong_trick(trace.state, engine.get("tricks"))
                    if found:
                        return found
                continue
            if key in ("tricks_won",) and field_name not in DOWNSTREAM_OF_TRICKS:
                continue
            if _differs(key, reference.get(key), engine.get(key)):
                found = self._first(trace.provenance.get(key) or (self.game_clauses() if key == "game_over" else []))
                if found:
                    return found
        return None

    def _first_wrong_trick(self, state: State, tricks: Any) -> str | None:
        """The clause that decided the first finished trick the engine gave another winner."""
        if not isinstance(tricks, list):
            return None
        for mine, theirs in zip(state.tricks, tricks):
            if not isinstance(theirs, dict):
                return None
            winner = theirs.get("winner")
            if winner is not None and winner != mine[2]:
                return self._first(self._trick(state, mine, winner if isinstance(winner, int) else None))
            cards = theirs.get("cards")
            if isinstance(cards, list) and [[s, self.rules.card_names[c]] for s, c in mine[1]] != cards:
                return None            # not the same cards: nothing to trace
        return None

    # -- the play: which card is legal, who wins a trick, who leads ------------------------------------
    def _special(self, state: State, card: int) -> str | None:
        r, trump = self.rules, state.trump
        if card < 0 or trump < 0:
            return None
        if card == r.benny and trump < r.NT:
            return "benny"
        if trump >= r.NT and card == r.master:
            return "master"
        if trump < r.NT and r.eff[trump][card] == trump and r.printed_suit[card] != trump:
            return "top-trump" if notation.base_of(r.card_names[card]) in self.top_cards else "left-bower"
        return None

    def _play_legal(self, state: State, engine_legal: Any, refused: str | None = None) -> list[str]:
        r = self.rules
        mine = set(state.legal_actions())
        theirs = set(engine_legal) if isinstance(engine_legal, list) and all(isinstance(a, str) for a in engine_legal) else set()
        differing = [a.partition(":")[2] for a in sorted(mine ^ theirs) if a.startswith("play:")]
        found: list[str] = []
        if state.trick and state.step.renege and theirs and mine - theirs:
            # the rules let any card be played (a renege, to be claimed): the clause that allows it
            found += self.step_clauses(state.step, "renege")
        if state.trick and theirs:
            # a special card (a bower, the Benny) read as a plain card of its printed suit, when
            # led or when held: the engine's set is what that reading gives
            held = [c for c in range(r.n_cards) if state.hands[state.to_act] >> c & 1]
            led_card = state.trick[0][1]
            anything = {f"play:{r.card_names[c]}" for c in held}
            for special in {self._special(state, c) for c in [led_card, *held]} - {None}:
                for as_led, as_held in ((True, False), (False, True), (True, True)):
                    reading = self._follow_reading(state, held, special, as_led, as_held)
                    if as_led and reading == anything and r.printed_suit[led_card] < 0 \
                            and self._special(state, led_card) == special:
                        # a led card of no printed suit read as a plain card asks no one to
                        # follow: that reading is the follow rule not applied at all
                        continue
                    if reading == theirs if refused is None else refused not in reading:
                        found += self.mechanism(special)
        if state.trick and differing and self._bower_ranks(state) >= {notation.rank_of(n) for n in differing}:
            # only cards of the left bower's rank differ: the engine took another card for the left bower
            found += self.mechanism("left-bower")
        if not state.trick and any(self._special(state, r.card_index.get(n, -1)) for n in differing):
            found += [c for n in differing for c in self.mechanism(self._special(state, r.card_index.get(n, -1)) or "follow")]
        if state.trick:
            step = state.step
            if 0 <= state.trump < len(step.privileged) and state.led == state.trump \
                    and state.hands[state.to_act] & step.privileged[state.trump]:
                found += self.step_clauses(step, "privileged-trumps")     # a top trump's right to renege
            if step.trump_any_time and state.led != state.trump:
                found += self.step_clauses(step, "may-trump")
            found += self.mechanism("follow")
        else:
            found += self._play_turn(state) + self.mechanism("follow")
        return self.existing(found)

    def _bower_ranks(self, state: State) -> set[str | None]:
        """The ranks of the cards that are the left bower in this hand (none without bowers)."""
        r = self.rules
        return {notation.rank_of(r.card_names[c]) for c in range(r.n_cards) if self._special(state, c) == "left-bower"}

    def _follow_reading(self, state: State, held: list[int], special: str, as_led: bool, as_held: bool) -> set[str]:
        """The legal plays if the ``special`` cards followed their printed suit (when led,
        when held, or both)."""
        r = self.rules

        def suit(card: int, plain: bool) -> int:
            return r.printed_suit[card] if plain and self._special(state, card) == special else r.eff[state.trump][card]

        led = suit(state.trick[0][1], as_led)
        follow = [c for c in held if suit(c, as_held) == led]
        return {f"play:{r.card_names[c]}" for c in (follow or held)}

    def _step_legal(self, state: State, engine_legal: Any) -> list[str]:
        """A decision's legal tokens: each differing token traced to the field of the step
        that allows or forbids it (the turned-down suit, a stuck dealer's pass, no-trumps)."""
        r, step = self.rules, state.step
        mine = set(state.legal_actions())
        theirs = set(engine_legal) if isinstance(engine_legal, list) and all(isinstance(a, str) for a in engine_legal) else set()
        found: list[str] = []
        turned = f"call:{r.suits[state.turned_down]}" if state.turned_down >= 0 else None
        for token in sorted(mine ^ theirs):
            part = None
            if token == turned:
                part = "turned-down"
            elif token == "pass" and step.stuck(state) == state.to_act:
                part = "stuck"
            elif token in ("call:NT", "call:NL"):
                part = "no-trump"
            restricted = next((bid for bid in r.bid_list if bid.token == token and bid.after >= 0), None)
            if restricted is not None:      # a bid made only after another: the bid's own clause says when
                found += self.existing([restricted.id])
            found += self.step_clauses(step, part) if part else []
        return self.existing(found + self.step_clauses(step))

    def _play_turn(self, state: State) -> list[str]:
        if state.trick:                                  # mid-trick: play goes clockwise among those in the hand
            return self.step_clauses(state.step) + self.mechanism("follow")
        if state.tricks:                                 # the winner of a trick leads to the next
            return self.mechanism("trick")
        lone = self.mechanism("lone-lead") if state.alone else []
        return self.existing([*lone, *self.step_clauses(state.step)])

    def _trick_reading(self, state: State, cards: tuple, special: str) -> int:
        """The trick's winner if the ``special`` cards were plain cards of their printed suit."""
        r, trump = self.rules, state.trump

        def suit(card: int) -> int:
            return r.printed_suit[card] if self._special(state, card) == special else r.eff[trump][card]

        led = suit(cards[0][1])

        def power(card: int) -> int:
            if self._special(state, card) == special:
                # its power as a plain card: as it ranks when nothing is trumps
                return r.power[r.NT][led][card] if suit(card) == led else 0
            if trump < r.NT and r.eff[trump][card] == trump:
                return r.power[trump][led][card] if led >= 0 else 0
            return r.power[trump][led][card] if led >= 0 and r.eff[trump][card] == led else 0

        return _winner_by(power, cards)

    def _trick(self, state: State, trick: tuple, engine_winner: int | None) -> list[str]:
        """Why the reference's winner of ``trick`` beats the card the engine's winner played."""
        r = self.rules
        _, cards, winner = trick
        played = dict(cards)
        mine = played.get(winner, -1)
        theirs = played.get(engine_winner, -1) if engine_winner is not None else -1
        trump = state.trump
        led = r.eff[trump][cards[0][1]] if cards else -1
        found: list[str] = []
        for special in {self._special(state, card) for card in played.values()} - {None}:
            if engine_winner is not None and self._trick_reading(state, cards, special) == engine_winner:
                found += self.mechanism(special)
        if mine >= 0 and theirs >= 0 and mine != theirs \
                and notation.base_of(r.card_names[mine]) == notation.base_of(r.card_names[theirs]):
            found += self.mechanism("identical")
        if mine >= 0 and theirs >= 0:
            mine_trump = trump < r.NT and r.eff[trump][mine] == trump
            theirs_trump = trump < r.NT and r.eff[trump][theirs] == trump
            if mine_trump and theirs_trump:
                found += self.mechanism("trump-order")
            elif not mine_trump and not theirs_trump and r.eff[trump][mine] == led == r.eff[trump][theirs]:
                found += self.mechanism("low-no-trump-order" if trump == r.NL else
                                        "no-trump-order" if trump >= r.NT else "plain-order")
        return self.existing(found + list(self.mechanism("trick")))


def _untraced(trace: Trace, before: dict[str, Any], consuming: Any, events_from: int) -> None:
    """A replay under another reading of the table traces nothing."""


def _winner_by(power: Any, cards: tuple) -> int:
    best, winner = -1, -1
    for seat, card in cards:
        if power(card) > best:
            best, winner = power(card), seat
    return winner


def _differs(key: str, expected: Any, actual: Any) -> bool:
    if isinstance(expected, list) and isinstance(actual, list) and key == "sitting_out":
        return sorted(expected) != sorted(actual)
    return expected != actual


def _patched_paths(table: dict[str, Any], selected: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """For each option value in force: the table paths its patch touches, with its clauses."""
    found = []
    for key, value in selected.items():
        option = (table.get("options") or {}).get(key)
        if option is None or (value == option.get("default") and type(value) is type(option.get("default"))):
            continue                    # a default's rules are the table's own
        try:
            patch = choice_for(key, option, value).patch
        except (KeyError, StopIteration):
            continue
        clauses = [c["id"] for c in patch.get("clauses") or []]
        if not clauses:
            continue
        paths = list((patch.get("sets") or {}).keys())
        paths += [p for p in patch.get("remove") or [] if isinstance(p, str)]
        for entry in (patch.get("insert") or []) + (patch.get("move") or []):
            if isinstance(entry, dict):
                paths += [v for k, v in entry.items() if k in ("into", "item") and isinstance(v, str)]
                paths += [f"{entry.get('into')}.{item['id']}" for item in entry.get("items") or []
                          if isinstance(item, dict) and "id" in item]
        for path in paths:
            found.append((path, clauses))
    return found
