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
NO_DECISION = {"deal": "deal", "deck": "deal", "scoring": "the end of a hand (no decision: the state's hand_points and scores)",
               "game": "the end of a hand (no decision: game_over and winner)", "players": "new_game"}


def _actions(step: Mapping[str, Any], names: tuple[str, ...]) -> list[str]:
    kind = step.get("kind")
    if kind == "offer":
        return [str(step.get("decline", "pass")), str(step.get("accept", step.get("id", "")))]
    if kind == "make-trumps":
        return ["pass", "order"] if step.get("action") == "order" else ["pass", "call:<suit>"]
    return list(KIND_ACTIONS.get(str(kind), ()))


def rule_protocol(table: Mapping[str, Any], clause: Mapping[str, Any]) -> str:
    """A sentence for a rule's folded line: the phase and actions it governs (Markdown)."""
    clause_id = clause.get("id")
    for step, names in step_phases(table):
        if step_clause(table, step) != clause_id or not names:
            continue
        actions = ", ".join(f"<code>{escape(a)}</code>" for a in _actions(step, names))
        phases = ", ".join(f"<code>{escape(p)}</code>" for p in names)
        return f"In the engine protocol: phase {phases}" + (f"; actions {actions}." if actions else ".")
    topic = clause.get("topic")
    if topic in TOPIC_PHASES:
        return f"In the engine protocol: phase <code>{TOPIC_PHASES[topic]}</code>; actions <code>play:&lt;card&gt;</code>."
    if topic in NO_DECISION:
        where = NO_DECISION[topic]
        if " " in where:
            return f"In the engine protocol: applied at {escape(where)}."
        return f"In the engine protocol: applied at <code>{escape(where)}</code>."
    return ""
