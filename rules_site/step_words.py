"""One step of a case in words: what a seat did (ordered up, bid, passed a card, played), with
cards and suits drawn. The worked examples show it as HTML, the step-through viewer as plain
text; both sit above this module, which is why it is one of its own.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from .corpus import StepRecord
from .notation import Notation
from .phases import step_of_phase


def offer_words(step_spec: dict[str, Any] | None, accepted: bool) -> str:
    effect = (step_spec or {}).get("effect")
    yes, no = {"alone": ("goes alone", "does not go alone"),
               "defend-alone": ("defends alone", "does not defend alone"),
               "sit-out": ("drops out of the hand", "stays in"),
               "swap-with-kitty": ("swaps cards with the kitty", "does not swap"),
               "concede": ("folds (concedes the hand)", "plays")}.get(effect, ("accepts", "declines"))
    return f"<strong>{yes}</strong>" if accepted else no


def action_words(record: StepRecord, table: dict[str, Any], words: Notation) -> str:
    """What a step does, in words with cards and suits drawn (HTML)."""
    action = record.step["action"]
    phase = record.before.get("phase")
    spec = step_of_phase(table, phase)
    kind, _, arg = action.partition(":")
    seat = record.step["seat"]
    dealer = record.before.get("dealer")
    if spec and spec.get("kind") == "offer":
        if action == spec.get("accept"):
            return offer_words(spec, True)
        if action == spec.get("decline", "pass"):
            return offer_words(spec, False)
    if kind == "pass":
        return {"partners-best": "passes no card", "take-best": "refuses the partner's card unseen",
                "take-offer": "leaves the card"}.get(phase, "passes")
    if kind == "order":
        if seat == dealer:
            return "<strong>takes it up</strong>"
        if words.team_game and words.unit_of(seat) == words.unit_of(dealer) and dealer is not None:
            return "<strong>assists</strong> (orders up the partner)"
        return "<strong>orders it up</strong>"
    if kind == "call":
        return f"<strong>names</strong> {words.strain(arg)}" + (" as trumps" if arg not in ("NT", "NL") else "")
    if kind == "bid":
        return f"<strong>bids</strong> {words.bid_html(arg)}"
    if kind == "name":
        what = {"benny-suit": f" for {words.benny} turned up", "master-suit": f" as the suit {words.benny} stands for",
                "call-partner": ": whoever holds its ace is the partner"}.get(phase, "")
        return f"<strong>names</strong> {words.strain(arg)}{what}"
    if kind == "give":
        return f"<strong>passes</strong> {words.card(arg)} face down to the loner"
    if kind == "take":
        return "<strong>takes</strong> the partner's card" if phase == "take-best" else "<strong>takes</strong> the upcard"
    if kind == "discard":
        return f"<strong>discards</strong> {words.card(arg)}"
    if kind == "play":
        return f"<strong>plays</strong> {words.card(arg)}"
    return escape(action)


def action_text(record: StepRecord, table: dict[str, Any], words: Notation) -> str:
    """The same, as plain text (for the viewer)."""
    html = action_words(record, table, words)
    html = re.sub(r'<span class="es-card[^"]*" role="img" aria-label="[^"]*">([^<]*)</span>', r"\1", html)
    html = re.sub(r'<span class="es-suit[^"]*"[^>]*>([^<]*)</span>', r"\1", html)
    return re.sub(r"<[^>]+>", "", html).replace("&nbsp;", " ")
