"""The comparison page reads at a glance: a scoring cell shows only the rows that differ from
the base game, no cell says one thing twice or garbles a step that sets trumps, and a table
says which house rules each variant turns on."""

from __future__ import annotations

import html
import re

import pytest

# one worker generates the site once for every module that reads it (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("generated-site")


@pytest.fixture(scope="module")
def page(generated_site) -> str:
    return generated_site.pages["variants/compare.md"]


def table_rows(page: str, caption: str) -> dict[str, dict[str, str]]:
    """A comparison table as {row head: {column head: cell text}}."""
    start = page.index(caption)
    table = page[start:page.index("</table>", start)]
    heads = [html.unescape(re.sub(r"<[^>]+>", "", h)) for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', table)]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]:
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        text = [re.sub(r"<br>", " / ", c) for c in cells]
        text = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in text]
        rows[text[0]] = dict(zip(heads[1:], text[1:]))
    return rows


def test_a_scoring_cell_shows_only_what_differs(page):
    rows = table_rows(page, "Euchre for more players against Euchre")
    six = rows["A hand is worth"]["Six-handed Euchre"]
    assert six.startswith("Lone march: 5") and "as Euchre: 7 of its 8 rows" in six, six
    assert "Euchred: 2" not in six


def test_no_cell_says_a_thing_twice_or_garbles_trumps(page):
    more = table_rows(page, "Euchre for more players against Euchre")
    buck = more["Making trumps"]["Buck Euchre"]
    assert "if the upcard is a club" in buck and "all pass: played at no-trumps" in buck
    assert "all pass: played at ♣" not in buck
    assert "upcard upcard" not in page and "played at upcard" not in page
    for rows in (more, table_rows(page, "Euchre for two and three against Euchre")):
        for axis, cells in rows.items():
            for variant, text in cells.items():
                parts = [p.strip() for p in re.split(r";| / ", text) if p.strip()]
                assert len(parts) == len(set(parts)), f"{axis} / {variant} says a thing twice: {text}"


def test_a_table_of_the_house_rules_each_variant_turns_on(page):
    assert "{#house-rules}" in page
    rows = table_rows(page, "House rules by variant")
    assert rows["Stick the dealer"]["Euchre as OpenSpiel plays it"] == "on"
    assert rows["Stick the dealer"]["Euchre"] == "off"
    assert rows["Railroading (partner's best card)"]["Railroad Euchre"] == "on"
    assert rows["UK style (the Benny)"]["British Euchre"] == "joker"
