"""No silent data: every property the variant schema accepts changes something, or is refused.

A rule table must never say one thing and play another. This test walks
spec/schema/variant.schema.json and, for every property it finds, holds a *probe*: a change
of a real table in that property, and what the change must do:

- ``Plays``: the changed table plays differently from the unchanged one: seeded games (the
  same card order dealt to both, the same random choices among the legal actions, sorted)
  differ in what a seat may do, what it holds, the tricks, the scores or the end of the game.
- ``Sees``: what the table lets each seat see (``visibility``): in the same seeded games the
  seats' views (the protocol's ``state`` with a ``seat``, derived from the entries) differ.
- ``Refused``: ``validate`` refuses the changed table with a reason, at the file and line of
  the change (the value cannot be played, so it must not be accepted).
- ``Chooses``: the option machinery behaves differently: a selection of options that the
  unchanged table accepts is refused, or the other way round (``drop-options``, ``requires``).
- ``Shown``: prose, which plays nothing by design (titles, clause texts, sources): the changed
  words appear on the variant's page of the rules site, which is generated from the table.
- ``Meta``: a property for tools, named with the reason and checked where it can be.

A property of the schema without a probe fails the test, so a new property must come with
proof that it is honoured (or a refusal). Each probe runs the real pipeline: the changed
table is written as a YAML file and resolved from it, as an author's table is.
"""

from __future__ import annotations

import copy
import os
import random
import subprocess
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import zip_longest
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import yaml

from reference_impl.catalog import load_schema
from reference_impl.errors import SpecError
from reference_impl.resolve import resolve, resolve_file
from reference_impl.rules import Rules
from reference_impl.selfplay import BIDDING_PHASES, LOWEST_BIDS, PASS_BIAS
from reference_impl.state import State, new_game
from reference_impl.validate import option_trials, variant_problems

# libyaml's loader and emitter where PyYAML has them: the same data, and text byte-identical
# to the pure-Python emitter's on every table (checked when this was written); the pure-Python
# ones were half of this file's time, a table of a probe being written twice and read once.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def dumped(data: Any) -> str:
    """``yaml.safe_dump(data, sort_keys=False, allow_unicode=True)``, by libyaml where present."""
    return yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True)


@lru_cache(maxsize=None)
def _parsed(text: str) -> Any:
    """A table's text parsed, once a session (keyed by the text itself, wherever it was read)."""
    return yaml.load(text, Loader=_LOADER)


GAMES = 4                    # seeded games per probe (a difference usually shows in the first hand)
MAX_HANDS = 40               # per game: enough for every probe's difference to show
Edit = Callable[[dict], None]


# -- the schema's properties -------------------------------------------------------------------------
def _walk(node: Any, owner: str, out: dict[str, dict]) -> None:
    if not isinstance(node, dict):
        return
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in node.get(key, []):
            _walk(sub, owner, out)
    for name, sub in node.get("properties", {}).items():
        key = f"{owner}.{name}" if owner else name
        out[key] = sub
        if "$ref" not in sub:
            _walk(sub, key, out)
    for extra in ("additionalProperties", "items"):
        sub = node.get(extra)
        if isinstance(sub, dict) and "$ref" not in sub:
            _walk(sub, owner, out)


def _is_container(node: dict) -> bool:
    """A section or list whose elements' own properties are probed (``players``, ``hand``,
    ``scoring.rows``, ``options``): it has nothing of its own to honour."""
    if "properties" in node and "$ref" not in node:
        return True
    inner = node.get("items") if node.get("type") == "array" else node.get("additionalProperties")
    if not isinstance(inner, dict):
        return False
    if "properties" in inner or "allOf" in inner:
        return True
    if "$ref" in inner:
        definition = load_schema("variant.schema.json")["$defs"][inner["$ref"].split("/")[-1]]
        return "properties" in definition and definition.get("type") == "object" and inner["$ref"] != "#/$defs/condition"
    return False


def schema_properties() -> dict[str, dict]:
    """Every property of the schema, keyed by its owner: a top-level path (``game.target``) or
    a definition and the property (``step.stuck``, ``condition.round``), each once however
    many places use the definition; containers left out."""
    schema = load_schema("variant.schema.json")
    found: dict[str, dict] = {}
    _walk(schema, "", found)
    for name, definition in schema["$defs"].items():
        _walk(definition, name, found)
    return {key: node for key, node in found.items() if not _is_container(node)}


# -- editing tables ---------------------------------------------------------------------------------
def _at(table: Any, parts: list[str]) -> Any:
    """The node at a dotted path: keys of mappings, and in a list a number (its index) or the
    ``id`` of an element."""
    node = table
    for part in parts:
        if isinstance(node, list):
            node = node[int(part)] if part.isdigit() else next(e for e in node if isinstance(e, dict) and e.get("id") == part)
        else:
            node = node[part]
    return node


def _last(node: Any, part: str) -> Any:
    if isinstance(node, list):
        return int(part) if part.isdigit() else next(i for i, e in enumerate(node) if e.get("id") == part)
    return part


def put(dotted: str, value: Any) -> Edit:
    def run(t: dict) -> None:
        *head, last = dotted.split(".")
        parent = _at(t, head)
        parent[_last(parent, last)] = copy.deepcopy(value)
    return run


def drop(dotted: str) -> Edit:
    def run(t: dict) -> None:
        *head, last = dotted.split(".")
        parent = _at(t, head)
        del parent[_last(parent, last)]
    return run


def add(into: str, items: list) -> Edit:
    return lambda t: _at(t, into.split(".")).extend(copy.deepcopy(items))


def edits(*steps: Edit) -> Edit:
    def run(t: dict) -> None:
        for step in steps:
            step(t)
    return run


def same(t: dict) -> None:
    """No change."""


# -- probes -------------------------------------------------------------------------------------------
@dataclass
class Plays:
    """The changed table plays differently. ``source``: the change is made to the variant's
    own file (its options kept, ``options`` chosen when it is resolved) rather than to its
    resolved table written out without options."""
    variant: str
    edit: Edit
    options: dict = field(default_factory=dict)
    scores: list | None = None          # start every game at these scores (a game's end, at once)
    base: Edit = same                   # a change made to both tables (a setting where the difference shows)
    source: bool = False


@dataclass
class Sees:
    """The changed table shows some seat something else (its ``visibility``), in the same
    seeded games; ``base`` as for :class:`Plays`."""
    variant: str
    edit: Edit
    base: Edit = same


@dataclass
class Refused:
    variant: str
    edit: Edit
    says: str
    options: dict = field(default_factory=dict)
    source: bool = False


@dataclass
class Chooses:
    """``selection`` is accepted by one of (the variant's file, the file changed by ``edit``)
    and refused by the other."""
    variant: str
    edit: Edit
    selection: dict


@dataclass
class ChildChooses:
    """As :class:`Chooses`, for a table extending ``variant``: ``body`` is the changed child's
    own keys (the unchanged child has none)."""
    variant: str
    body: str
    selection: dict


@dataclass
class ChildPlays:
    """A table extending ``variant`` with ``body`` plays differently from one extending
    ``other`` with ``other_body``."""
    variant: str
    body: str
    other: str
    other_body: str = ""


@dataclass
class Shown:
    variant: str
    edit: Edit
    text: str                           # the words the page must show once changed
    source: bool = False
    options: dict = field(default_factory=dict)


@dataclass
class ClausesDiffer:
    """The resolved table's clauses (what its page states as the rules) differ under ``options``
    once the variant's file is changed."""
    variant: str
    edit: Edit
    options: dict


@dataclass
class Meta:
    why: str
    check: Callable[[], None] | None = None


# -- running the pipeline ----------------------------------------------------------------------------
def standalone(variant: str, options: dict, edit: Edit, folder: Path) -> Path:
    """The resolved table of ``variant`` (with ``options``) as an author's file of its own, its
    options left out (they are applied already), after ``edit``."""
    table = copy.deepcopy(resolve(variant, options).table)
    table.pop("selected", None)
    table.pop("options", None)
    edit(table)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{variant}.yaml"
    path.write_text(dumped(table), encoding="utf-8")
    return path


def view(state: State) -> dict[str, Any]:
    """The observable state with lists of cards sorted: two packs listing their cards in
    another order show the same state the same way."""
    seen = state.observation()
    seen["legal"] = sorted(seen["legal"])
    seen["hands"] = [sorted(hand) for hand in seen["hands"]]
    return seen


