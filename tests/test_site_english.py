"""The English of every built page, read as a player reads it (tests/site_english.py): no
placeholder, no dash where a value belongs, no "1 kings", no "X if …, else X", no markup
shown as text, no file name as a title, no "Dealer Player 4", no bid written "6 (7)", no
sentence cut before its object ("discards as many."), no condition printed as logic.

Each kind of defect is planted once in a page of its own, to show that the check finds it."""

from __future__ import annotations


import pytest

from site_english import bid_as_two_numbers, defects, placeholders
from site_support import BUILT_SITE, built_site  # noqa: F401 (fixture)

pytestmark = BUILT_SITE   # room to wait for the site's build (started at collection)


def test_every_built_page_reads_as_english(built_site):
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 100, f"only {len(pages)} pages built"
    found = []
    for page in pages:
        for kind, hits in defects(page.read_text(encoding="utf-8")).items():
            found += [f"{page.relative_to(built_site)}: {kind}: …{hit}…" for hit in hits[:3]]
    assert not found, f"{len(found)} defects in the site's English:\n" + "\n".join(found[:60])


PLANTED = {
    "placeholder": "<p>The dealer gives {count} cards to each player.</p>",
    "dash for a value": "<table><tr><th>Game</th><td>—</td></tr></table><p>Game: —</p>",
    "plural after one": "<p>A player who holds at least 1 kings of trumps may declare it.</p>",
    "the same both sides of else": "<p>Opening lead: the eldest hand if alone, else the eldest hand.</p>",
    "raw markup": "<p>Search finds <code>round-1</code> as &lt;code&gt;round-1&lt;/code&gt; and **bold**.</p>"
                  '<p>The suffix <code>&lt;span class="es-card"&gt;A♠&lt;/span&gt;</code>.</p>',
    "file name as a title": "<h1>euchre.yaml</h1><p>The seed does not say.</p>",
    "seat named twice": "<p>Dealer Player 4 turns up the nine of hearts.</p>",
    "bid as two numbers": "<p>The bids: 6 (7), 6 (14), 7 (8).</p>",
    "sentence cut short": "<p>The maker takes the kitty, then discards as many.</p>",
    "logic as text": "<p>Scores 1 point if not (the other player stood).</p>",
}


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_a_planted_defect_is_found(kind):
    page = f"<html><head><title>A page</title></head><body><article>{PLANTED[kind]}</article></body></html>"
    assert kind in defects(page), f"the {kind} check misses {PLANTED[kind]!r}"


def test_good_english_passes():
    page = ("<html><body><article><h1>Euchre</h1><p>The first side to reach 10 points wins. North, the dealer, "
            "turns up the 9♥. A player who holds one king of trumps may declare it. The maker takes the kitty, then "
            "discards as many cards as were taken. No one bids, and Player 1 deals. <code>{raw}</code></p>"
            "<table><tr><th>Game</th><td>first to 10</td></tr></table></article></body></html>")
    assert defects(page) == {}


def search_markup(index: dict) -> list[str]:
    """Entries of the search index whose title, or text once its HTML is read, still shows
    markup (a result from disk once showed `<code>` tags as text)."""
    import html
    import re
    found = []
    for doc in index.get("docs", []):
        shown = html.unescape(re.sub(r"<[^>]+>", " ", str(doc.get("text", ""))))
        title = html.unescape(re.sub(r"<[^>]+>", "", str(doc.get("title", ""))))     # titles are HTML, as Material draws them
        if re.search(r"</?(?:code|em|strong|span|a|p)\b[^>]*>", shown + " " + title):
            found.append(f"{doc.get('location')}: {(title + ' ' + shown)[:120]}")
    return found


def test_the_search_index_shows_no_markup(built_site):
    import json
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    found = search_markup(index)
    assert not found, f"{len(found)} search entries show markup, e.g. {found[:5]}"


def test_markup_in_a_search_entry_is_found():
    planted = {"docs": [{"location": "a.html", "title": "Rule", "text": "<p>say &lt;code&gt;round-1&lt;/code&gt;</p>"}]}
    assert search_markup(planted) and not search_markup({"docs": [{"title": "Rule", "text": "<p><code>x</code></p>"}]})


def test_markup_escaped_inside_code_is_found():
    """A card face drawn inside a code span (the table's note quoting `AS.2`) shows as tags."""
    page = '<html><body><article><p>The suffix <code>&lt;span class="es-card" role="img"&gt;A♠&lt;/span&gt;</code>.</p></article></body></html>'
    assert "raw markup" in defects(page)


def test_bids_outside_the_grid_read_as_words():
    """Napoleon's bids (no suit: outside the grid of tricks by suit) as players say them."""
    from rules_site.variant import other_bids_line
    bids = [{"id": "2", "tricks": 2, "value": 2}, {"id": "3", "tricks": 3, "value": 3}, {"id": "nap", "tricks": 5, "value": 10},
            {"id": "misere", "at-most": 0}]
    line = other_bids_line(lambda bid_id: bid_id, bids)
    assert line == "Other bids: 2 and 3, each worth its number of tricks; nap, worth 10; misere."
    assert not bid_as_two_numbers(line)


def test_a_missing_value_in_a_defect_reads_as_words():
    from rules_site.compliance import no_value_words
    row = no_value_words("| `to-act` | check | 1 case | discards: reference [[], None, None], engine <missing> | x |")
    assert row == "| `to-act` | check | 1 case | discards: reference [[], no value, no value], engine no such field | x |"
    assert not placeholders(row)
