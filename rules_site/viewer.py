"""The data of the step-through viewer (``docs/javascripts/viewer.js``): one frame per moment
of a hand, the deal first, then the table as it stands *after* each step.

A frame carries what a player at the table sees: the hands, the trick on the table (the
trick just completed stays shown, its winner marked, until the next card is led), the
tricks each side has taken, the scores, trumps and the maker, the upcard while it is on the
table, the widow (or dummy) and the kitty, and who acts next with what the rules allow.

The counts are read from the reference engine's state after each step (``tricks_won``,
``scores``), never worked out from the trick list: a trick played with a seat sitting out
has fewer cards than there are seats and is still a trick. Refused moves are left out of
the viewer; the worked example sets them apart below the hand.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from .corpus import HandRecord, SiteCase
from .notation import STRAIN_WORDS, Notation
from .step_words import action_text


def seat_order(n: int, dealer: int | None) -> list[int]:
    """Seats from the dealer's left round to the dealer."""
    if dealer is None:
        return list(range(n))
    return [(dealer + 1 + i) % n for i in range(n)]


def tricks_by_unit(state: dict[str, Any], words: Notation) -> list[int]:
    """Tricks taken by each scoring unit (side or player) in a state."""
    won = [0] * len(words.units)
    per_seat = state.get("tricks_won")
    if isinstance(per_seat, list) and len(per_seat) == words.n:
        for seat, count in enumerate(per_seat):
            unit = words.unit_of(seat)
            if unit is not None:
                won[unit] += int(count or 0)
        return won
    for trick in state.get("tricks") or []:
        winner = trick.get("winner") if isinstance(trick, dict) else None
        unit = words.unit_of(winner) if winner is not None else None
        if unit is not None:
            won[unit] += 1
    return won


def table_cards(state: dict[str, Any], words: Notation, kitty: list[str] | None = None,
                widow: list[str] | None = None) -> list[dict[str, Any]]:
    """The cards lying on the table apart from the hands: the upcard while it is there to be
    taken or turned down, the widow (or dummy) and the kitty, each named as players name it."""
    out = []
    upcard = state.get("upcard")
    if upcard and state.get("trump") is None and not state.get("turned_down"):
        out.append({"name": "Upcard", "cards": [upcard]})
    elif state.get("turned_down") and state.get("trump") is None and upcard:
        out.append({"name": "Upcard, turned down", "cards": [upcard]})
    widow = state.get("widow") or widow        # a face-down widow is not in a player's view of the state
    if widow:
        out.append({"name": words.widow.capitalize(), "cards": list(widow), "hidden": True})
    kitty = state.get("kitty") or kitty        # the undealt rest, as the deal gave it, stays put
    if kitty:
        from .words import kitty_used
        out.append({"name": "Kitty" if kitty_used(words.table) else "Kitty (not used)", "cards": list(kitty), "hidden": True})
    return out


def frame(state: dict[str, Any], words: Notation, kitty: list[str] | None = None,
          widow: list[str] | None = None) -> dict[str, Any]:
    """What the table shows in one state."""
    tricks = [t for t in state.get("tricks") or [] if isinstance(t, dict)]
    shown = tricks[-1] if tricks else {}
    return {"hands": state.get("hands") or [], "legal": state.get("legal") or [], "to_act": state.get("to_act"),
            "trick": shown.get("cards") or [], "winner": shown.get("winner"), "leader": shown.get("leader"),
            "trump": state.get("trump"), "maker": state.get("maker"), "contract": state.get("contract"),
            "won": tricks_by_unit(state, words), "out": state.get("sitting_out") or [],
            "scores": state.get("scores") or [], "hand_points": state.get("hand_points"),
            "table": table_cards(state, words, kitty, widow), "done": state.get("phase") in ("deal", "game-over")}