def seat_views(state: State) -> dict[str, Any]:
    """What each seat may see (``observation(seat)``), its lists of cards sorted as in :func:`view`."""
    views: dict[str, Any] = {}
    for seat in range(state.rules.n):
        seen = state.observation(seat)
        seen["hands"] = [sorted(hand) if hand is not None else None for hand in seen["hands"]]
        for name in ("discards", "passed", "received"):
            seen[name] = [sorted(cards) if cards is not None else None for cards in seen[name]]
        views[f"seat {seat}"] = seen
    return views


def games(rules: Rules, seed: int, scores: list | None,
          look: Callable[[State], dict[str, Any]] = view) -> Iterator[dict[str, Any]]:
    """What ``look`` shows of seeded games (the observable state unless told). Both tables of a
    probe are dealt the same card order (a shuffle of the sorted card names) and choose alike
    among the sorted legal actions, so only their rules can tell the games apart."""
    rng = random.Random(seed)
    for _ in range(GAMES):
        names = sorted(rules.card_names)
        rng.shuffle(names)
        state = new_game(rules, rng=random.Random(rng.random()), first_dealer_cards=names, scores=scores)
        yield look(state)
        while not state.is_terminal() and state.hand_number < MAX_HANDS:
            if state.is_chance_node():
                order = sorted(rules.card_names)
                rng.shuffle(order)
                state.deal(rules.deal_from_order(order, state.dealer))
            else:
                legal = sorted(state.legal_actions())
                if state.phase in BIDDING_PHASES and "pass" in legal and rng.random() < PASS_BIAS:
                    action = "pass"
                elif state.phase == "auction":
                    bids = [a for a in state.legal_actions() if a != "pass"]
                    action = rng.choice(bids[:LOWEST_BIDS]) if bids else "pass"
                else:
                    action = rng.choice(legal)
                state.apply(action)
            yield look(state)


def first_difference(one: Rules, other: Rules, scores: list | None,
                     look: Callable[[State], dict[str, Any]] = view) -> tuple[int, str] | None:
    for seed in (1, 2):
        for step, (a, b) in enumerate(zip_longest(games(one, seed, scores, look), games(other, seed, scores, look))):
            if a != b:
                keys = sorted(k for k in set(a or {}) | set(b or {}) if (a or {}).get(k) != (b or {}).get(k))
                return step, ", ".join(keys)
    return None


def rules_of(path: Path) -> Rules:
    return Rules(resolve_file(path))


def child_file(folder: Path, variant: str, body: str, name: str = "house") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(f"id: {name}\ntitle: House\nsummary: A house table.\nsources: {{house: {{title: Ours, kind: house}}}}\n"
                    f"extends: {variant}\n{body}", encoding="utf-8")
    return path


def page_of(path: Path, monkeypatch) -> str:
    from rules_site.links import Links
    from rules_site.tables import variant_view
    from rules_site.variant import render_variant
    monkeypatch.setenv("EUCHRE_SPEC_PATH", str(path.parent))
    view = variant_view(path.stem)
    return render_variant(view, [], {}, Links(page=f"variants/{path.stem}.md"))


SENTINEL = "Zebra-quartz sentence"


# -- the probes, one per property ------------------------------------------------------------------
TOKENS = {"four-trick-tokens": True}
FARMERS = {"farmers-hand": True}
UNDER = {"going-under": True}
STUCK_IN_ROUND_1 = put("hand.round-1.stuck", "dealer")
EVERY_LONE_MADE = put("scoring.rows.lone-made.award.0.points", 1)


BENNY_STATED = put("hand.benny-upcard.clause", "upcard")      # a Benny's step runs, and is stated by a clause


THROW_UP = {"id": "throw-up", "kind": "offer", "to": {"seats": "everyone", "from": "eldest"}, "accept": "drop",
            "decline": "stay", "effect": "sit-out", "stop": "never", "clause": "deal"}     # every seat may throw up its hand


def _prose(variant: str, dotted: str) -> Shown:
    return Shown(variant, put(dotted, SENTINEL), SENTINEL)


def _option_prose(key: str) -> Shown:
    return Shown("euchre", put(f"options.stick-the-dealer.{key}", SENTINEL), SENTINEL)


