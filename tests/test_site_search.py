"""The search index for players (rules_site/search_index.py): an entry per rule and house
rule at its anchor, weighed above worked examples and case pages, and accent-free words
added so that "misere" finds "misère". The searches themselves are clicked through in
Chromium in tests/test_site_browser.py."""

from __future__ import annotations

from rules_site.search_index import CASE_BOOST, EXAMPLE_BOOST, RULE_BOOST, fold, improve, rule_entries
from rules_site.tables import all_views


def test_an_entry_per_rule_and_option_at_its_anchor():
    views = all_views()
    entries = rule_entries(views, {v.id: v.clause_ids() for v in views}, directory_urls=False)
    by_location = {e["location"]: e for e in entries}
    assert by_location["variants/euchre.html#option-stick-the-dealer"]["title"] == "Stick the dealer"
    assert "variants/euchre.html#left-bower-is-trump" in by_location or any(
        "bower" in e["title"].lower() and e["location"].startswith("variants/euchre.html#") for e in entries)
    option = by_location["variants/euchre.html#option-stick-the-dealer"]["text"]
    assert "yes:" in option and "True" not in option and "False" not in option
    assert all("`" not in e["text"] for e in entries)          # no protocol token quoted in a player's search
    british = by_location["variants/british.html#option-stick-the-dealer"]
    assert by_location["variants/euchre.html#option-stick-the-dealer"]["boost"] > british["boost"]   # the base game first


def test_rules_weigh_more_than_examples_and_cases():
    index = {"docs": [{"location": "variants/euchre.html#example-made-three-tricks", "title": "Example 1", "text": "x"},
                      {"location": "variants/euchre.html#ex2-hand-1", "title": "hand 1", "text": "x"},
                      {"location": "corpus/made-three-tricks.html", "title": "Made", "text": "x"},
                      {"location": "variants/euchre.html#rules-play", "title": "The play", "text": "x"}]}
    rule = {"location": "variants/euchre.html#made", "title": "Makers take three", "text": "x"}
    docs = improve(index, [rule])["docs"]
    boosts = {d["location"]: d.get("boost", 1) for d in docs}
    assert boosts["variants/euchre.html#made"] == RULE_BOOST > boosts["variants/euchre.html#rules-play"] == 1
    assert boosts["variants/euchre.html#example-made-three-tricks"] == boosts["variants/euchre.html#ex2-hand-1"] == EXAMPLE_BOOST
    assert boosts["corpus/made-three-tricks.html"] == CASE_BOOST


def test_accents_are_searchable_without_them():
    assert fold("Misère Écarté") == "Misere Ecarte"
    docs = improve({"docs": [{"location": "a.html", "title": "Misère", "text": "<p>open misère</p>"}]}, [])["docs"]
    assert "misere" in docs[0]["text"].lower() and docs[0]["title"] == "Misère"
