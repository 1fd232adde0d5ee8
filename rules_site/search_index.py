"""The search index as a player needs it: a rule is found by its name before a worked
example or a conformance case that mentions it, and a word is found with or without its
accents ("misere" finds "misère").

mkdocs' search indexes one entry per heading, and a rule of a variant page is not a heading
(it is a paragraph with the clause's id), so "stick the dealer" used to find the Euchre page
only through an example that said it. :func:`rule_entries` adds an entry per rule and per
house rule, at its anchor; :func:`improve` weighs the entries (rules and options up; worked
examples, case pages and the corpus down) and adds the accent-free form of every accented
word to the entry's text. Both searches read the result: Material's (served over http, lunr
with each entry's ``boost``) and the offline one (``docs/javascripts/offline-search.js``).
"""

from __future__ import annotations

import re
import unicodedata
from html import escape
from typing import Any, Iterable

from .links import Links, variant_page
from .notation import Notation, spoken
from .tables import VariantView, base_variant, fill

RULE_BOOST = 4.0          # a rule's or an option's own entry
BASE_GAME_FACTOR = 1.25   # the base game's rule first among the variants that share its name
EXAMPLE_BOOST = 0.3       # a worked example's section, a hand of it
CASE_BOOST = 0.2          # a case's page, the corpus and schema pages
EXAMPLE_ANCHOR = re.compile(r"#(?:example-|ex\d+-|th-|teaching-)")
LOW_PAGES = ("corpus/", "schema/", "compliance/")


def plain(text: str, words: Notation) -> str:
    """A table's prose as a player reads it, in plain text (cards as 10♥)."""
    return words.prose_text(spoken(text))


def rule_entries(views: Iterable[VariantView], anchors: dict[str, set[str]], directory_urls: bool) -> list[dict[str, Any]]:
    """An entry per rule shown on a variant page and per option, titled by its name, its text
    the rule (or the option's summary and values), at its anchor on the page."""
    root = Links("index.md", directory_urls=directory_urls)
    views = list(views)
    base = base_variant(views) if views else None
    out: list[dict[str, Any]] = []
    for view in views:
        words = Notation(view.table)
        boost = RULE_BOOST * (BASE_GAME_FACTOR if view.id == base else 1)
        shown = anchors.get(view.id, set())
        page = variant_page(view.id)
        for clause in view.clauses:
            if clause["id"] not in shown:
                continue
            try:
                text = fill(clause["text"], view.table, f"{view.id}: clause {clause['id']}")
            except Exception:             # a clause the page could not fill is not on it either
                continue
            out.append({"location": root.url(page, clause["id"]), "title": clause["title"],
                        "text": f"<p>{escape(plain(text, words), quote=False)}</p>", "page": view.title, "boost": boost})
        for key, option in view.options.items():
            values = [f"{value_words(choice.get('value'))}: {choice.get('summary', '')}" for choice in option.get("choices", [])]
            text = " ".join([option.get("summary", ""), *values, option.get("note", "")])
            out.append({"location": root.url(page, f"option-{key}"), "title": option.get("title", key),
                        "text": f"<p>{escape(plain(text, words), quote=False)}</p>", "page": f"{view.title}: house rules",
                        "boost": boost})
    return out


def value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("-", " ")


def fold(text: str) -> str:
    """``misère`` -> ``misere``: the letters without their accents."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def accent_free_words(text: str) -> list[str]:
    """The accent-free form of each accented word of a text, once each."""
    seen: list[str] = []
    for word in re.findall(r"\w+", text):
        folded = fold(word)
        if folded != word and folded not in seen:
            seen.append(folded)
    return seen


def boost_of(location: str) -> float | None:
    if EXAMPLE_ANCHOR.search(location):
        return EXAMPLE_BOOST
    if location.startswith(LOW_PAGES):
        return CASE_BOOST
    return None


def improve(index: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The index with the rules' entries added and weighed, examples and cases weighed down,
    and accent-free forms added to every entry's text."""
    docs = list(index.get("docs") or [])
    for doc in docs:
        boost = boost_of(str(doc.get("location", "")))
        if boost is not None:
            doc["boost"] = boost
    docs += [{**entry, "boost": entry.get("boost", RULE_BOOST)} for entry in entries]
    for doc in docs:
        extra = accent_free_words(f"{doc.get('title', '')} {doc.get('text', '')}")
        if extra:
            doc["text"] = f"{doc.get('text', '')} <span hidden>{' '.join(extra)}</span>"
    return {**index, "docs": docs}


__all__ = ["rule_entries", "improve", "fold", "RULE_BOOST"]