PROBES: dict[str, Any] = {
    # the table as a whole
    "$schema": Meta("the editor's hint to the schema (yaml-language-server); no rule, and nothing reads it"),
    "id": Refused("euchre", put("id", "not-euchre"), "does not match the file name"),
    "title": _prose("euchre", "title"),
    "summary": _prose("euchre", "summary"),
    "family": Meta("the site's grouping of variants (the variants index, the comparison's columns)",
                   lambda: _family_groups()),
    "shape": Refused("euchre", put("shape", 3), "should be 2"),
    "extends": ChildPlays("euchre", "", "railroad"),
    "remove": ChildPlays("euchre", "remove: [hand.defending-alone]\ndrop-options: [defending-alone]\n", "euchre"),
    "drop-options": ChildChooses("euchre", "drop-options: [stick-the-dealer]\n", {"stick-the-dealer": True}),
    "option-choices": ChildChooses("euchre", "option-choices: {stick-the-dealer: [false]}\n", {"stick-the-dealer": True}),
    "option-defaults": ChildPlays("euchre", "option-defaults: {stick-the-dealer: true}\n", "euchre"),
    "selected": Refused("euchre", put("selected", {"stick-the-dealer": True}), "selected"),
    "notes": Shown("euchre", put("notes", [SENTINEL]), SENTINEL),
    # players
    "players.count": Plays("buck-euchre", put("players.count", 3)),
    "players.teams": Plays("euchre", put("players.teams", [[0, 1], [2, 3]])),
    "players.sides": Plays("euchre", put("players.sides", "maker-against-rest")),
    "players.names": Shown("euchre", put("players.names", ["Ann", "Bob", "Cy", SENTINEL]), SENTINEL),
    # the pack and the ranking
    "deck.suits": Plays("two-hand", edits(put("deck.suits", ["C", "S"]), put("hand.benny-upcard.names", ["C", "S"]))),
    "deck.ranks": Plays("euchre", put("deck.ranks", ["9", "T", "A", "J", "Q", "K"])),   # the ace between ten and jack
    "deck.extra": Plays("euchre", put("deck.extra", ["8S"])),
    "deck.colours": Plays("euchre", put("deck.colours", {"C": "red", "D": "black", "H": "red", "S": "black"})),
    "deck.without": Plays("euchre", put("deck.without", ["9C", "9S"])),
    "deck.copies": Plays("euchre", put("deck.copies", 2)),
    "ranking.bowers": Plays("euchre", put("ranking.bowers", False)),
    "ranking.equal-cards": Plays("euchre", put("ranking.equal-cards", "last-played"), base=put("deck.copies", 2)),
    "ranking.benny": Plays("euchre", edits(put("deck.extra", ["JK"]), put("ranking.benny", "JK"), BENNY_STATED)),
    # With a Benny the master is the Benny (its default; any other card is refused); without one it is the
    # extra card's only role (leaving it out is refused): every change is refused or plays the same.
    "ranking.no-trump.master": Refused("five-hundred", put("ranking.no-trump.master", "AS"), "must be an extra card"),
    # One value, also the default when the key is left out: any other value is refused.
    "ranking.no-trump.master-led": Refused("five-hundred", put("ranking.no-trump.master-led", "leader-plays-it"),
                                           "is not one of"),
    "ranking.no-trump.master-play": Plays("five-hundred", put("ranking.no-trump.master-play", "any-time")),
    # the deal
    "deal.packets.to": Plays("euchre", put("deal.packets.1.to", "widow")),
    "deal.packets.count": Plays("euchre", put("deal.packets", [{"to": "players", "count": 2}, {"to": "players", "count": 3}])),
    "deal.upcard": Plays("five-hundred", put("deal.upcard", True), base=put("deal.packets.4.count", 2)),
    "deal.widow-name": Shown("three-hand-dummy", put("deal.widow-name", "kitty"), "kitty"),
    # scoring
    "scoring.makers-need": Plays("buck-euchre", put("scoring.makers-need", 2)),
    "scoringRow.id": Refused("euchre", put("scoring.rows.march.id", "big-march"), "no clause of the same id"),
    "scoringRow.enabled": Plays("euchre", edits(put("scoring.rows.super-euchre.enabled", True), add("clauses", [
        {"id": "super-euchre", "topic": "scoring", "title": "Super euchre", "text": "Four to the defenders.",
         "source": "seed-001"}]))),
    "scoringRow.when": Plays("euchre", put("scoring.rows.march.when", {"maker-tricks": [4, 5]})),
    "award.to": Plays("euchre", put("scoring.rows.made.award.0.to", "defenders")),
    "award.when": Plays("buck-euchre", put("scoring.rows.made.award.1.when", {"self-tricks": 1})),
    "award.points": Plays("euchre", put("scoring.rows.made.award.0.points", 3)),
    "points.fixed": Plays("five-hundred", put("scoring.rows.contract-made.award.0.points", {"contract-value": 1, "fixed": 7})),
    "points.contract-value": Plays("five-hundred", put("scoring.rows.contract-made.award.0.points", {"contract-value": 2})),
    "points.bid-tricks": Plays("bid-euchre", put("scoring.rows.set.award.0.points", {"bid-tricks": -2})),
    "points.per-trick": Plays("five-hundred", put("scoring.rows.contract-made.award.1.points", {"per-trick": 20})),
    "points.at-least": Plays("five-hundred", put("scoring.rows.contract-made.award.0.points", {"contract-value": 1, "at-least": 300})),
    "points.total-at-most": Plays("five-hundred", put("scoring.rows.contract-made.award.1.points", {"per-trick": 10, "total-at-most": 30})),
    # counters
    "counter.id": Plays("euchre", put("counters.tokens.id", "chips"), options=TOKENS),
    "counter.title": Shown("euchre", put("counters.tokens.title", SENTINEL), SENTINEL, options=TOKENS),
    "counter.per": Plays("euchre", put("counters.tokens.per", "player"), options=TOKENS),
    "counter.start": Plays("euchre", put("counters.tokens.start", 2), options=TOKENS),
    "counter.count.to": Plays("euchre", put("counters.tokens.count.0.to", "defenders"), options=TOKENS),
    "counter.count.when": Plays("euchre", put("counters.tokens.count.0.when", {"maker-tricks": [3, 5]}), options=TOKENS),
    "counter.count.add": Plays("euchre", put("counters.tokens.count.0.add", 2), options=TOKENS),
    "counter.convert.every": Plays("euchre", put("counters.tokens.convert.every", 1), options=TOKENS),
    "counter.convert.points": Plays("euchre", put("counters.tokens.convert.points", 3), options=TOKENS,
                                    base=put("counters.tokens.convert.every", 1)),
    # the game
    "game.target": Plays("euchre", put("game.target", 3)),
    "game.direction": Plays("buck-euchre", edits(put("game.direction", "up"), put("game.target", 30))),
    "game.start-score": Plays("buck-euchre", put("game.start-score", 12)),
    "game.deals": Plays("euchre", put("game.deals", 2)),
    "game.lose-at": Plays("five-hundred", put("game.lose-at", -100)),
    "game.win-requires": Plays("euchre", put("game.win-requires", {"self": "maker-side"}), scores=[9, 9]),
    "game.first-dealer": Plays("euchre", put("game.first-dealer", "random")),
    "game.cut-order": Plays("five-hundred", put("game.cut-order", ["K", "Q", "J", "T", "9", "8", "7", "A", "JK"])),
    "game.next-dealer": Refused("euchre", put("game.next-dealer", "right"), "'right' is not one of"),
    "game.simultaneous": Plays("five-hundred", put("game.simultaneous", ["highest", "play-on"]), scores=[480, 480, 480]),
    "terms.benny": Shown("euchre", edits(put("terms", {"benny": SENTINEL}), put("deck.extra", ["JK"]),
                                         put("ranking.benny", "JK"), BENNY_STATED), SENTINEL),
    "terms.maker": Shown("euchre", put("terms", {"maker": SENTINEL}), SENTINEL),
    "terms.team": Shown("euchre", put("terms", {"team": [SENTINEL, "West-East"]}), SENTINEL),
    # clauses and sources
    "clause.id": Refused("euchre", put("clauses.lead.id", "opening-lead"), "no clause 'lead'"),
    "clause.topic": Shown("euchre", edits(put("clauses.march.topic", "deck"), put("clauses.march.title", SENTINEL)), SENTINEL),
    "clause.title": _prose("euchre", "clauses.march.title"),
    "clause.text": _prose("euchre", "clauses.march.text"),
    "clause.source": Refused("euchre", put("clauses.march.source", "no-such-source"), "unknown source"),
    "clause.note": _prose("euchre", "clauses.march.note"),
    "source.title": _prose("euchre", "sources.seed-001.title"),
    "source.kind": Refused("euchre", put("sources.pagat.kind", "seed"), "a seed source names its file"),
    "source.file": _prose("euchre", "sources.seed-001.file"),
    "source.url": _prose("euchre", "sources.pagat.url"),
    "source.author": _prose("euchre", "sources.pagat.author"),
    "source.year": Shown("euchre", put("sources.pagat.year", 1777), "1777"),
    # seats asked, cards chosen
    "queue.seats": Plays("euchre", put("hand.defending-alone.to.seats", "everyone")),
    "queue.from": Plays("euchre", put("hand.defending-alone.to.from", "dealer")),
    "cardSet.ranks": Plays("buck-euchre", put("hand.dirty-clubs.when.upcard", {"ranks": ["J"]})),
    "cardSet.suits": Plays("buck-euchre", put("hand.dirty-clubs.when.upcard", {"suits": ["D"]})),
    "cardSet.cards": Plays("buck-euchre", put("hand.dirty-clubs.when.upcard", {"cards": ["9C", "TC", "JD", "AS", "KH"]})),
}

