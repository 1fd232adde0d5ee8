"""An EGN record as a conformance case: one multi-hand case per game.

The case's variant is ``euchre`` with every option that an EGN flag reads set explicitly
(:mod:`.ruleset`); its hands are the record's deals, filled where the record is silent
(:mod:`.replay`, which lists what it filled: the description repeats it); its steps are
every call, lone call, lone defence, discard, card passed and card played; its expectations
(trick winners, hand points, scores, the dealer of the next hand, the game's end) come from
the reference interpreter, except the final score, which the record states when it has
``finalScore`` and which the replay checked.

A defective record (see :mod:`.check`) becomes a case that says where a conforming engine
must fail (``expected_failure``), or whose deals after the game's end must be refused
(``deal_reject``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from ..cases import load_corpus_meta
from reference_impl.errors import Problem

from .record import EgnUnsupported, Record, read_record
from .replay import (AFTER_END, BAD_CARD, BAD_DEAL, CUT_SHORT, DEALT_TWICE, EXTRA_PLAY, ILLEGAL, NOT_HELD, REVOKE,
                     SCORE, TRICK_SIZE, UPCARD_PLAYED, WRONG_DEALER, GameReplay, replay_game)
from .ruleset import VARIANT, Unmappable, noted_options, record_options, rules_for
from .upgrade import compare_with_replay

IMPORTER = "euchre-spec egn import 1"

# Clauses a defect's case cites first, in order of preference; only those the resolved
# table has are used (each is checked against the table's anchors).
DEFECT_CLAUSES = {
    REVOKE: ["follow-suit"],
    DEALT_TWICE: ["deal", "deck"],
    NOT_HELD: ["follow-suit", "deal"],
    UPCARD_PLAYED: ["dealer-pickup", "upcard"],
    TRICK_SIZE: ["trick-winner", "players"],
    EXTRA_PLAY: ["trick-winner", "throw-in", "stick-the-dealer"],
    BAD_CARD: ["deck", "deck-28", "deck-32"],
    BAD_DEAL: ["deal"],
    WRONG_DEALER: ["game-target", "deal"],
    CUT_SHORT: ["trick-winner"],
    AFTER_END: ["game-target", "fixed-deals"],
    SCORE: ["game-target"],
}
# Features of the replay -> tags of the corpus's vocabulary (used only where it has them).
FEATURE_TAGS = {"exchange": "exchange", "buried-upcard": "exchange", "going-alone": "going-alone",
                "defending-alone": "defending-alone", "railroading": "railroading", "benny": "benny",
                "stick-the-dealer": "stick-the-dealer", "throw-in": "throw-in", "trick": "trick-winner",
                "scoring": "scoring", "game-end": "game-end"}


def load_game(path: str | Path) -> GameReplay:
    """Read, map and replay one EGN file (JSON or binary, any version). Raises
    :class:`~.record.EgnInvalid` or :class:`~.record.EgnUnsupported` (a flag without an
    option names the flag)."""
    return replay_record(read_record(path), path)


def replay_record(record: Record, path: str | Path) -> GameReplay:
    """Map and replay one game already read (a file's, or one of a match's)."""
    try:
        options = record_options(record)
    except Unmappable as exc:
        raise EgnUnsupported([Problem(str(path), "$.metadata.ruleset", str(exc))]) from None
    noted, ignored = noted_options(record.description)
    options.update(noted)
    try:
        rules = rules_for(options)
    except Unmappable as exc:
        raise EgnUnsupported([Problem(str(path), "$.metadata", str(exc))]) from None
    game = replay_game(record, rules)
    game.options = options
    if noted:
        game.notes.insert(0, "Options EGN has no flag for, from the record's description (written by euchre-spec): "
                             + ", ".join(f"{k}={v}" for k, v in noted.items()) + ".")
    if ignored:
        game.notes.insert(0, f"Not used from the record's euchre-spec options note: {', '.join(ignored)}.")
    if record.upgraded is not None:
        upcards = [hand.deal.upcard for hand in game.hands]
        game.redundant = compare_with_replay(record.upgraded, game.hands, upcards)
        game.notes.insert(0, f"Read as {record.reading()}.")
    return game


def case_id(path: str | Path) -> str:
    """``egn-`` and the file's name as a slug (``Six Points.egn`` -> ``egn-six-points``); a binary
    record keeps its form in the id (``Six Points.egnb`` -> ``egn-six-points-egnb``), so that a
    record and its binary form, which give the same case, can be imported side by side."""
    name = Path(path).name.lower()
    stem = name if name.endswith(".egnb") else Path(name).stem
    slug = re.sub(r"[^a-z0-9]+", "-", stem).strip("-") or "game"
    return f"egn-{slug}"


def _clauses(game: GameReplay) -> list[str]:
    table = game.rules.table
    anchors = {c["id"] for c in table.get("clauses", [])}
    replaced = {c["replaces"]: c["id"] for c in table.get("clauses", []) if "replaces" in c}
    ordered: list[str] = []
    if game.defect is not None:
        hand = game.hands[-1] if game.hands else None
        preferred = list(DEFECT_CLAUSES.get(game.defect.kind, []))
        if game.defect.kind == ILLEGAL and hand is not None and hand.clauses:
            preferred = [hand.clauses[-1]] + preferred
        ordered += [c for c in preferred if replaced.get(c, c) in anchors][:1]
    for hand in game.hands:
        ordered += hand.clauses
    ordered += ["round-1", "deal"]            # every case deals and bids (kept only where the table has them)
    out: list[str] = []
    for clause in ordered:
        clause = replaced.get(clause, clause)
        if clause in anchors and clause not in out:
            out.append(clause)
    return out


def _tags(game: GameReplay, expected_failure: dict[str, Any] | None) -> list[str]:
    vocabulary = load_corpus_meta().tags
    wanted = ["egn", "bidding"]
    if len(game.hands) > 1:
        wanted.append("multi-hand")
    for hand in game.hands:
        wanted += [FEATURE_TAGS[f] for f in sorted(hand.features) if f in FEATURE_TAGS]
        if any(step["action"] == "call:NT" for step in hand.steps):
            wanted.append("no-trump")
        if any(step["action"].startswith("play:") for step in hand.steps):
            wanted.append("follow-suit")
        if hand.deal_reject:
            wanted.append("negative")
    if expected_failure is not None:
        wanted.append("negative")
    out: list[str] = []
    for tag in wanted:
        if tag in vocabulary and tag not in out:
            out.append(tag)
    return out


def _hand_entry(hand, rules) -> dict[str, Any]:
    deal = hand.deal
    entry: dict[str, Any] = {"deal": {"hands": [" ".join(h) for h in deal.hands], "upcard": deal.upcard}}
    if deal.kitty:
        entry["deal"]["kitty"] = " ".join(deal.kitty)
    if hand.deal_reject:
        entry["deal_reject"] = hand.deal_reject
        entry["steps"] = []
        return entry
    if hand.after_deal:
        entry["after_deal"] = dict(hand.after_deal)
    entry["steps"] = [dict(step) for step in hand.steps]
    if hand.expect:
        entry["expect"] = dict(hand.expect)
    return entry


def expected_failure(game: GameReplay) -> dict[str, Any] | None:
    """Where a conforming engine must fail on this record's case (None for a sound record,
    or for a defect no engine can be shown)."""
    d = game.defect
    if d is None or d.kind in (AFTER_END, CUT_SHORT):
        return None
    reason = f"{d.kind}: {d.message}"
    if d.kind == SCORE:
        return {"hand": 0, "field": "scores", "reason": reason}
    hand = game.hands[-1] if game.hands else None
    if d.step is not None:
        out: dict[str, Any] = {"hand": d.deal, "step": d.step, "reason": reason}
        if d.field:
            out["field"] = d.field
        return out
    if d.field == "dealer":
        return {"hand": d.deal, "field": "dealer", "reason": reason}
    if hand is not None and hand.deal_refused:
        return {"hand": d.deal, "reason": reason}
    return None


def representable(game: GameReplay) -> bool:
    """Whether the record can be written as a case (its defect, if any, is one an engine can
    be shown: a refusal, a value that must differ, or a deal to refuse)."""
    return game.defect is None or game.defect.kind in (AFTER_END, CUT_SHORT) or expected_failure(game) is not None


def build_case(game: GameReplay, source: str | Path, case_name: str | None = None) -> dict[str, Any]:
    """The case of a replayed record (call :func:`representable` first for a defective one)."""
    record: Record = game.record
    rules = game.rules
    failure = expected_failure(game)
    hands = [_hand_entry(hand, rules) for hand in game.hands]
    setup: dict[str, Any] = {"dealer": record.deals[0].dealer if record.deals and record.deals[0].dealer < rules.n else 0}
    initial = list(record.initial_score) or [rules.start_score] * len(rules.units)
    if initial != [rules.start_score] * len(rules.units):
        setup["scores"] = initial
    case: dict[str, Any] = {
        "id": case_name or case_id(source),
        "title": f"EGN record: {record.name}"[:200],
        "description": describe(game, source),
        "variant": VARIANT,
        "options": dict(game.options),
        "clauses": _clauses(game),
        "tags": _tags(game, failure),
        "setup": setup,
        "hands": hands,
    }
    state = game.state
    if game.defect is None or game.defect.kind in (AFTER_END, SCORE):
        end: dict[str, Any] = {"scores": list(state.scores), "game_over": state.is_terminal()}
        if state.is_terminal():
            end["winner"] = state.winner
        if game.defect is not None and game.defect.kind == SCORE:
            end["scores"] = list(record.final_score or [])
        case["expect"] = end
    if failure is not None:
        case["expected_failure"] = failure
    return case


def describe(game: GameReplay, source: str | Path) -> str:
    record = game.record
    parts = [f"Imported from the EGN record {Path(source).name}"
             + (f" ({record.title})" if record.title else "")
             + f": {len(record.deals)} deal(s)"
             + (f", players by seat {json.dumps(record.players, ensure_ascii=False)}" if record.players else "") + "."]
    parts.append("Trick winners, hand points and scores come from the reference interpreter.")
    filled = []
    for position, hand in enumerate(game.hands, 1):
        if hand.notes:
            filled.append(f"deal {position}: " + "; ".join(hand.notes))
    if filled:
        parts.append("Not in the record, filled in (the lowest unseen cards in pack order, placed so that the play "
                     "stays legal; a choice the record does not make by a fixed rule): " + ". ".join(filled) + ".")
    parts.append("The kitty is never recorded: each deal's kitty holds the cards left over, in pack order"
                 " (cards taken from it first).")
    if record.final_score is not None and game.final_checked:
        parts.append(f"The record's final score {record.final_score} agrees with the replay.")
    parts += game.notes
    if not game.state.is_terminal() and game.defect is None:
        parts.append("The record stops before the game's end.")
    if game.defect is not None:
        parts.append(f"Defect ({game.defect.kind}, {game.defect.where()}): {game.defect.message}.")
        if game.defect.kind in (AFTER_END, CUT_SHORT):
            parts.append("An engine must refuse the deals that follow (wrong_phase).")
        else:
            parts.append("A conforming engine must fail where expected_failure says.")
    return " ".join(parts)


# -- writing ------------------------------------------------------------------------------------------
class _Flow(dict):
    """A mapping written on one line (each step)."""


class _Dumper(yaml.SafeDumper):
    pass


class _Folded(str):
    """A long text written as a folded block (``>``), as the hand-written cases have it."""


_Dumper.add_representer(_Folded, lambda dumper, data: dumper.represent_scalar("tag:yaml.org,2002:str", data, style=">"))
_Dumper.add_representer(_Flow, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data,
                                                                             flow_style=True))


def dump_case(case: dict[str, Any], source: str | Path) -> str:
    """The case as YAML, in the corpus's layout (one line per step)."""
    header = (f"# Imported from the EGN record {Path(source).name} by {IMPORTER}.\n"
              "# Expectations come from the reference interpreter (see the description for what was filled in).\n")
    data = dict(case)
    data["description"] = _Folded(data["description"])
    data["options"] = _Flow(data["options"])
    data["setup"] = _Flow(data["setup"])
    hands = []
    for hand in data["hands"]:
        hand = dict(hand)
        hand["steps"] = [_Flow(step) for step in hand["steps"]]
        for key in ("after_deal", "expect"):
            if key in hand:
                hand[key] = _Flow(hand[key])
        hands.append(hand)
    data["hands"] = hands
    if "expect" in data:
        data["expect"] = _Flow(data["expect"])
    if "expected_failure" in data:
        data["expected_failure"] = dict(data["expected_failure"])
    return header + yaml.dump(data, Dumper=_Dumper, sort_keys=False, default_flow_style=None, width=120,
                              allow_unicode=True)
