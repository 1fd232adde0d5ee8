"""The built pages read as prose for players: no variant page has two consecutive headings
with the same text, no page repeats a heading, and no raw token (a card as ``AH``, a bid as
``7NT``, a table value as ``partner-sits-out``, "score index") is left in the prose of the
rules pages; tokens belong in code, in the protocol and in the case scripts only."""

from __future__ import annotations

import re

from site_support import BUILT_SITE, built_site, page_text  # noqa: F401 (a fixture)

from reference_impl.catalog import variant_ids

pytestmark = BUILT_SITE   # room to wait for the site's build (started at collection)

CARD = re.compile(r"\b(?:(?:1[1-9]|[2-9TJQKA])[CDHS]|JK)\b")
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
        assert anchors[1] == "teaching-hand", f"{variant}: the page does not open with a teaching hand"
        assert anchors.index("teaching-hand") < anchors.index("object") < anchors.index("rules")
        assert anchors.index("rules") < anchors.index("test-cases") < anchors.index("options") < anchors.index("table")
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


SEAT_NUMBER = re.compile(r"\b(?:North|East|South|West|Player \d+|Seat \d+)\s*\(\d+\)|\bSeats? \d\b")
SOURCE_LABEL = re.compile(r"\bseed (?:document )?\d{3}\b|\\")
PROTOCOL_CODE = re.compile(r"<code>((?:pass|order|stay|drop|alone|defend-alone|swap|take|give|true|false|"
                           r"(?:call|name|bid|play|discard|give|take):[^<]*))</code>")
ARTICLE = re.compile(r"<article\b.*?</article>", re.S)


def test_no_seat_numbers_in_the_prose_of_the_rules(built_site):
    """Players are North, East, South, West (or Player 1, 2, 3): never "North (0)" nor "Seat 0",
    which are the protocol's numbering."""
    found = []
    for page in rules_pages(built_site) + [built_site / "index.html"]:
        prose = " ".join(page_text(page).prose)
        found += [f"{page.name}: …{prose[max(0, m.start() - 40):m.end() + 20]}…" for m in SEAT_NUMBER.finditer(prose)]
    assert not found, f"{len(found)} seat numbers in prose, e.g. {found[:6]}"


def test_no_protocol_tokens_on_the_rules_pages(built_site):
    """No action token (`order`, `call:NT`, `stay`, `name:<suit>`...) and no option value as
    `true`/`false` anywhere in a rules page's article, code included: those belong to the
    case pages and the protocol. (The EGN page documents a record format, whose literal
    values it quotes.)"""
    found = []
    for page in rules_pages(built_site):
        if page.name == "egn.html":
            continue
        article = "".join(ARTICLE.findall(page.read_text(encoding="utf-8")))
        found += [f"{page.name}: {m.group(1)} in …{re.sub('<[^>]+>', '', article[max(0, m.start() - 160):m.start()])[-60:]}"
                  for m in PROTOCOL_CODE.finditer(article)]
    assert not found, f"{len(found)} protocol tokens, e.g. {found[:8]}"


def test_sources_are_named_for_readers(built_site):
    """A source by its title, not "seed 001", and no stray backslash from Markdown escaping."""
    found = []
    for page in rules_pages(built_site):
        text = page_text(page)
        prose = " ".join(text.prose)
        article = re.sub(r"<[^>]+>", " ", "".join(ARTICLE.findall(page.read_text(encoding="utf-8"))))
        found += [f"{page.name}: …{prose[max(0, m.start() - 40):m.end() + 20]}…" for m in SOURCE_LABEL.finditer(prose)]
        found += [f"{page.name} (code): …{article[max(0, m.start() - 40):m.end() + 20]}…"
                  for m in re.finditer(r"\\", article)]
    assert not found, f"{len(found)} source labels or backslashes, e.g. {found[:6]}"