PROBES.update({
    # the condition language: each atom where a table uses it
    "condition.round": Plays("euchre", put("hand.dealer-pickup.takes.0.when", {"round": "round-2"})),
    "condition.upcard": Plays("buck-euchre", put("hand.dirty-clubs.when", {"upcard": {"suits": ["H"]}})),
    "condition.trump": Plays("euchre", put("scoring.rows.made.award.0.when", {"trump": ["C", "S"]})),
    "condition.maker": Plays("two-hand", put("hand.dealer-pickup.takes.0.when", {"round": "round-1", "maker": "eldest"})),
    "condition.alone": Plays("euchre", put("scoring.rows.lone-march.when", {"alone": False, "maker-tricks": 5})),
    "condition.defender-alone": Plays("euchre", put("scoring.rows.lone-defender-march.when",
                                                    {"defender-alone": False, "maker-tricks": 0})),
    "condition.partner": Plays("call-ace", put("scoring.rows.lone-march.when.any.1", {"partner": "called"})),
    "condition.contract": Plays("buck-euchre", put("hand.stay-or-drop.when", {"contract": "none"})),
    "condition.bid": Plays("bid-euchre", put("hand.moon-best-card.when", {"bid": ["6"]})),
    "condition.made": Plays("bid-euchre", put("game.win-requires.any.0.made", False), scores=[26, 26]),
    "condition.maker-tricks": Plays("euchre", put("scoring.rows.lone-march.when", {"alone": True, "maker-tricks": [4, 5]})),
    "condition.defender-tricks": Plays("euchre", put("scoring.rows.lone-march.when", {"alone": True, "defender-tricks": [0, 1]})),
    "condition.trick-sequence": Plays("euchre", put("scoring.rows.fast-break.when", {"trick-sequence": "MMDDD"}),
                                      options={"fast-break": True}),
    "condition.hand-number": Plays("euchre", put("scoring.rows.made.award.0.when", {"hand-number": 1})),
    "condition.self": Plays("buck-euchre", put("scoring.rows.euchred.award.2.when", {"self": "maker", "self-tricks": 0})),
    "condition.self-tricks": Plays("buck-euchre", put("scoring.rows.made.award.1.when", {"self-tricks": 1})),
    "condition.self-in-hand": Plays("buck-euchre", put("scoring.rows.made.award.2.when", {"self-in-hand": False}),
                                    base=add("scoring.rows.made.award", [{"to": "everyone", "when": {"self-in-hand": True},
                                                                          "points": 3}])),
    "condition.holds.of": Plays("euchre", put("hand.going-under.eligible.holds.of", {"ranks": ["9", "T", "J"]}),
                                options=UNDER),
    "condition.holds.at-least": Plays("euchre", put("hand.farmers-hand.eligible.holds.at-least", 4), options=FARMERS),
    "condition.holds.at-most": Plays("euchre", put("hand.going-under.eligible.holds", {"of": {"ranks": ["9", "T"]},
                                                                                      "at-least": 0, "at-most": 2}),
                                     options=UNDER),
    "condition.holds.only": Plays("euchre", put("hand.going-under.eligible.holds", {"of": {"ranks": ["9", "T"]},
                                                                                   "at-least": 4}), options=UNDER),
    "condition.counter.id": Refused("euchre", put("game.win-requires", {"counter": {"id": "chips", "at-least": 1}}),
                                    "no counter 'chips'", options=TOKENS),
    "condition.counter.at-least": Plays("euchre", put("game.win-requires", {"counter": {"id": "tokens", "at-least": 0}}),
                                        base=put("game.win-requires", {"counter": {"id": "tokens", "at-least": 1}}),
                                        options=TOKENS, scores=[8, 8]),
    "condition.score.at-least": Plays("euchre", put("game.win-requires", {"score": {"at-least": 11}}), scores=[9, 9]),
    "condition.score.at-most": Plays("euchre", put("game.win-requires", {"score": {"at-most": 10}}), scores=[9, 9]),
    "condition.any": Plays("euchre", put("scoring.rows.march.when", {"any": [{"maker-tricks": 5}, {"maker-tricks": 4}]})),
    "condition.all": Plays("euchre", put("scoring.rows.march.when", {"all": [{"maker-tricks": [4, 5]}]})),
    "condition.not": Plays("euchre", put("scoring.rows.march.when", {"not": {"maker-tricks": [0, 3]}})),
    # bids
    "bid.id": Plays("five-hundred", put("hand.auction.bids.6S.id", "six-spades")),
    "bid.tricks": Plays("five-hundred", put("hand.auction.bids.6S.tricks", 9)),
    "bid.at-most": Plays("five-hundred", put("hand.auction.bids.6S.at-most", 1),
                         base=put("hand.auction.bids.6S", {"id": "6S", "at-most": 4, "strain": "S", "value": 40})),
    "bid.strain": Plays("five-hundred", put("hand.auction.bids.6S.strain", "H")),
    "bid.value": Plays("five-hundred", put("hand.auction.bids.6S.value", 45)),
    "bid.enabled": Plays("five-hundred", put("hand.auction.bids.6C.enabled", False)),
    "bid.alone": Plays("bid-euchre", put("hand.bidding.bids.1.alone", True)),
    "bid.after": Plays("five-hundred", put("hand.auction.bids.6C.after", "6NT")),
    # the exchange's takes, the opening lead
    "take.who": Plays("euchre", put("hand.dealer-pickup.takes.0.who", "eldest")),
    "take.from": Plays("three-hand-dummy", put("hand.exchange.takes.0.from", "upcard")),
    "take.when": Plays("euchre", put("hand.dealer-pickup.takes.0.when", {"alone": False})),
    "take.optional": Plays("euchre", put("hand.dealer-pickup.takes.0.optional", True)),
    "leadRule.when": Plays("euchre", put("hand.play.lead.0.when", {"alone": False})),
    "leadRule.seat": Plays("euchre", put("hand.play.lead.1.seat", "dealer")),
    # the steps of a hand
    "step.id": Refused("euchre", put("hand.round-1.id", "first-round"), "no make-trumps step 'round-1'"),
    "step.kind": Plays("five-hundred", edits(put("hand.no-bid.kind", "throw-in"), drop("hand.no-bid.trumps"))),
    "step.phase": Plays("euchre", put("hand.round-1.phase", "first-round")),
    "step.clause": Refused("euchre", put("hand.play.clause", "no-such-clause"), "no clause 'no-such-clause'"),
    "step.when": Plays("euchre", put("hand.going-alone.when", {"maker": "dealer"})),
    "step.who": Plays("bid-euchre", put("hand.naming-trumps.who", "dealer")),
    "step.names": Plays("bid-euchre", put("hand.naming-trumps.names", ["C", "D", "H", "S"])),
    "step.effect": Plays("euchre", put("hand.going-alone.effect", "sit-out")),
    "step.from": Plays("euchre", put("hand.round-1.from", "dealer")),
    "step.action": Plays("euchre", edits(put("hand.round-2.action", "order"), drop("hand.round-2.turned-down"),
                                         drop("hand.round-2.no-trump"))),
    "step.turned-down": Plays("euchre", put("hand.round-2.turned-down", "allowed")),
    "step.no-trump": Plays("euchre", put("hand.round-2.no-trump", True)),
    "step.stuck": Plays("euchre", STUCK_IN_ROUND_1),
    "step.turns": Plays("five-hundred", put("hand.auction.turns", "once")),
    "step.bid": Plays("hasenpfeffer", put("hand.joker-must-bid.bid", "5")),
    "step.trumps": Plays("five-hundred", put("hand.no-bid.trumps", "S")),
    "step.next-dealer": Plays("euchre", put("hand.throw-in.next-dealer", "same")),
    "step.to": Plays("euchre", put("hand.defending-alone.to", "maker-left")),
    "step.accept": Plays("euchre", put("hand.going-alone.accept", "solo")),
    "step.decline": Plays("buck-euchre", put("hand.stay-or-drop.decline", "play-on")),
    "step.stop": Plays("buck-euchre", put("hand.stay-or-drop.stop", "first-accept")),
    "step.eligible": Plays("euchre", put("hand.defending-alone.eligible", {"self": "dealer"})),
    "step.forced": Plays("euchre", put("hand.going-alone.forced", {"maker": "eldest"})),
    "step.swap.count": Plays("euchre", put("hand.farmers-hand.swap.count", 2), options=FARMERS),
    "step.swap.of": Plays("euchre", put("hand.farmers-hand.swap.of", {"ranks": ["9", "T", "J"]}), options=FARMERS),
    "step.may-discard-taken": Plays("euchre", put("hand.dealer-pickup.may-discard-taken", False)),
    "step.sitting-out-takes": Plays("euchre", put("hand.dealer-pickup.sitting-out-takes", True)),
    "step.givers": Refused("railroad", put("hand.partners-best.givers", "everyone"), "'everyone' is not one of"),
    "step.giver-may-pass": Plays("railroad", put("hand.partners-best.giver-may-pass", False)),
    "step.receiver-may-refuse": Plays("railroad", put("hand.partners-best.receiver-may-refuse", False)),
    "step.must": Plays("euchre", put("hand.play.must", ["trump"])),
    "step.partner-winning-frees": Plays("euchre", put("hand.play.partner-winning-frees", ["trump"]),
                                        base=put("hand.play.must", ["trump"])),
})

# The option machinery: changes made to the variant's own file, options chosen when it is resolved.
STD = "options.stick-the-dealer"
PROBES.update({
    "option.title": Shown("euchre", put(f"{STD}.title", SENTINEL), SENTINEL, source=True),
    "option.summary": Shown("euchre", put(f"{STD}.summary", SENTINEL), SENTINEL, source=True),
    "option.note": Shown("euchre", put(f"{STD}.note", SENTINEL), SENTINEL, source=True),
    "option.egn": Shown("euchre", put(f"{STD}.egn", "zebra_quartz"), "zebra_quartz", source=True),
    "option.source": Refused("euchre", put(f"{STD}.source", "no-such-source"), "unknown source", source=True),
    "option.default": Plays("euchre", put(f"{STD}.default", True), source=True),
    "option.choices.value": Chooses("euchre", put(f"{STD}.choices.1.value", "always"), {"stick-the-dealer": True}),
    "option.choices.summary": Shown("euchre", put(f"{STD}.choices.1.summary", SENTINEL), SENTINEL, source=True),
    "option.range.minimum": Chooses("euchre", put("options.game-target.range.minimum", 8), {"game-target": 5}),
    "option.range.maximum": Chooses("euchre", put("options.game-target.range.maximum", 20), {"game-target": 50}),
    "option.range.examples": Meta("the values `validate` tries and the site and the case generator show",
                                  lambda: _examples_are_tried()),
    "option.range.sets": Plays("euchre", put("options.lone-march-points.range.sets",
                                             {"scoring.rows.march.award.0.points": "$value"}),
                               options={"lone-march-points": 7}, source=True),
    "option.range.clauses": Shown("euchre", put("options.fixed-deals.range.clauses.0.title", SENTINEL), SENTINEL,
                                  source=True),
    "patch.sets": Plays("euchre", put(f"{STD}.choices.1.sets", {"hand.round-1.stuck": "dealer"}),
                        options={"stick-the-dealer": True}, source=True),
    "patch.insert.into": Refused("euchre", put("options.four-trick-tokens.choices.1.insert.0.into", "scoring.rows"),
                                 "set by option four-trick-tokens=true", options={"four-trick-tokens": True}, source=True),
    "patch.insert.before": Plays("euchre", put("options.fast-break.choices.1.insert.0.before", "euchre"),
                                 options={"fast-break": True}, source=True),
    "patch.insert.after": Plays("euchre", edits(drop("options.fast-break.choices.1.insert.0.before"),
                                                put("options.fast-break.choices.1.insert.0.after", "made")),
                                options={"fast-break": True}, source=True),
    "patch.insert.items": Plays("euchre", put("options.fast-break.choices.1.insert.0.items.0.award",
                                              [{"to": "makers", "points": 3}]),
                                options={"fast-break": True}, source=True),
    "patch.remove": Plays("euchre", put("options.defending-alone.choices.1.remove", ["hand.going-alone"]),
                          options={"defending-alone": False}, source=True),
    "patch.move.item": Plays("euchre", put("options.alone-declared.choices.1.move",
                                           [{"item": "hand.defending-alone", "after": "dealer-pickup"}]),
                             options={"alone-declared": "after-exchange"}, source=True),
    "patch.move.before": Plays("euchre", put("options.alone-declared.choices.1.move",
                                             [{"item": "hand.going-alone", "before": "dealer-pickup"}]),
                               options={"alone-declared": "after-exchange"}, source=True),
    "patch.move.after": Plays("euchre", put("options.alone-declared.choices.1.move",
                                            [{"item": "hand.going-alone", "after": "throw-in"}]),
                              options={"alone-declared": "after-exchange"}, source=True),
    "patch.requires": Chooses("euchre", put("options.game-target.choices.0.requires", {"fixed-deals": [4]}),
                              {"game-target": 0, "fixed-deals": 8}),
    "patch.requires.not": Chooses("euchre", put("options.game-target.choices.0.requires", {"fixed-deals": {"not": [8]}}),
                                  {"game-target": 0, "fixed-deals": 8}),
    "patch.clauses": Shown("euchre", put(f"{STD}.choices.1.clauses.0.text", SENTINEL), SENTINEL, source=True),
    "clause.replaces": ClausesDiffer("euchre", drop(f"{STD}.choices.1.clauses.0.replaces"), {"stick-the-dealer": True}),
})


