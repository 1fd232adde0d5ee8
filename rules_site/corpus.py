"""The corpus as the site needs it: every case, read by the suite's own loader, and replayed
on the reference engine to learn what the script does (who won each trick, the score), for
drawing. The replay speaks the engine protocol to the reference engine, exactly as the
runner does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from reference_impl.resolve import ResolvedTable

from conformance import CORPUS_DIR
from conformance.cases import Case, load_cases, resolved_table

from conformance.reference_engine import ReferenceEngine
from .tables import SiteError

NOT_HAND_WRITTEN = ("generated", "perft")


@dataclass
class SiteCase(Case):
    """A corpus case with what its pages need besides: its description and its file's path
    under the corpus folder."""

    description: str = ""
    rel: str = ""                # the file's path under the corpus directory
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


def _site_case(case: Case, root: Path) -> SiteCase:
    try:
        rel = Path(case.file).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        rel = Path(case.file).name
    fields = {name: getattr(case, name) for name in Case.__dataclass_fields__}
    return SiteCase(**fields, description=str(case.data.get("description") or "").strip(), rel=rel,
                    generated=case.data.get("generated"))


def load_site_cases(paths: Iterable[Path] | None = None, root: Path = CORPUS_DIR) -> list[SiteCase]:
    """Every case of the corpus (or of ``paths``), sorted by id: read and checked by the
    suite's own loader, so the site refuses to build from a broken case."""
    cases, problems = load_cases(paths or [root])
    if problems:
        raise SiteError("the corpus has problems:\n" + "\n".join(str(p) for p in problems[:10]))
    return [_site_case(case, root) for case in cases]


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
    refused: str | None = None        # the error category when the script has the deal refused (deal_reject)


@dataclass
class Replay:
    table: dict[str, Any]
    new_game: dict[str, Any] | None = None
    hands: list[HandRecord] = field(default_factory=list)
    problem: str | None = None        # where the reference engine and the script part ways


def replay(case: SiteCase, resolver: Callable[[str, dict[str, Any]], ResolvedTable] = resolved_table,
           engine: ReferenceEngine | None = None) -> Replay:
    """Play the case's script on the reference engine, recording every state. ``engine``: one
    that replays many cases (it checks and compiles each table once, where a fresh engine per
    case spent about a third of the corpus replay on the same few tables)."""
    resolved = resolver(case.variant, case.options)
    engine = engine if engine is not None else ReferenceEngine()
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
        if "deal_reject" in hand:       # the script has the deal refused: a refusal is following it
            if reply["ok"]:
                record.problem = f"hand {number}: the reference engine accepted a deal it must refuse ({hand['deal_reject']})"
                return record
            if reply["error"]["category"] != hand["deal_reject"]:
                record.problem = (f"hand {number}: the reference engine refused the deal with {reply['error']['category']}, "
                                  f"not {hand['deal_reject']}: {reply['error']['message']}")
                return record
            record.hands.append(HandRecord(hand["deal"], None, refused=reply["error"]["category"]))
            continue
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
                if reply["error"]["category"] != step["reject"]:
                    record.problem = (f"hand {number} step {index}: the reference engine refused {step['action']} with "
                                      f"{reply['error']['category']}, not {step['reject']}: {reply['error']['message']}")
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
