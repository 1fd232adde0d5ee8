"""The variant pages teach as a rules site for players does: scoring told commonest hand
first, a natural hand (not a stacked deck, no refused moves) as the first worked example,
sentences that read as English for two and three players, and a Euchre page short enough
for a phone (reference material folded). Checked on the generated Markdown (no mkdocs).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from reference_impl.catalog import variant_ids
from reference_impl.resolve import resolve
from rules_site.corpus import load_site_cases
from rules_site.notation import Notation
from rules_site.scoring_order import by_commonness
from rules_site.variant import has_refusals, natural_deal, pick_examples
from rules_site.words import awards_words, step_words

DOCS = Path(__file__).resolve().parent.parent / "docs"

# one worker generates the site once for every module that reads it (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("generated-site")


@pytest.fixture(scope="module")
def site(generated_site):
    return generated_site


def section(page: str, anchor: str) -> str:
    start = page.index(f"{{#{anchor}}}")
    following = re.search(r"\n#{2,3} ", page[start:])
    return page[start:start + following.start()] if following else page[start:]


def test_euchre_scoring_is_told_commonest_hand_first(site):
    """A hand with partners made (1 point) comes first, the lone defender's march (4) last,
    in the summary and in the Scoring section alike."""
    page = site.pages["variants/euchre.md"]
    glance = page[page.index('class="es-glance"'):]
    worth = glance[glance.index("A hand is worth"):glance.index("</ul>")]
    order = re.findall(r'href="#([a-z0-9-]+)"', worth)
    assert order[0] == "made" and order[1] == "euchre" and order[-1] == "lone-defender-march", order
    assert order.index("march") < order.index("lone-march")
    scoring = section(page, "rules-scoring")
    ids = re.findall(r'<div class="es-rule" id="([a-z0-9-]+)"', scoring)
    assert ids[:3] == ["made", "euchre", "march"], ids
    assert ids[-1] == "lone-defender-march"


def test_five_hundred_and_buck_scoring_order():
    five = resolve("five-hundred").table
    assert [r["id"] for r in by_commonness(five["scoring"]["rows"], five)][:2] == ["contract-made", "contract-set"]
    buck = resolve("buck-euchre").table
    assert [r["id"] for r in by_commonness(buck["scoring"]["rows"], buck)] == ["made", "euchred", "everyone-plays"]


def test_the_first_example_is_a_natural_hand():
    by_variant = defaultdict(list)
    for case in load_site_cases():
        by_variant[case.variant].append(case)
    for variant in variant_ids():
        cases = by_variant.get(variant, [])
        chosen = pick_examples(cases)
        if not chosen:
            continue
        natural = [c for c in cases if c.hand_written and natural_deal(c) and not has_refusals(c)
                   and any(s["action"].startswith("play:") for h in c.hands for s in h["steps"])]
        if natural:
            assert natural_deal(chosen[0]) and not has_refusals(chosen[0]), f"{variant}: {chosen[0].id} opens the examples"
    euchre = pick_examples(by_variant["euchre"])[0]
    assert euchre.id != "deal-by-packets-lone-march" and not euchre.options


def test_a_stacked_deck_is_told_from_a_natural_one():
    stacked = next(c for c in load_site_cases() if c.id == "deal-by-packets-lone-march")   # each player one suit
    assert not natural_deal(stacked)
    assert natural_deal(next(c for c in load_site_cases() if c.id == "made-three-tricks"))


def test_sentences_for_two_and_three_players(site):
    for variant in ("two-hand", "two-hand-dummy"):
        page = site.pages[f"variants/{variant}.md"]
        head = page[page.index("{#object}"):page.index("{#test-cases}")]
        assert "each defender" not in head and "all the others" not in head, variant
        assert " ;" not in re.sub(r"<[^>]+>", "", head), variant
    two = resolve("two-hand").table
    exchange = next(s for s in two["hand"] if s.get("kind") == "exchange")
    said = step_words(exchange, two, Notation(two))
    assert said.count("takes the upcard") == 1, said          # the two takes of the table, said once
    assert "may decline" in said


def test_buck_scoring_reads_as_a_sentence():
    buck = resolve("buck-euchre").table
    made = next(r for r in buck["scoring"]["rows"] if r["id"] == "made")
    said = awards_words(made["award"], buck, Notation(buck))
    assert said == "each player in the hand takes 1 point off for each trick taken, and has 5 points added if he takes no tricks"
    euchre = resolve("euchre").table
    assert awards_words([{"to": "makers", "points": 2}], euchre, Notation(euchre)) == "the makers score 2 points"


def visible_words(markdown: str) -> int:
    """Words a reader sees without opening anything: the text outside closed <details>
    (their summaries kept), the folded "about this rule" lines left out."""
    innermost = re.compile(r"<details[^>]*>\s*(?:<summary>(.*?)</summary>)?(?:(?!<details).)*?</details>", re.S)
    text = markdown
    while True:              # innermost first: a closed <details> hides the ones inside it
        text, count = innermost.subn(lambda m: f"[{m.group(1) or ''}]", text)
        if not count:
            break
    text = re.sub(r"<script.*?</script>", "", text, flags=re.S)
    text = re.sub(r"<[^>]+>|\{[^}]*\}", " ", text)
    return len(re.findall(r"[\w♠♣♥♦]+", text))


def test_the_euchre_page_is_short_enough_for_a_phone(site):
    """About 6,200 words before; the house rules, the later examples' hands and the notes on
    the sources are folded, so a reader sees under 3,500 until he opens one."""
    words = visible_words(site.pages["variants/euchre.md"])
    assert words < 3500, f"the Euchre page shows {words} words"


def test_the_home_page_speaks_to_a_player_first():
    """Before the engine material, a section that says "learn to play" and leads to the
    Euchre page (and the games for fewer players and Five Hundred)."""
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    learn = home.index("## Learn to play")
    assert learn < home.index("## Two commands")
    section = home[learn:home.index("\n## ", learn + 1)]
    for page in ("variants/euchre.md", "variants/two-hand-dummy.md", "variants/five-hundred.md"):
        assert f"({page})" in section, page


def test_every_variant_opens_with_a_natural_teaching_hand(site):
    """The hand each page opens with is played to its end with no refused move, trumps made by
    a player, a note on every trick's winning card and none elsewhere, under a title in
    players' words; it comes before the object of the game, and the test cases stay off the
    page (only linked)."""
    for variant in variant_ids():
        hand = site.teaching.get(variant)
        assert hand is not None, f"{variant}: no teaching hand"
        record = hand.replay.hands[0]
        assert hand.replay.problem is None and not any(r.refused for r in record.steps), variant
        end = record.end or {}
        assert end.get("trump"), f"{variant}: no trumps made"
        tricks = end.get("tricks") or []
        assert tricks and all(t.get("winner") is not None for t in tricks), variant
        noted = {(r.step["seat"], r.step["action"][5:]) for r in record.steps if r.step.get("why")}
        winners = {(t["winner"], next(c for s, c in t["cards"] if s == t["winner"])) for t in tricks}
        assert noted == winners, f"{variant}: notes on {sorted(noted - winners)}, none on {sorted(winners - noted)}"
        assert not re.search(r"\b(?:seat \d|call:|play:|bid:|[2-9TJQKA][CDHS]\b)", hand.title), hand.title
        page = site.pages[f"variants/{variant}.md"]
        assert page.index("{#teaching-hand}") < page.index("{#object}"), variant
        assert "{#example-" not in page and 'class="es-refusals"' not in page, f"{variant}: a test case told on the page"


def test_a_teaching_hand_is_checked_by_hand():
    """Euchre's hand, worked out from the rules by hand (see the notes of issue 38): East holds
    J♣ K♣ 10♣ and A♥ and orders up the 9♣; North, the dealer, takes it and discards Q♠, and
    holds the left bower J♠. J♣ (right bower) wins trick 1; J♠ (left bower) beats K♣ in trick 2;
    East trumps the A♦ with 10♣; North trumps the A♥ with Q♣; North's A♠ wins the last. North–
    South take three: East–West are euchred, 2 points to North–South."""
    from rules_site.teaching import teaching_hand
    hand = teaching_hand(resolve("euchre"))
    record = hand.replay.hands[0]
    tricks = [(t["winner"], [c for _, c in t["cards"]]) for t in record.end["tricks"]]
    assert hand.title == "East orders up clubs and is euchred"
    assert tricks == [(1, ["JC", "9S", "9D", "9C"]), (0, ["KC", "TD", "TS", "JS"]), (1, ["AD", "TC", "KD", "QD"]),
                      (0, ["AH", "TH", "QH", "QC"]), (0, ["AS", "JH", "KS", "KH"])]
    assert record.end["hand_points"] == [2, 0]