def _family_groups() -> None:
    import tempfile
    from rules_site.compare import families
    from rules_site.tables import variant_view
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        path = standalone("railroad", {}, put("family", SENTINEL), Path(folder))
        patch.setenv("EUCHRE_SPEC_PATH", str(path.parent))
        assert [name for name, _ in families([variant_view("euchre"), variant_view("railroad")])] == [
            "Euchre for four", SENTINEL]


def _trickster_page_names_it() -> None:
    import tempfile
    from rules_site.links import Links
    from rules_site.tables import variant_view
    from rules_site.trickster import TRICKSTER_PAGE, render_trickster
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        path = source_file("euchre", put(f"{STD}.trickster.name", "zebraQuartz"), Path(folder))
        patch.setenv("EUCHRE_SPEC_PATH", str(path.parent))
        assert "zebraQuartz" in render_trickster([variant_view("euchre")], Links(page=TRICKSTER_PAGE))


def _examples_are_tried() -> None:
    table = copy.deepcopy(resolve("euchre").table)
    table["options"]["game-target"]["range"]["examples"] = [13]
    trials = [t.get("game-target") for t in option_trials(table)]
    assert 13 in trials and 11 not in trials, trials


RENEGE = {"reneging": "claimed"}
VISIBLE_DEALER = {"zone": "hands", "of": "dealer", "seen-by": "everyone", "clause": "deal"}   # a probe's own entry
PROBES.update({
    "leadRule.id": Refused("euchre", put("hand.play.lead.0.id", "lone"), "no element with id 'alone'", source=True),
    "cardSet.trumps": Plays("ecarte", drop("hand.king-marked.eligible.holds.of.trumps")),
    "condition.reneged": Plays("euchre", put("hand.renege-claim.eligible", {"not": {"reneged": True}}), options=RENEGE),
    "condition.renege-claimed": Plays("euchre", put("scoring.rows.renege-by-makers.award.0.points", 5),
                                      base=put("scoring.rows.renege-by-makers.when", {"renege-claimed": "both"}),
                                      options=RENEGE),
    "condition.stood": Plays("ecarte", put("scoring.rows.point.award.1.when", {"self-tricks": [3, 4], "stood": "self"})),
    "step.exchange.proposer-at-least": Plays("ecarte", put("hand.proposal.exchange.proposer-at-least", 2)),
    "step.exchange.responder-at-least": Plays("ecarte", put("hand.proposal.exchange.responder-at-least", 1)),
    "step.exchanges": Plays("ecarte", put("hand.proposal.exchanges", 1)),
    "step.proposer": Plays("ecarte", put("hand.proposal.proposer", "dealer")),
    "step.responder": Plays("ecarte", put("hand.proposal.responder", "eldest")),
    "step.points": Plays("ecarte", put("hand.king-marked.points", 3)),
    "step.low-no-trump": Plays("euchre", put("hand.round-2.low-no-trump", True)),
    "step.renege": Plays("euchre", put("hand.play.renege", "allowed")),
    "step.may-trump": Plays("spoil-five", put("hand.play.may-trump", "when-void")),
    "step.privileged-trumps": Plays("spoil-five", drop("hand.play.privileged-trumps")),
    "ranking.top-trumps": Plays("spoil-five", put("ranking.top-trumps", [{"rank": "5"}, {"rank": "J"}])),
    "top-trump.rank": Plays("spoil-five", put("ranking.top-trumps.0.rank", "4"), base=drop("ranking.colour-orders.trump")),
    "top-trump.card": Plays("spoil-five", put("ranking.top-trumps.2.card", "AD")),
    "ranking.colour-orders.plain": Plays("spoil-five", put("ranking.colour-orders.plain.black",
                                                           ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"])),
    "ranking.colour-orders.trump": Plays("spoil-five", put("ranking.colour-orders.trump.black",
                                                           ["2", "3", "4", "6", "7", "8", "9", "T", "Q", "K", "A"])),
    "step.decision": Plays("pepper", put("hand.play-or-fold.decision", "unanimous")),
    "step.give-count": Plays("pepper", put("hand.pepper-best-card.give-count", 2)),
    "step.give-order": Plays("pepper", put("hand.pepper-best-card.give-order", "discard-first")),
    "step.rounds": Plays("five-hundred", put("hand.auction.rounds", 1)),
    # Scores in halves play as the same integers (that is the representation); what changes is
    # what the players are told, and what validate refuses where no half can arise.
    "scoring.unit": Shown("euchre", put("scoring.unit", "half"), "scores are kept in half points"),
    "condition.conceded": Refused("pepper", put("scoring.rows.folded.when.conceded", "makers"),
                                  "no scoring row scores a hand the defenders concede"),
    "condition.forced-contract": Plays("double-hasenpfeffer", put("scoring.rows.forced-set.when.forced-contract", False)),
    "step.stuck-from": Plays("napoleon", put("hand.bidding.stuck-from", "3"), options={"all-pass": "dealer-must-bid"}),
    "step.trumps-by": Refused("euchre", put("hand.play.trumps-by", "first-lead"), "the first lead never fixes them"),
    "step.all-sit-out": Plays("five-card-loo", put("hand.play.all-sit-out", "void-same-dealer"),
                              base=lambda t: t["hand"].insert(1, copy.deepcopy(THROW_UP))),
    "step.partner-winning-frees": Plays("euchre", put("hand.play.partner-winning-frees", ["trump"]),
                                        base=put("hand.play.must", ["trump"])),
    "option.trickster.name": Meta("the name of the Trickster Cards setting an option stands for, shown on the "
                                  "site's Trickster page", lambda: _trickster_page_names_it()),
    "option.trickster.value-on": Refused("euchre", put(f"{STD}.trickster.value-on", "sometimes"),
                                         "is not a value of option stick-the-dealer", source=True),
    # who sees what (euchre's entries: 0 hands, 1 upcard, 2 discards, 3 kitty, 4 passed, 5 tricks)
    "visibility": Sees("euchre", put("visibility", [{"zone": "hands", "seen-by": "everyone", "clause": "deal"}])),
    "visibility.zone": Sees("euchre", put("visibility.1.zone", "hands")),           # every hand face up
    "visibility.seen-by": Sees("euchre", put("visibility.0.seen-by", "everyone")),
    "visibility.seen-by.seats": Sees("euchre", put("visibility.0.seen-by", {"seats": [0]}),
                                     base=put("visibility.0.seen-by", {"seats": [1]})),
    "visibility.of": Sees("euchre", put("visibility.6.of", "eldest"), base=add("visibility", [VISIBLE_DEALER])),
    "visibility.from": Sees("euchre", put("visibility.6.from", "bidding-over"),
                            base=add("visibility", [dict(VISIBLE_DEALER, **{"from": "hand-end"})])),
    "visibility.when": Sees("euchre", put("visibility.6.when", {"alone": False}),
                            base=add("visibility", [dict(VISIBLE_DEALER, of="maker", when={"alone": True})])),
    "visibility.id": Refused("five-hundred", put("visibility.open-misere-hand.id", "open-hand"),
                             "no element with id 'open-misere-hand'", source=True),
    "visibility.clause": Refused("euchre", put("visibility.0.clause", "no-such-clause"), "no clause 'no-such-clause'"),
    "visibility.source": Refused("euchre", put("visibility.4.source", "no-such-source"), "unknown source 'no-such-source'"),
    "visibility.note": Shown("euchre", put("visibility.4.note", SENTINEL), SENTINEL),
    "option.trickster.value-off": Refused("euchre", put(f"{STD}.trickster.value-off", "sometimes"),
                                          "is not a value of option stick-the-dealer", source=True),
})


# -- values: each value of an enumerated property where tables use it ---------------------------------
def enum_values(key: str) -> list[Any]:
    """The values the schema lists for a property (through a `$ref` and a `oneOf`)."""
    defs = load_schema("variant.schema.json")["$defs"]
    node = schema_properties()[key]
    seen: list[Any] = []
    pending = [node]
    while pending:
        part = pending.pop(0)
        if "$ref" in part:
            pending.append(defs[part["$ref"].split("/")[-1]])
        seen += part.get("enum", [])
        pending += part.get("oneOf", []) + part.get("anyOf", [])
    return seen


VALUE_WALK: list[tuple[str, str, str]] = [        # (variant, where in its table, the schema property)
    ("euchre", "hand.round-2.stuck", "step.stuck"), ("euchre", "hand.round-1.from", "step.from"),
    ("euchre", "hand.going-alone.to", "step.to"), ("euchre", "hand.defending-alone.to.from", "queue.from"),
    ("euchre", "hand.defending-alone.to.seats", "queue.seats"), ("buck-euchre", "hand.stay-or-drop.to.seats", "queue.seats"),
    ("euchre", "hand.dealer-pickup.takes.0.who", "take.who"), ("euchre", "hand.play.lead.1.seat", "leadRule.seat"),
    ("euchre", "hand.going-alone.effect", "step.effect"),
    ("euchre", "scoring.rows.made.award.0.to", "award.to"), ("call-ace", "scoring.rows.march.award.0.to", "award.to"),
    ("buck-euchre", "scoring.rows.made.award.1.when.self", "condition.self"),
    ("euchre", "scoring.rows.made.when.maker", "condition.maker"), ("call-ace", "scoring.rows.made.when.partner", "condition.partner"),
    ("euchre", "scoring.rows.made.when.contract", "condition.contract"), ("ecarte", "scoring.rows.point.award.1.when.stood", "condition.stood"),
    ("euchre", "players.sides", "players.sides"), ("buck-euchre", "players.sides", "players.sides"),
    ("euchre", "game.first-dealer", "game.first-dealer"), ("five-hundred", "hand.no-bid.trumps", "step.trumps"),
    ("five-hundred", "hand.auction.bids.6S.strain", "bid.strain"), ("five-hundred", "hand.auction.turns", "step.turns"),
    ("buck-euchre", "hand.stay-or-drop.stop", "step.stop"), ("euchre", "hand.throw-in.next-dealer", "step.next-dealer"),
    ("three-hand-dummy", "hand.exchange.takes.0.from", "take.from"), ("euchre", "game.direction", "game.direction"),
    ("five-hundred", "ranking.no-trump.master-play", "ranking.no-trump.master-play"),
    ("euchre", "hand.round-2.turned-down", "step.turned-down"), ("euchre", "hand.play.renege", "step.renege"),
    ("spoil-five", "hand.play.may-trump", "step.may-trump"),
    ("pepper", "hand.play-or-fold.decision", "step.decision"), ("pepper", "scoring.rows.folded.when.conceded", "condition.conceded"),
    ("pepper", "hand.play-or-fold.effect", "step.effect"),
    ("pepper", "hand.pepper-best-card.give-order", "step.give-order"),
]

# A value that plays as the table's own does here, and why that is right (not silent).
SAME_HERE = {
    ("euchre", "hand.defending-alone.to.from", "maker"): "the defenders asked from the maker start at the maker's left",
    ("euchre", "hand.defending-alone.to.seats", "others"): "with the maker alone, his partner sits out: the others are the defenders",
    ("buck-euchre", "hand.stay-or-drop.to.seats", "defenders"): "each plays alone: the defenders are all but the maker",
    ("euchre", "scoring.rows.made.award.0.to", "maker"): "in teams the maker's unit is the makers'",
    ("call-ace", "scoring.rows.march.award.0.to", "partner"): "the march row is reached only with a called partner "
                                                              "(lone-march scores the rest), who is the maker's side",
    ("buck-euchre", "scoring.rows.made.award.1.when.self", "not-maker"): "the award is for a seat that took no trick, never "
                                                                        "the maker of a contract made",
    ("buck-euchre", "scoring.rows.made.award.1.when.self", "defender"): "as not-maker: each plays alone, every other seat defends",
    ("call-ace", "scoring.rows.made.when.partner", "called"): "the rows before it score every hand without a called partner",
    ("euchre", "scoring.rows.made.when.contract", "any"): "every hand of Euchre that is scored has a maker",
    ("buck-euchre", "players.sides", "maker-against-rest"): "Buck Euchre scores each seat's own tricks: the sides change "
                                                            "only `defenders` awards and partners' play rules, which it has none of",
    ("euchre", "game.direction", "up"): "up is the default",
    ("pepper", "hand.pepper-best-card.give-order", "receive-first"): "receive-first is the default",
    ("euchre", "hand.play.renege", "forbidden"): "forbidden is the default",
}


@pytest.mark.parametrize("variant, where, key", VALUE_WALK, ids=[f"{v}:{w}" for v, w, _ in VALUE_WALK])
def test_every_value_plays_or_is_refused(variant, where, key, tmp_path):
    """Each value the schema allows for the property, put where the table uses it: refused
    at its line, or played differently from the table's own value (or the same for a reason
    written in SAME_HERE)."""
    table = resolve(variant).table
    try:
        own = _at(table, where.split("."))
    except (KeyError, IndexError, StopIteration):
        own = None
    values = [v for v in enum_values(key) if v != own]
    assert values, f"{key}: no values to try"
    base = rules_of(standalone(variant, {}, same, tmp_path / "base"))
    silent = []
    for n, value in enumerate(values):
        path = standalone(variant, {}, put(where, value), tmp_path / str(n))
        problems = variant_problems(path)
        if problems:
            assert all(p.file == str(path) and p.line for p in problems), problems
            continue
        if first_difference(base, rules_of(path), None) is None and (variant, where, value) not in SAME_HERE:
            silent.append(value)
    assert not silent, f"{key} at {variant}:{where}: accepted and played as {own!r}: {silent}"


# -- the tests ----------------------------------------------------------------------------------------
def source_file(variant: str, edit: Edit, folder: Path) -> Path:
    """The variant's own file (options and all), changed by ``edit``."""
    from reference_impl.catalog import variant_path
    data = copy.deepcopy(_parsed(variant_path(variant).read_text(encoding="utf-8")))     # each probe edits its copy
    edit(data)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{variant}.yaml"
    path.write_text(dumped(data), encoding="utf-8")
    return path


def _accepts(path: Path, selection: dict) -> bool:
    try:
        resolve_file(path, selection)
    except SpecError:
        return False
    return True


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch):
    monkeypatch.setenv("EUCHRE_SPEC_CACHE", "off")


def test_every_property_of_the_schema_has_a_probe():
    """A property added to the schema needs a probe here: proof that it plays, or a refusal."""
    missing = sorted(set(schema_properties()) - set(PROBES))
    assert not missing, "schema properties with no probe (add one to PROBES): " + ", ".join(missing)


def _run(key: str, probe: Any, tmp_path: Path, monkeypatch) -> None:
    if isinstance(probe, Plays):
        if probe.source:
            before = source_file(probe.variant, probe.base, tmp_path / "before")
            after = source_file(probe.variant, edits(probe.base, probe.edit), tmp_path / "after")
            one, other = Rules(resolve_file(before, probe.options)), Rules(resolve_file(after, probe.options))
        else:
            before = standalone(probe.variant, probe.options, probe.base, tmp_path / "before")
            after = standalone(probe.variant, probe.options, edits(probe.base, probe.edit), tmp_path / "after")
            one, other = rules_of(before), rules_of(after)
        assert first_difference(one, other, probe.scores) is not None, (
            f"{key}: the change plays exactly as the unchanged table ({probe.variant}): silent data")
    elif isinstance(probe, Sees):
        one = rules_of(standalone(probe.variant, {}, probe.base, tmp_path / "before"))
        other = rules_of(standalone(probe.variant, {}, edits(probe.base, probe.edit), tmp_path / "after"))
        assert first_difference(one, other, None, seat_views) is not None, (
            f"{key}: every seat sees exactly what it sees with the unchanged table ({probe.variant}): silent data")
    elif isinstance(probe, Refused):
        maker = source_file if probe.source else None
        path = (source_file(probe.variant, probe.edit, tmp_path) if maker
                else standalone(probe.variant, probe.options, probe.edit, tmp_path))
        problems = variant_problems(path)
        assert problems, f"{key}: the changed table is accepted (it should be refused: {probe.says})"
        found = [p for p in problems if probe.says in p.message]
        assert found, f"{key}: refused, but not for the reason expected ({probe.says!r}): {problems}"
        assert all(p.file == str(path) and p.line for p in found), f"{key}: not at the table's own line: {found}"
    elif isinstance(probe, Chooses):
        before = source_file(probe.variant, same, tmp_path / "before")
        after = source_file(probe.variant, probe.edit, tmp_path / "after")
        assert _accepts(before, probe.selection) != _accepts(after, probe.selection), (
            f"{key}: the change does not change which options may be chosen")
    elif isinstance(probe, ChildChooses):
        before = child_file(tmp_path / "before", probe.variant, "")
        after = child_file(tmp_path / "after", probe.variant, probe.body)
        assert _accepts(before, probe.selection) != _accepts(after, probe.selection), (
            f"{key}: the change does not change which options may be chosen")
    elif isinstance(probe, ChildPlays):
        one = rules_of(child_file(tmp_path / "one", probe.variant, probe.body))
        other = rules_of(child_file(tmp_path / "other", probe.other, probe.other_body))
        assert first_difference(one, other, None) is not None, f"{key}: the two children play alike"
    elif isinstance(probe, ClausesDiffer):
        before = source_file(probe.variant, same, tmp_path / "before")
        after = source_file(probe.variant, probe.edit, tmp_path / "after")
        ids = [[c["id"] for c in resolve_file(p, probe.options).table["clauses"]] for p in (before, after)]
        assert ids[0] != ids[1], f"{key}: the clauses stated are the same"
    elif isinstance(probe, Shown):
        path = (source_file(probe.variant, probe.edit, tmp_path) if probe.source
                else standalone(probe.variant, probe.options, probe.edit, tmp_path))
        assert probe.text in page_of(path, monkeypatch), f"{key}: the page does not show the table's words"
    elif isinstance(probe, Meta):
        if probe.check is not None:
            probe.check()
    else:                                   # pragma: no cover
        raise AssertionError(f"{key}: unknown probe {probe!r}")


@pytest.mark.parametrize("key", sorted(PROBES))
def test_no_silent_data(key, tmp_path, monkeypatch):
    """Changing this property changes play, or is refused at the table's line (see the module)."""
    _run(key, PROBES[key], tmp_path, monkeypatch)



def test_the_walk_goes_red_when_a_property_is_ignored(tmp_path, monkeypatch):
    """The walk can fail: with the interpreter ignoring `stuck` on an order round again (as it
    did before issue 30: the stuck dealer could pass), the probe of `step.stuck` reports it."""
    from reference_impl import state as state_module
    from reference_impl.step_kinds.common import M_MAKE
    honoured = state_module._LEGAL[M_MAKE]

    def ignoring_stuck_when_ordering(state: State) -> list[str]:
        return ["pass", "order"] if state.step.order else honoured(state)
    monkeypatch.setitem(state_module._LEGAL, M_MAKE, ignoring_stuck_when_ordering)
    with pytest.raises(AssertionError, match="silent data"):
        _run("step.stuck", PROBES["step.stuck"], tmp_path, monkeypatch)


# -- the tables of issue 30, played or refused as written ---------------------------------------------
def _first_hand(rules: Rules, dealer: int = 0) -> State:
    state = new_game(rules, dealer=dealer)
    order = sorted(rules.card_names)
    random.Random(30).shuffle(order)
    state.deal(rules.deal_from_order(order, dealer))
    return state


def test_a_dealer_stuck_in_the_first_round_must_order_up(tmp_path):
    rules = rules_of(standalone("euchre", {}, STUCK_IN_ROUND_1, tmp_path))
    state = _first_hand(rules, dealer=0)
    for seat in (1, 2, 3):
        assert state.phase == "bid-round-1" and state.to_act == seat and "pass" in state.legal_actions()
        state.apply("pass")
    assert (state.to_act, state.legal_actions()) == (0, ["order"])


ROUND_0 = {"id": "round-0", "kind": "make-trumps", "phase": "bid-round-0", "from": "eldest", "action": "call",
           "turned-down": "allowed", "no-trump": False, "clause": "round-1"}


def _insert_round_0(t: dict) -> None:
    at = next(i for i, s in enumerate(t["hand"]) if s["id"] == "round-1")
    t["hand"].insert(at, copy.deepcopy(ROUND_0))


def test_a_round_added_before_the_first_keeps_the_pickup_and_the_canadian_loner_on_it(tmp_path):
    """A bidding round added before the upcard's round: the dealer still takes the upcard when
    it is ordered up, and the dealer's partner who orders it is still a Canadian loner; a count
    of rounds would have moved both to the new round."""
    rules = rules_of(standalone("euchre", {"canadian-loner": True}, _insert_round_0, tmp_path / "a"))
    state = _first_hand(rules, dealer=0)
    for _ in range(4):
        assert state.phase == "bid-round-0"
        state.apply("pass")
    assert state.phase == "bid-round-1" and state.to_act == 1
    state.apply("order")                                # the eldest orders: the dealer takes the upcard
    while state.phase == "alone":
        state.apply("pass")
    assert (state.phase, state.to_act) == ("discard", 0), state.phase
    canadian = _first_hand(rules, dealer=0)
    for _ in range(5):                                  # round 0, then the eldest in round 1
        canadian.apply("pass")
    canadian.apply("order")                             # the dealer's partner orders up
    assert canadian.alone and canadian.maker == 2, canadian.observation()


def test_variants_lists_the_good_tables_and_names_the_bad_one(tmp_path):
    folder = tmp_path / "mine"
    child_file(folder, "euchre", "option-defaults: {game-target: 7}\n", name="kitchen")
    (folder / "broken.yaml").write_text("id: broken\ntitle: Broken\nsummary: x\nsources: {h: {title: h, kind: house}}\n"
                                        "extends: euchre\nplayers: {count: 99}\n")
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "variants"], capture_output=True, text=True,
                            timeout=300, env={**os.environ, "EUCHRE_SPEC_PATH": str(folder), "COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    assert "kitchen" in result.stdout and "euchre" in result.stdout and "broken" not in result.stdout
    assert f"broken is not listed, its table is refused: {folder / 'broken.yaml'}:6: $.players.count" in result.stderr


def test_a_clause_a_child_removes_is_not_on_its_page(tmp_path, monkeypatch):
    """The site is written from resolved tables: a child that removes an inherited clause has
    a page without it, its parent's page keeping it."""
    title = next(c["title"] for c in resolve("two-hand").table["clauses"] if c["id"] == "left-bower-is-trump")
    path = child_file(tmp_path, "two-hand", "remove: [clauses.left-bower-is-trump]\n")
    assert variant_problems(path) == []
    assert title not in page_of(path, monkeypatch)
    assert title in page_of(child_file(tmp_path / "parent", "two-hand", "", name="unchanged"), monkeypatch)


@pytest.mark.parametrize("variant, edit, where", [
    ("buck-euchre", put("hand.round-2.stuck", "dealer-partner"), "$.hand[2].stuck"),
    ("three-hand-dummy", put("hand.play.lead.0.seat", "maker-partner"), "$.hand[5].lead[0].seat"),
    ("six-hand", put("hand.dealer-pickup.takes.0.who", "dealer-partner"), "$.hand[5].takes[0].who"),
    ("buck-euchre", put("scoring.rows.made.award.1.when", {"self": "dealer-partner"}), "$.scoring.rows[1].award[1].when.self"),
])
def test_a_partners_seat_where_there_are_no_teams_of_two_is_refused(variant, edit, where, tmp_path):
    """A value the schema accepts but that names no seat in this table (the seat opposite,
    with no partners or teams of three): the rule would bind no one, so it is refused."""
    path = standalone(variant, {}, edit, tmp_path)
    problems = variant_problems(path)
    found = [p for p in problems if "has no teams of two" in p.message]
    assert found and (found[0].path, bool(found[0].line)) == (where, True), problems


@pytest.mark.parametrize("variant, edit, where, says", [
    ("euchre", put("scoring.rows.made.award.0.to", "partner"), "$.scoring.rows[6].award[0].to", "called partner"),
    ("euchre", put("scoring.rows.made.when", {"maker-tricks": [3, 4], "partner": "none"}),
     "$.scoring.rows[6].when.partner", "called partner"),
    ("euchre", put("hand.play.lead.1.seat", "defender-alone"), "$.hand[7].lead[1].seat", "defender-alone names no seat"),
    ("euchre", put("hand.dealer-pickup.takes.0.who", "defender-alone"), "$.hand[6].takes[0].who",
     "defender-alone names no seat"),
])
def test_a_seat_that_is_not_there_is_refused(variant, edit, where, says, tmp_path):
    """Values the schema accepts that name no one in the hand: an award or condition about a
    called partner in a game without one (it went to no one, or never changed), a lone
    defender's seat where no one may be defending alone (the hand stopped there)."""
    path = standalone(variant, {}, edit, tmp_path)
    found = [p for p in variant_problems(path) if says in p.message]
    assert found and (found[0].path, bool(found[0].line)) == (where, True), found


def test_a_lone_defenders_seat_guarded_by_its_condition_is_accepted(tmp_path):
    """(In four-handed Euchre the lone defender then leads exactly as the maker's left would:
    the seat that sits out passes the lead on to him.)"""
    lead = [{"when": {"defender-alone": True}, "seat": "defender-alone"}, {"when": {"alone": True}, "seat": "maker-left"},
            {"seat": "eldest"}]
    assert variant_problems(standalone("euchre", {}, put("hand.play.lead", lead), tmp_path)) == []


# -- step placement: no step a table writes is passed over without validate refusing it -----------
def _sample_steps() -> dict[str, dict]:
    """One step of each kind, as a table of the catalogue writes it (its clause left out)."""
    from reference_impl.catalog import variant_ids
    samples: dict[str, dict] = {}
    for variant in variant_ids():
        for step in resolve(variant).table["hand"]:
            if step["kind"] not in samples:
                sample = {k: v for k, v in step.items() if k != "clause"}
                samples[step["kind"]] = dict(sample, id="placed", phase="placed")
    # Buck Euchre's clubs-turned rule would say again what Loo's upcard already does: a step
    # that runs and repeats the table (not one passed over); no-trumps shows either way.
    samples["set-trumps"] = {"id": "placed", "kind": "set-trumps", "trumps": "NT"}
    return samples


SAMPLES = _sample_steps()
# Before and after an unconditional set-trumps (Loo), before the bidding (Euchre), after a
# set-trumps with a condition (Buck Euchre's clubs turned).
HOSTS = [("five-card-loo", 0), ("five-card-loo", 1), ("euchre", 0), ("buck-euchre", 1)]
PLACEMENTS = [(kind, host, at) for kind in sorted(SAMPLES) for host, at in HOSTS]


def _placed(kind: str, at: int) -> Edit:
    def run(t: dict) -> None:
        step = copy.deepcopy(SAMPLES[kind])
        if kind in ("set-trumps", "throw-in", "force-bid"):      # kinds that wait for no one have no phase
            step.pop("phase", None)
        step.setdefault("clause", "deal")        # stated by a clause (a step without one is refused)
        t["hand"].insert(at, step)
    return run


def test_every_step_kind_has_a_sample():
    from reference_impl.steps import KINDS
    assert set(SAMPLES) == set(KINDS), sorted(set(KINDS) - set(SAMPLES))


@pytest.mark.parametrize("kind, host, at", PLACEMENTS, ids=[f"{k}@{h}:{a}" for k, h, a in PLACEMENTS])
def test_a_step_placed_anywhere_plays_or_is_refused(kind, host, at, tmp_path):
    """A step of each kind put before or after a hand's `set-trumps` (trumps with no maker),
    and before the bidding: the table is refused at a line, or plays differently from the
    table without it. (Before issue 37 an exchange after `set-trumps` was accepted and never
    offered.)"""
    base = rules_of(standalone(host, {}, same, tmp_path / "base"))
    path = standalone(host, {}, _placed(kind, at), tmp_path / "placed")
    problems = variant_problems(path)
    if problems:
        assert all(p.file == str(path) and p.line for p in problems), problems
        return
    assert first_difference(base, rules_of(path), None) is not None, (
        f"a {kind} step at {host}:hand[{at}] is accepted and never changes the play: silent data")


def test_the_dealer_takes_the_upcard_after_set_trumps(tmp_path):
    """The issue's table: trumps turned with no maker, then the dealer may take the upcard."""
    take = {"id": "dealer-pickup", "kind": "exchange", "takes": [{"who": "dealer", "from": "upcard", "optional": True}],
            "clause": "deal"}
    rules = rules_of(standalone("five-card-loo", {}, lambda t: t["hand"].insert(1, take), tmp_path))
    state = _first_hand(rules, dealer=0)
    assert (state.phase, state.to_act, state.legal_actions()) == ("take-offer", 0, ["pass", "take"])
    upcard = rules.card_names[state.upcard]
    state.apply("take")
    assert state.phase == "discard" and f"discard:{upcard}" in state.legal_actions()


def test_a_maker_step_with_no_maker_is_refused(tmp_path):
    """After trumps set with no maker no seat is the maker: a take by the maker is refused at
    its line (it would be passed over every hand)."""
    take = {"id": "widow", "kind": "exchange", "takes": [{"who": "maker", "from": "upcard"}]}
    path = standalone("five-card-loo", {}, lambda t: t["hand"].insert(1, take), tmp_path)
    found = [p for p in variant_problems(path) if "no step before it makes a maker" in p.message]
    assert found and found[0].path == "$.hand[1].takes[0].who" and found[0].line, found


def _all_out_rules(tmp_path: Path, rule: str | None) -> Rules:
    def edit(t: dict) -> None:
        t["hand"].insert(1, copy.deepcopy(THROW_UP))
        if rule:
            t["hand"][-1]["all-sit-out"] = rule
    return rules_of(standalone("five-card-loo", {}, edit, tmp_path))


@pytest.mark.parametrize("rule, next_dealer", [(None, 1), ("void-deal-passes", 1), ("void-same-dealer", 0)])
def test_a_hand_every_seat_sits_out_of_is_void(rule, next_dealer, tmp_path):
    """Every seat throws up its hand: the hand is void (nothing scored) and dealt again, by the
    next dealer unless the play step says the same one (before issue 37 the play spun for ever)."""
    rules = _all_out_rules(tmp_path, rule)
    state = _first_hand(rules, dealer=0)
    for seat in (1, 2, 3, 4, 0):
        assert (state.phase, state.to_act) == ("throw-up", seat)
        state.apply("drop")
    assert state.is_chance_node() and state.dealer == next_dealer and state.hand_number == 1
    assert state.scores == [0] * 5 and ("throw-in", 1) in state.events


def test_no_one_left_to_play_raises_rather_than_spins(tmp_path):
    """The interpreter's own bound: a hand reaching the play with no seat in it (which the
    play step's rule prevents) raises a clear error instead of looping."""
    from reference_impl.errors import SpecError
    from reference_impl.step_kinds.play import next_active
    rules = _all_out_rules(tmp_path, None)
    state = _first_hand(rules, dealer=0)
    state.active = 0
    with pytest.raises(SpecError, match="no seat is left to play"):
        next_active(state, 0)


def test_all_sit_out_without_a_sit_out_offer_is_refused(tmp_path):
    path = standalone("five-card-loo", {}, put("hand.play.all-sit-out", "void-same-dealer"), tmp_path)
    found = [p for p in variant_problems(path) if "no seat can sit out" in p.message]
    assert found and found[0].path == "$.hand[1].all-sit-out" and found[0].line, found


def test_the_placement_walk_goes_red_when_a_step_is_passed_over(monkeypatch, tmp_path):
    """The walk can fail: with the interpreter passing over an exchange in a hand with no maker
    again (the defect of issue 37), the exchange placed after Loo's set-trumps is reported."""
    from reference_impl import state as state_module
    from reference_impl.steps import EXCHANGE
    honoured = state_module._BEGIN[EXCHANGE]

    def skipped_without_a_maker(state: State, step) -> bool:
        return False if state.maker < 0 else honoured(state, step)
    monkeypatch.setitem(state_module._BEGIN, EXCHANGE, skipped_without_a_maker)
    monkeypatch.setitem(SAMPLES, "exchange", {"id": "placed", "kind": "exchange",
                                              "takes": [{"who": "dealer", "from": "upcard", "optional": True}]})
    with pytest.raises(AssertionError, match="silent data"):
        test_a_step_placed_anywhere_plays_or_is_refused("exchange", "five-card-loo", 1, tmp_path)