def bid_grid(tokens: list[str], words: Notation) -> dict[str, Any] | None:
    """The legal bids as a small grid (a row per number of tricks, a column per strain), so
    Five Hundred's 26 bids read as a schedule and not as one long line."""
    bids = [(t, words.bids.get(t.partition(":")[2])) for t in tokens if t.startswith("bid:")]
    grid = [(t, b) for t, b in bids if b and "tricks" in b and b.get("strain") and not b.get("alone")]
    if len(grid) < 6:
        return None
    strains = list(dict.fromkeys(b["strain"] for _, b in grid))
    tricks = sorted(dict.fromkeys(b["tricks"] for _, b in grid))
    cells = {(b["tricks"], b["strain"]): t for t, b in grid}
    return {"strains": [STRAIN_WORDS.get(s, s) if s in STRAIN_WORDS else s for s in strains],
            "strain_codes": strains, "tricks": tricks,
            "cells": [[cells.get((n, s)) for s in strains] for n in tricks],
            "values": [[(words.bids.get(cells[(n, s)].partition(":")[2]) or {}).get("value") if (n, s) in cells else None
                        for s in strains] for n in tricks]}


def viewer_data(case: SiteCase, hand: HandRecord, table: dict[str, Any]) -> dict[str, Any]:
    """The frames of one hand: the deal, then the state after each accepted step, each with
    the step in words (``text``) and the case's note on it (``why``)."""
    words = Notation(table)
    start = hand.start or {}
    dealer = start.get("dealer")
    eldest = seat_order(words.n, dealer)[0] if dealer is not None else None
    kitty = hand.deal.get("kitty") or None
    widow = list(hand.deal.get("widow") or []) or None

    def widow_left(state: dict[str, Any]) -> list[str] | None:
        """The widow as dealt until a player takes a card of it."""
        held = {c for h in state.get("hands") or [] for c in h}
        return None if not widow or held & set(widow) else widow
    first = frame(start, words, kitty, widow_left(start))
    first["text"] = (f"{words.seat(dealer)} deals." if dealer is not None else "The cards are dealt.") + (
        f" {words.seat(start['to_act'])} acts first." if start.get("to_act") is not None else "")
    frames = [first]
    labels: dict[str, str] = {}
    grids: dict[str, Any] = {}
    for record in hand.steps:
        if record.refused or record.after is None:
            continue
        step = record.step
        if widow and widow_left(record.after) is None:
            widow = None
        entry = frame(record.after, words, kitty, widow)
        entry["seat"] = step["seat"]
        entry["action"] = step["action"]
        entry["text"] = f"{words.seat(step['seat'])} {action_text(record, table, words)}."
        if step.get("why"):
            entry["why"] = words.prose_text(step["why"])
        frames.append(entry)
    for entry in frames:
        for token in entry["legal"]:
            if token.partition(":")[0] not in ("play", "discard", "give"):
                labels[token] = words.token_text(token)
        grid = bid_grid(entry["legal"], words)
        if grid:
            key = json.dumps(grid, sort_keys=True)
            grids.setdefault(key, grid)
            entry["grid"] = list(grids).index(key)
    for token in labels:
        if token.startswith("bid:"):
            labels[token] = words.bid_text(token.partition(":")[2])
    return {"seats": [words.seat(s) for s in range(words.n)], "order": seat_order(words.n, dealer),
            "dealer": dealer, "eldest": eldest, "units": [words.unit(u) for u in range(len(words.units))],
            "colours": words.colours, "frames": frames, "labels": labels, "grids": list(grids.values()),
            "maker_word": words.maker.removeprefix("the "), "title": case.title}


def viewer_html(case: SiteCase, hand: HandRecord, table: dict[str, Any], prefix: str, number: int = 1) -> str:
    """The viewer's element: its frames as JSON, named by case and hand (``data-case``,
    ``data-hand``) so that the browser test can hold each one against its case."""
    data = json.dumps(viewer_data(case, hand, table), separators=(",", ":"), ensure_ascii=False)
    data = data.replace("</", "<\\/")
    return (f'<div class="es-viewer" id="{prefix}-viewer" tabindex="-1" data-label="{escape(case.title)}" '
            f'data-case="{escape(case.id)}" data-hand="{number}">'
            f'<script type="application/json">{data}</script>'
            '<p class="es-viewer-fallback">The step-through viewer needs JavaScript; the tables above tell the same hand.</p>'
            "</div>")


__all__ = ["viewer_data", "viewer_html", "seat_order", "tricks_by_unit"]
