"""The built pages read as prose for players: no variant page has two consecutive headings
with the same text, no page repeats a heading, and no raw token (a card as ``AH``, a bid as
``7NT``, a table value as ``partner-sits-out``, "score index") is left in the prose of the
rules pages; tokens belong in code, in the protocol and in the case scripts only."""

from __future__ import annotations

import re

from site_support import built_site, page_text  # noqa: F401 (a fixture)

from reference_impl.catalog import variant_ids

CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|JK)\b")
BID = re.compile(r"\b\d+(?:NT|NL|[CDHS])\b")
TABLE_WORDS = re.compile(r"\b(?:partner-sits-out|forgo-widow|maker-against-rest|before-exchange|first-black-jack|"
                         r"score index|upcard-rounds|lone-defender-march|def\.)")
RULES_PAGES = ["variants/index.html", "variants/compare.html", "egn.html"]


def rules_pages(site):
    return [site / "variants" / f"{v}.html" for v in variant_ids()] + [site / p for p in RULES_PAGES]


def test_no_two_consecutive_headings_say_the_same(built_site):
    for page in rules_pages(built_site):
        headings = page_text(page).headings
        for (l1, t1, _), (l2, t2, _) in zip(headings, headings[1:]):
            assert t1.lower() != t2.lower(), f"{page.name}: '{t1}' twice in a row"


def test_headings_are_unique_within_every_page(built_site):
    repeated = []
    for page in sorted(built_site.rglob("*.html")):
        if page.name == "404.html":
            continue
        texts = [t.lower() for _, t, _ in page_text(page).headings]
        dup = sorted({t for t in texts if texts.count(t) > 1})
        if dup:
            repeated.append(f"{page.relative_to(built_site)}: {dup[:3]}")
    assert not repeated, f"{len(repeated)} pages repeat a heading, e.g. {repeated[:5]}"


def test_no_raw_tokens_in_the_prose_of_the_rules(built_site):
    found = []
    for page in rules_pages(built_site):
        prose = " ".join(page_text(page).prose)
        for pattern in (CARD, BID, TABLE_WORDS):
            for match in pattern.finditer(prose):
                found.append(f"{page.name}: …{prose[max(0, match.start() - 40):match.end() + 20]}…")
    assert not found, f"{len(found)} raw tokens in prose, e.g. {found[:6]}"


def test_variant_pages_teach_before_they_cite(built_site):
    """The object of the game comes first, the provenance is folded, the hash is last."""
    for variant in variant_ids():
        text = page_text(built_site / "variants" / f"{variant}.html")
        anchors = [a for _, _, a in text.headings]
        assert anchors[1] == "object", f"{variant}: the page does not open with the object of the game"
        assert anchors.index("rules") < anchors.index("worked-examples") < anchors.index("options") < anchors.index("table")
        html = (built_site / "variants" / f"{variant}.html").read_text(encoding="utf-8")
        assert html.index("SHA-256") > html.index('id="options"')
        assert 'class="es-about"' in html


def test_ids_are_unique_within_every_page(built_site):
    import collections
    repeated = []
    for page in sorted(built_site.rglob("*.html")):
        ids = re.findall(r'\sid="([^"]+)"', page.read_text(encoding="utf-8"))
        dup = [i for i, n in collections.Counter(ids).items() if n > 1]
        if dup:
            repeated.append(f"{page.relative_to(built_site)}: {dup[:3]}")
    assert not repeated, f"{len(repeated)} pages repeat an id, e.g. {repeated[:5]}"
