"""A table's ``visibility`` entries in players' words, for the variant page's "Who sees what".

Each entry becomes one sentence ("The kitty stays face down: no one sees it."), with the
moment it starts to hold ("after the opening lead"), the hands it holds in ("when the
winning bid is open misère") and the clause or source that says so. The defaults that a
table leaves unstated are not repeated: every seed and family table states its own.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .links import md_text
from .notation import Notation
from .words import cap, condition_words

ZONE_NOUNS = {
    "hands": "each player's hand", "upcard": "the upcard", "kitty": "the kitty", "widow": "the widow",
    "dummy": "the dummy", "discards": "the cards laid away", "passed": "a card passed to another player",
    "exchanged": "the cards drawn in an exchange", "tricks": "the cards played to tricks",
    "called-card": "the called card",
}
MOMENTS = {"bidding-over": "once the bidding is over", "opening-lead": "after the opening lead",
           "hand-end": "when the hand is over"}
ROLES = {"maker": "the maker's (the high bidder's)", "dealer": "the dealer's", "eldest": "the eldest hand's",
         "maker-partner": "the maker's partner's", "dealer-partner": "the dealer's partner's"}


def entry_words(entry: Mapping[str, Any], table: Mapping[str, Any], words: Notation) -> str:
    """One visibility entry as a sentence a player would say."""
    zone, seen = entry["zone"], entry["seen-by"]
    noun = ZONE_NOUNS[zone]
    if zone == "hands" and "of" in entry:
        of = entry["of"]
        noun = f"seat {of}'s hand" if isinstance(of, int) else f"{ROLES.get(of, of + chr(39) + 's')} hand"
    sentence = _sentence(zone, noun, seen)
    moment = MOMENTS.get(entry.get("from", "deal"))
    when = condition_words(entry["when"], table, words) if entry.get("when") else ""
    lead = " ".join(part for part in (f"When {when}," if when else "", f"{cap(moment)}," if moment and not when
                                      else moment + "," if moment else "") if part)
    if lead:
        sentence = f"{lead} {sentence[0].lower()}{sentence[1:]}"
    return sentence


def _sentence(zone: str, noun: str, seen: Any) -> str:
    if isinstance(seen, Mapping):
        seats = ", ".join(str(s) for s in seen.get("seats", []))
        return f"{cap(noun)} is seen by seat(s) {seats} and no one else."
    if zone == "hands":
        return {"owner": f"{cap(noun)} is held face down: only its owner sees it.",
                "side": f"{cap(noun)} is seen by its owner and his partners.",
                "everyone": f"{cap(noun)} lies face up: every player sees it.",
                "nobody": f"{cap(noun)} is face down: no one sees it."}[seen]
    if zone in ("kitty", "widow", "dummy"):
        return {"owner": f"{cap(noun)} stays face down: no one sees it, except the player who takes it.",
                "nobody": f"{cap(noun)} stays face down: no one sees it.",
                "side": f"{cap(noun)} stays face down until a player takes it; he and his partners see it.",
                "everyone": f"{cap(noun)} is turned face up: every player sees it."}[seen]
    if zone == "discards":
        return {"owner": "Discards are laid face down: only the player who discards sees them.",
                "side": "Discards are laid face down: the player who discards and his partners see them.",
                "everyone": "Discards are laid face up: every player sees them.",
                "nobody": "Discards are laid face down, unseen even by the one who discards."}[seen]
    if zone == "passed":
        return {"owner": "A card passed to another player goes face down: the giver knows it, and the receiver once he takes it.",
                "side": "A card passed to another player is seen by the giver's side.",
                "everyone": "A card passed to another player is shown to every player.",
                "nobody": "No card is passed face down."}[seen]
    if zone == "exchanged":
        return {"owner": "Cards drawn in an exchange are seen only by the player who draws them.",
                "side": "Cards drawn in an exchange are seen by the drawer and his partners.",
                "everyone": "Cards drawn in an exchange are shown to every player.",
                "nobody": "Cards drawn in an exchange are drawn unseen."}[seen]
    if zone == "called-card":
        return {"everyone": "The called card is named aloud: every player knows which card it is, though who holds it "
                            "is known only to him until he plays it.",
                "owner": "The called card is known only to the caller.",
                "side": "The called card is known to the caller's side.",
                "nobody": "The called card is not named."}[seen]
    if zone == "upcard":
        return {"everyone": "The upcard is turned face up: every player sees it.",
                "owner": "The upcard is turned up for the dealer alone.",
                "side": "The upcard is seen by the dealer's side.",
                "nobody": "The upcard stays face down."}[seen]
    if zone == "tricks":
        return {"everyone": "Cards played to tricks are face up: every player sees them.",
                "owner": "Cards played to tricks are seen only by the player who played them.",
                "side": "Cards played to tricks are seen by the player's side.",
                "nobody": "Cards are played to tricks face down."}[seen]
    return {"everyone": f"{cap(noun)} is seen by every player.", "owner": f"{cap(noun)} is seen only by its owner.",
            "side": f"{cap(noun)} is seen by its owner's side.", "nobody": f"{cap(noun)} is not seen by anyone."}[seen]


def visibility_lines(table: Mapping[str, Any], words: Notation, cite: Callable[[Mapping[str, Any]], str]) -> list[str]:
    """The "Who sees what" list: one item per entry, each with its clause or source (``cite``)."""
    lines = []
    for entry in table.get("visibility") or []:
        text = entry_words(entry, table, words)
        where = cite(entry)
        note = f" {md_text(entry['note'])}" if entry.get("note") else ""   # the entry's reading of its sources
        lines.append(f"- {text}" + (f" ({where})" if where else "") + note)
    return lines
