"""EGN 1.0 and 1.1 records read as the current version, upgraded in memory.

The changes are those EGN documents between its versions (its changelog, and what its
``egn-upgrade`` tool does):

* 1.1 renamed the snake_case keys to camelCase (``player_cards`` -> ``playerCards``,
  ``card_exchanges``, ``calls_annotations`` -> ``callAnnotations``, ``tricks_annotations``
  -> ``playAnnotations``, ``match_id``/``matchId`` -> ``gameId``, ...);
* 1.2 removed two redundant fields, the deal's ``kitty`` and the play phase's
  ``initialLead`` (the cards left over, and who leads, follow from the rest of the record);
* the recording apps of 1.0 also wrote fields about the video, not the game: top-level
  ``timings``, ``views``, ``layouts``, ``screens``, ``viewSwitches`` and ``videoUrl``;
* ``max_deals`` became ``num_deals`` in 1.4.

Nothing that the rules read is dropped. The fields with no meaning for the rules are kept
aside as *ignored* (reported by path); ``kitty`` and ``initialLead`` are kept as
*redundant* and compared with the replayed game by :mod:`.check` (a record whose 1.0 lead
or kitty disagrees with its own deals says so). Every renamed key is remembered, so that a
problem found after the upgrade is reported at the path the file really has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

OLD_VERSION = re.compile(r"^1\.[01](?:\.\d+)?$")
CURRENT = "1.4"

RENAMED = {
    "calls_annotations": "callAnnotations", "tricks_annotations": "playAnnotations", "play_annotations": "playAnnotations",
    "player_cards": "playerCards", "card_exchanges": "cardExchanges", "match_id": "gameId", "matchId": "gameId",
    "initial_score": "initialScore", "initial_state": "initialState", "phase_number": "phaseNumber",
    "is_alone": "isAlone", "alone_defender": "aloneDefender", "alternative_lines": "alternativeLines",
    "branch_index": "branchIndex", "up_card": "upCard", "file_type": "fileType", "player_ids": "playerIds",
    "deal_number": "dealNumber", "final_score": "finalScore", "max_deals": "num_deals",
}
NOT_RULES = ("timings", "views", "layouts", "screens", "viewSwitches", "videoUrl")
REDUNDANT = ("kitty", "initialLead")


@dataclass
class Upgrade:
    """What reading an old record changed: its version, the keys renamed (new path -> the
    file's path), the fields set aside, and the redundant fields by deal."""

    version: str
    renamed: dict[str, str] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)
    kitty: dict[int, list[str]] = field(default_factory=dict)          # deal index -> the 1.0 kitty
    initial_lead: dict[int, int] = field(default_factory=dict)         # deal index -> the 1.0 initialLead
    redundant: list[str] = field(default_factory=list)

    def original_path(self, path: str) -> str:
        """The file's own path for a path of the upgraded record (the deepest renamed prefix)."""
        best = ""
        for new in self.renamed:
            if (path == new or path.startswith(new + ".") or path.startswith(new + "[")) and len(new) > len(best):
                best = new
        return self.renamed[best] + path[len(best):] if best else path

    def summary(self) -> str:
        parts = [f"upgraded in memory to {CURRENT}"]
        keys = sorted({old.rsplit(".", 1)[-1] for old in self.renamed.values()})
        if keys:
            parts.append("renamed " + ", ".join(f"{k} -> {RENAMED[k]}" for k in keys if k in RENAMED))
        if self.ignored:
            parts.append("ignored (no meaning for the rules): " + ", ".join(self.ignored))
        if self.redundant:
            names = sorted({p.rsplit(".", 1)[-1] for p in self.redundant})
            parts.append(f"redundant, compared with the replay: {', '.join(names)} in {len(self.redundant)} place(s)")
        return "; ".join(parts)


def is_old(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("version"), str) and bool(OLD_VERSION.match(data["version"]))


def upgrade(data: dict[str, Any]) -> tuple[dict[str, Any], Upgrade]:
    """The record as EGN 1.4 (a new object) and what was changed."""
    report = Upgrade(data["version"])
    out = _walk(data, "$", "$", report)
    out["version"] = CURRENT
    return out, report


_DEAL = re.compile(r"^\$\.deals\[(\d+)\]")


def _walk(value: Any, path: str, old: str, report: Upgrade) -> Any:
    """``path``: where the value is in the upgraded record; ``old``: where it is in the file."""
    if isinstance(value, list):
        return [_walk(item, f"{path}[{i}]", f"{old}[{i}]", report) for i, item in enumerate(value)]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        here = f"{old}.{key}"
        if key in NOT_RULES:
            report.ignored.append(here)
            continue
        if key in REDUNDANT:
            report.redundant.append(here)
            deal = _DEAL.match(path)
            main_line = deal is not None and ".alternativeLines" not in path
            if main_line and key == "kitty" and isinstance(item, list):
                report.kitty[int(deal.group(1))] = [c for c in item if isinstance(c, str) and c]
            if main_line and key == "initialLead" and isinstance(item, int) and not isinstance(item, bool):
                report.initial_lead.setdefault(int(deal.group(1)), item)
            continue
        new_key = RENAMED.get(key, key)
        new_path = f"{path}.{new_key}"
        if new_key != key:
            report.renamed[new_path] = here
        out[new_key] = _walk(item, new_path, here, report)
    return out


def compare_with_replay(report: Upgrade, hands: list[Any], upcards: list[str | None]) -> list[str]:
    """What the redundant 1.0 fields say against the replayed deals (``hands``: the replay's
    hand results, each with ``steps``; ``upcards``: each deal's upcard in our notation):
    an ``initialLead`` that is not the seat leading the first trick, a ``kitty`` card that is
    the upcard, played or laid away. Empty when they agree."""
    from .cards import CardError, from_egn

    out: list[str] = []
    leads = kitties = 0
    for index, hand in enumerate(hands):
        plays = [step for step in hand.steps if step["action"].startswith("play:")]
        if index in report.initial_lead and plays:
            leads += 1
            if plays[0]["seat"] != report.initial_lead[index]:
                out.append(f"deal {index + 1}: initialLead names seat {report.initial_lead[index]}, but seat "
                           f"{plays[0]['seat']} leads the first trick by the rules")
        if report.kitty.get(index):
            kitties += 1
            used = {step["action"].split(":", 1)[1]: step["action"].split(":", 1)[0] for step in hand.steps
                    if step["action"].startswith(("play:", "discard:"))}
            for raw in report.kitty[index]:
                try:
                    card = from_egn(raw)
                except CardError:
                    continue
                if index < len(upcards) and card == upcards[index]:
                    out.append(f"deal {index + 1}: the kitty lists {raw}, the upcard")
                elif card in used:
                    out.append(f"deal {index + 1}: the kitty lists {raw}, which is "
                               + ("played" if used[card] == "play" else "laid away"))
    if not out and (leads or kitties):
        out.append(f"agree with the replay (initialLead in {leads} deal(s), kitty in {kitties})")
    return out
