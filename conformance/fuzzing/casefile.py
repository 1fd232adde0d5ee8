"""A divergence written as a conformance case: ready for a corpus or a skip file.

The case replays the shrunk game step by step; the step where the engine disagreed
carries the reference's values of the fields that differed (the expectation a conforming
engine meets) and cites the clause it tests, and a probe the rules refuse is a ``reject``
step. Fields the case format cannot state (a trick's cards, say) are stated the way the
runner can check them: a trick's winner as ``trick_winner``. Nothing else is asserted, so
the case fails on the engine for the reason found, and passes on the reference.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from reference_impl.resolve import ResolvedTable

from .divergence import Divergence, expectation

GENERATOR = "euchre-spec fuzz 1"
# The corpus's tags, chosen by the phase (or field) where the engine disagreed.
PHASE_TAGS = {"new_game": "first-dealer", "deal": "deal", "bid-round-1": "bidding", "bid-round-2": "bidding",
              "benny-suit": "benny", "auction": "auction", "alone": "going-alone", "defend-alone": "defending-alone",
              "partners-best": "railroading", "take-best": "railroading", "take-offer": "exchange",
              "discard": "exchange", "play": "follow-suit", "master-suit": "no-trump"}
FIELD_TAGS = {"hand_points": "scoring", "scores": "scoring", "scoring_row": "scoring", "game_over": "game-end",
              "winner": "game-end", "to_act": "turn-order", "tricks": "trick-winner", "next_dealer": "deal",
              "sitting_out": "going-alone", "defender_alone": "defending-alone"}


def case_data(divergence: Divergence, variant: str, table: ResolvedTable, case_id: str, title: str,
              seed: int | None, known_tags: set[str] | None = None) -> dict[str, Any]:
    """The case as data (as a case file holds it)."""
    script, position = divergence.script, divergence.position
    clause = divergence.clause
    expect, unstated = expectation(divergence)
    options = {k: v for k, v in table.selected.items() if table.table.get("options", {}).get(k, {}).get("default") != v}
    setup: dict[str, Any] = {}
    if "first_dealer" in script.setup:
        first = script.setup["first_dealer"]
        setup["first_dealer"] = {"cards": " ".join(first["cards"]), "start": first.get("start", 0)}
    else:
        setup["dealer"] = script.setup["dealer"]
    if "scores" in script.setup:
        setup["scores"] = list(script.setup["scores"])
    if position.kind == "new_game" and expect:
        setup["expect"] = expect
    hands = []
    rejects = _rejections(divergence)
    for h, hand in enumerate(script.hands):
        entry: dict[str, Any] = {"deal": _deal(hand.deal)}
        if position.kind == "deal" and position.hand == h and expect:
            entry["after_deal"] = expect
        steps = []
        for s, step in enumerate(hand.steps):
            item: dict[str, Any] = {"seat": step.seat, "action": step.action}
            if step.probe:
                item["reject"] = rejects.get((h, s), "illegal_action")
            if position.hand == h and position.step == s:
                if position.kind == "act" and expect:
                    item["expect"] = expect
                if position.kind == "view" and expect and step.views:
                    item["view"] = {"seat": step.views[-1], "expect": expect}
                item["clause"] = clause
                item["why"] = _why(divergence, unstated)
            steps.append(item)
        entry["steps"] = steps
        hands.append(entry)
    tags = _tags(divergence, known_tags)
    data: dict[str, Any] = {"id": case_id, "title": title, "variant": variant, "options": options,
                            "clauses": [clause], "tags": tags}
    if seed is not None:
        data["generated"] = {"generator": GENERATOR, "seed": seed}
    data["setup"] = setup
    data["hands"] = hands
    return data


def _rejections(divergence: Divergence) -> dict[tuple[int, int], str]:
    """The category the reference refused each probe with (the diverging probe's from its reply)."""
    found = {}
    for h, hand in enumerate(divergence.script.hands):
        for s, step in enumerate(hand.steps):
            if step.probe:
                found[h, s] = step.reject or "illegal_action"
    position = divergence.position
    error = divergence.expected.get("error")
    if position.kind == "probe" and isinstance(error, dict) and error.get("category"):
        found[position.hand, position.step] = error["category"]
    return found


def _why(divergence: Divergence, unstated: list[str]) -> str:
    parts = []
    for difference in divergence.differences[:3]:
        parts.append(f"{difference.field}: reference {_short(difference.expected)}, engine {_short(difference.actual)}")
    text = "found by euchre-spec fuzz: " + "; ".join(parts)
    if unstated:
        text += f" (not stated by the case format: {', '.join(unstated)})"
    return text


def _short(value: Any, limit: int = 60) -> str:
    text = repr(sorted(value) if isinstance(value, list) and all(isinstance(v, str) for v in value) else value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _deal(deal: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"hands": [" ".join(h) for h in deal["hands"]]}
    if deal.get("upcard") is not None:
        out["upcard"] = deal["upcard"]
    for key in ("widow", "kitty"):
        if deal.get(key):
            out[key] = " ".join(deal[key])
    return out


def _tags(divergence: Divergence, known: set[str] | None) -> list[str]:
    wanted = [FIELD_TAGS.get(d.field) for d in divergence.differences] + [PHASE_TAGS.get(divergence.phase)]
    if divergence.position.kind in ("probe", "state"):
        wanted.insert(0, "negative")
    if len(divergence.script.hands) > 1:
        wanted.append("multi-hand")
    tags = []
    for tag in wanted:
        if tag and tag not in tags and (known is None or tag in known):
            tags.append(tag)
    return tags or ([sorted(known)[0]] if known else [])


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "case"


class _Flow(dict):
    """A mapping written on one line (each step)."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Flow, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True))


def write_case(path: Path, data: dict[str, Any], comment: str) -> None:
    """Write the case as YAML, one line per step, under a comment saying where it came from."""
    body = dict(data)
    body["hands"] = [{**hand, "steps": [_Flow(step) for step in hand["steps"]]} for hand in data["hands"]]
    header = "".join(f"# {line}\n" for line in comment.splitlines())
    text = header + yaml.dump(body, Dumper=_Dumper, sort_keys=False, default_flow_style=None, width=200, allow_unicode=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def case_id(variant: str, divergence: Divergence, seed: int | None, prefix: str = "fuzz") -> str:
    """A stable id: the variant, the rule it breaks, what differs, and where the fuzzer met it
    (one game may meet several kinds of divergence: the rule and fields tell them apart)."""
    fields = "-".join(dict.fromkeys(d.field.replace(".", "-").replace("_", "-") for d in divergence.differences[:2]))
    where = f"s{seed}-g{divergence.game}" if seed is not None and divergence.game is not None else "case"
    return slug(f"{prefix}-{variant}-{divergence.clause}-{fields}-{where}")


def write_divergence(out: Path, divergence: Divergence, variant: str, table: ResolvedTable, seed: int | None,
                     engine: str, how: str, known_tags: set[str] | None = None, prefix: str = "fuzz",
                     written: set[str] | None = None) -> Path:
    """Write ``divergence`` (shrunk) as a case file under ``out``; returns its path. ``written``
    holds the ids this run wrote already: a second divergence with the same id gets a number."""
    identifier = case_id(variant, divergence, seed, prefix)
    if written is not None:
        base, number = identifier, 1
        while identifier in written:
            number += 1
            identifier = f"{base}-{number}"
        written.add(identifier)
    fields = ", ".join(d.field for d in divergence.differences[:3])
    title = f"{engine}: {fields} at {divergence.phase} ({how})"
    data = case_data(divergence, variant, table, identifier, title, seed, known_tags)
    path = out / f"{identifier}.yaml"
    write_case(path, data, f"Found by {how} against {engine}.\nExpectations come from the reference interpreter; "
                           f"the step that differed cites its clause.")
    return path
