"""The corpus as the site needs it: every case, read quickly, and replayed on the reference
engine to learn what the script does (who won each trick, the score), for drawing.

Reading goes through libyaml when it is there: the corpus is checked case by case by the
corpus lint and the conformance run; here it only needs to be read, and fast, since the
site is built often. The replay speaks the engine protocol to the reference engine, exactly
as the runner does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml

from .. import CORPUS_DIR
from ..cases import CORPUS_FILE, case_files, resolved_table, split_cards
from reference_impl.resolve import ResolvedTable

from ..reference_engine import ReferenceEngine
from .tables import SiteError

try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader

NOT_HAND_WRITTEN = ("generated", "perft")


@dataclass
class SiteCase:
    id: str
    title: str
    variant: str
    options: dict[str, Any]
    clauses: list[str]
    tags: list[str]
    setup: dict[str, Any]
    hands: list[dict[str, Any]]
    expect: dict[str, Any]
    description: str
    file: Path
    rel: str                     # the file's path under the corpus directory
    generated: dict[str, Any] | None = None

    @property
    def hand_written(self) -> bool:
        return not any(tag in self.tags for tag in NOT_HAND_WRITTEN)

    def cited_clauses(self) -> list[str]:
        """The clause ids the case cites, in order: its ``clauses`` then every step's ``clause``."""
        out = list(dict.fromkeys(self.clauses))
        for hand in self.hands:
            for step in hand.get("steps", []):
                if step.get("clause") and step["clause"] not in out:
                    out.append(step["clause"])
        return out


def _deal(deal: dict[str, Any]) -> dict[str, Any]:
    out = dict(deal)
    if "hands" in out:
        out["hands"] = [split_cards(h) for h in out["hands"]]
    for key in ("widow", "kitty", "deck"):
        if key in out:
            out[key] = split_cards(out[key])
    return out


def _case(data: dict[str, Any], path: Path, root: Path) -> SiteCase:
    missing = [k for k in ("id", "title", "variant", "clauses", "hands") if k not in data]
    if missing:
        raise SiteError(f"{path}: a case without {', '.join(missing)}")
    setup = dict(data.get("setup") or {})
    if "first_dealer" in setup:
        setup["first_dealer"] = {**setup["first_dealer"], "cards": split_cards(setup["first_dealer"]["cards"])}
    try:
        rel = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        rel = path.name
    return SiteCase(
        id=data["id"], title=data["title"], variant=data["variant"], options=dict(data.get("options") or {}),
        clauses=list(data["clauses"]), tags=list(data.get("tags") or []), setup=setup,
        hands=[{**hand, "deal": _deal(hand.get("deal") or {}), "steps": list(hand.get("steps") or [])}
               for hand in data["hands"]],
        expect=dict(data.get("expect") or {}), description=str(data.get("description") or "").strip(),
        file=path, rel=rel, generated=data.get("generated"))


def load_site_cases(paths: Iterable[Path] | None = None, root: Path = CORPUS_DIR) -> list[SiteCase]:
    """Every case of the corpus (or of ``paths``), sorted by id."""
    cases: dict[str, SiteCase] = {}
    for path in case_files(paths or [root]):
        if path.name == CORPUS_FILE:
            continue
        with open(path, encoding="utf-8") as handle:
            data = yaml.load(handle, Loader=_Loader)
        if not isinstance(data, dict):
            raise SiteError(f"{path}: not a case file")
        entries = data["cases"] if isinstance(data.get("cases"), list) else [data]
        for entry in entries:
            case = _case(entry, path, root)
            if case.id in cases:
                raise SiteError(f"{path}: duplicate case id {case.id!r} (also in {cases[case.id].file})")
            cases[case.id] = case
    return [cases[k] for k in sorted(cases)]


# -- replay ---------------------------------------------------------------------------------

@dataclass
class StepRecord:
    step: dict[str, Any]
    before: dict[str, Any]
    after: dict[str, Any] | None      # None when the engine refused the action
    refused: str | None = None        # the error category when refused


@dataclass
class HandRecord:
    deal: dict[str, Any]
    start: dict[str, Any] | None      # the state right after the deal
    steps: list[StepRecord] = field(default_factory=list)
    end: dict[str, Any] | None = None  # the state after the hand's last step


@dataclass
class Replay:
    table: dict[str, Any]
    new_game: dict[str, Any] | None = None
    hands: list[HandRecord] = field(default_factory=list)
    problem: str | None = None        # where the reference engine and the script part ways


def replay(case: SiteCase, resolver: Callable[[str, dict[str, Any]], ResolvedTable] = resolved_table) -> Replay:
    """Play the case's script on the reference engine, recording every state."""
    resolved = resolver(case.variant, case.options)
    engine = ReferenceEngine()
    record = Replay(resolved.table)
    counter = iter(range(1, 1 << 30))

    def send(kind: str, **fields: Any) -> dict[str, Any]:
        return engine.handle({"id": next(counter), "type": kind, **fields})

    send("rules", variant=case.variant, options=resolved.selected, sha256=resolved.sha256, table=resolved.table)
    setup = {k: v for k, v in case.setup.items() if k in ("dealer", "first_dealer", "scores")}
    reply = send("new_game", **setup)
    if not reply["ok"]:
        record.problem = f"new_game refused: {reply['error']['message']}"
        return record
    record.new_game = state = reply["state"]
    for number, hand in enumerate(case.hands, 1):
        deal = {k: v for k, v in hand["deal"].items() if k in ("hands", "upcard", "widow", "kitty", "deck")}
        reply = send("deal", **deal)
        if not reply["ok"]:
            record.problem = f"hand {number}: the deal was refused: {reply['error']['message']}"
            record.hands.append(HandRecord(hand["deal"], None))
            return record
        state = reply["state"]
        hand_record = HandRecord(hand["deal"], state)
        record.hands.append(hand_record)
        for index, step in enumerate(hand["steps"], 1):
            reply = send("act", seat=step["seat"], action=step["action"])
            if step.get("reject"):
                if reply["ok"]:
                    record.problem = f"hand {number} step {index}: the reference engine accepted {step['action']}"
                    return record
                hand_record.steps.append(StepRecord(step, state, None, reply["error"]["category"]))
                continue
            if not reply["ok"]:
                record.problem = f"hand {number} step {index}: the reference engine refused {step['action']}: {reply['error']['message']}"
                return record
            hand_record.steps.append(StepRecord(step, state, reply["state"]))
            state = reply["state"]
        hand_record.end = state
    return record
