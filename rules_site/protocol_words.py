"""The part of the engine protocol a rule governs: the phase the state shows while the rule's
step waits for a decision, and the actions offered there (``spec/protocol.md``, Phases)."""

from __future__ import annotations

from html import escape
from typing import Any, Mapping

from .phases import step_clause, step_phases

# What a step of each kind offers, as the protocol writes it.
KIND_ACTIONS = {
    "make-trumps": ("pass", "order", "call:<suit>"),
    "auction": ("pass", "bid:<bid>"),
    "name": ("name:<suit>",),
    "exchange": ("take", "pass", "discard:<card>"),
    "give": ("give:<card>", "take", "pass"),
    "play": ("play:<card>",),
}
TOPIC_PHASES = {"play": "play", "ranking": "play"}
NO_DECISION = {"deal": "the deal", "deck": "the deal", "scoring": "the end of a hand", "game": "the end of a hand",
               "players": "the start of the game"}


def _actions(step: Mapping[str, Any], names: tuple[str, ...]) -> list[str]:
    kind = step.get("kind")
    if kind == "offer":
        return [str(step.get("decline", "pass")), str(step.get("accept", step.get("id", "")))]
    if kind == "make-trumps":
        return ["pass", "order"] if step.get("action") == "order" else ["pass", "call:<suit>"]
    return list(KIND_ACTIONS.get(str(kind), ()))


ACTION_WORDS = {"play:<card>": "play a card", "call:<suit>": "name a suit", "bid:<bid>": "bid", "discard:<card>": "discard a card",
                "give:<card>": "give a card", "name:<suit>": "name a suit", "order": "order it up", "pass": "pass",
                "take": "take", "alone": "go alone", "defend-alone": "defend alone"}


def _said(actions: list[str]) -> str:
    words = [ACTION_WORDS.get(a, a.replace("-", " ")) for a in actions]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)


def rule_protocol(table: Mapping[str, Any], clause: Mapping[str, Any]) -> str:
    """A sentence for a rule's folded line: the phase it governs and the actions offered there,
    in words (the tokens themselves belong to the protocol page and the case scripts)."""
    clause_id = clause.get("id")
    for step, names in step_phases(table):
        if step_clause(table, step) != clause_id or not names:
            continue
        actions = _actions(step, names)
        phases = " then ".join(f"“{escape(p)}”" for p in names)
        return (f"In the engine protocol: phase {phases}" + (f", where the player to act may {_said(actions)}" if actions else "")
                + " (see the protocol's phases).")
    topic = clause.get("topic")
    if topic in TOPIC_PHASES:
        return "In the engine protocol: phase “play”, where the player to act may play a card."
    if topic in NO_DECISION:
        return f"In the engine protocol: applied at {escape(NO_DECISION[topic])}, with no decision to make."
    return ""
