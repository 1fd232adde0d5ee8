"""The site's generated pages, without mkdocs: every variant page has an anchor for every
clause and option, its sections in the order of its own hand steps, each clause said once,
cards and bids and seats in players' notation; the comparison, the EGN page and the
compliance page render whatever is there."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from reference_impl.catalog import variant_ids
from reference_impl.resolve import resolve
from rules_site import words as W
from rules_site.compliance import Attribution, label_reports, read_report, render_compliance
from rules_site.corpus import load_site_cases, replay
from rules_site.egn import render_egn
from rules_site.examples import render_example, render_script, viewer_data
from rules_site.hooks import _insert_variants
from rules_site.links import Links, md_text
from rules_site.notation import Notation, card_html, suit_html
from rules_site.phases import phase_clause, step_of_phase
from rules_site.tables import SiteError, all_views, base_variant, fill, table_diff, variant_view
from rules_site.variant import pick_examples, plan_sections

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
ANCHOR = re.compile(r'(?:\{#|\bid=")([a-z0-9-]+)')

# one worker generates the site once for every module that reads it (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("generated-site")


@pytest.fixture(scope="module")
def site(generated_site):
    return generated_site


def anchors(page: str) -> list[str]:
    return ANCHOR.findall(page)


def test_a_page_for_every_variant_with_an_anchor_per_clause_and_option(site):
    assert set(variant_ids()) == {variant for variant, _ in site.variants}
    for variant in variant_ids():
        page = site.pages[f"variants/{variant}.md"]
        ids = anchors(page)
        own = [i for i in ids if not re.match(r"ex\d+-|story-", i)]
        assert len(own) == len(set(own)), f"{variant}: an id is used twice"
        view = variant_view(variant)
        missing = view.clause_ids() - set(ids)
        assert not missing, f"{variant}: no anchor for {sorted(missing)}"
        for key in view.options:
            assert f"option-{key}" in ids
        # each clause's text appears once: the page says each rule once
        for clause in view.clauses:
            text = md_text(fill(clause["text"], view.table))[:60]
            assert page.count(f'id="{clause["id"]}"') == 1


def test_every_clause_a_case_cites_is_an_anchor(site):
    for case in site.cases:
        missing = [c for c in case.cited_clauses() if c not in site.anchors.get(case.variant, set())]
        assert not missing, f"{case.id} cites {missing}, which {case.variant}'s page does not have"


def test_sections_follow_the_tables_own_steps():
    """The rules are told in the order of the table's hand steps: by default Euchre asks the
    maker about going alone before the dealer's discard, and the page says so in that order;
    with the declaration after the exchange, the other way round."""
    for variant in variant_ids():
        table = resolve(variant).table
        sections = plan_sections(table, Notation(table))
        keys = [s.key for s in sections]
        assert keys[:3] == ["players", "cards", "dealing"] and keys[-2:] == ["scoring", "game"], variant
        hand = [s for s in sections if s.steps]
        order = [step["id"] for s in hand for step in s.steps]
        assert order == [step["id"] for step in table["hand"]], variant
        placed = [c["id"] for s in sections for c in s.clauses]
        assert sorted(placed) == sorted(c["id"] for c in table["clauses"]), f"{variant}: a clause placed twice or not at all"
    default = [s.key for s in plan_sections(resolve("euchre").table, Notation(resolve("euchre").table))]
    assert default.index("alone") < default.index("exchange")
    later = resolve("euchre", {"alone-declared": "after-exchange"}).table
    moved = [s.key for s in plan_sections(later, Notation(later))]
    assert moved.index("exchange") < moved.index("alone")


def test_the_page_opens_with_the_object_and_a_summary(site):
    page = site.pages["variants/euchre.md"]
    assert page.index("{#object}") < page.index("es-glance") < page.index("{#rules}")
    assert page.index("{#rules}") < page.index("{#test-cases}") < page.index("{#options}") < page.index("{#table}")
    summary = page[page.index("{#object}"):page.index("{#rules}")]
    for row in ("Players", "Pack", "Deal", "Trumps", "A hand is worth", "Game"):
        assert f">{row}</a></th>" in summary, row
    assert "North–South against East–West" in summary
    assert "10 points" in summary
    assert page.index("SHA-256") > page.index("{#table}")             # the hash at the bottom


def test_players_notation(site):
    """Cards and bids as players write them, seats by name (never by the protocol's number), scores by side."""
    euchre = Notation(resolve("euchre").table)
    assert euchre.seat(2) == "South" and euchre.unit(1) == "East–West"
    assert "10♥" in card_html("TH") and "es-red" in card_html("TH")
    assert 'aria-label="jack of hearts"' in card_html("JH")
    assert "es-red" in suit_html("D") and "♦" in suit_html("D")
    five = Notation(resolve("five-hundred").table)
    assert five.bid_text("6H") == "6♥" and five.bid_text("7NT") == "7 NT" and five.bid_text("10S") == "10♠"
    assert five.benny == "the joker"
    assert five.seat(1) == "Player 2" and five.unit(2) == "Player 3"
    prose = euchre.prose_html("seat 1 holds the TC and must follow; seats 0 and 2 sit out")
    assert "East holds the" in prose and "10♣" in prose and "North and South sit out" in prose
    assert "TC" not in re.sub(r"<[^>]+>", "", prose)
    assert five.prose_text("bid 7NT over 6H") == "bid 7 NT over 6♥"
    named = dict(resolve("two-hand").table)
    assert Notation(named).seat(0) == "South"                   # players.names
    six = Notation(resolve("six-hand").table)
    assert six.unit(0) == "Player 1, Player 3 and Player 5"      # terms.team says "seats 0, 2 and 4"
    for variant in variant_ids():
        page = site.pages[f"variants/{variant}.md"]
        assert "score index" not in page and "partner-sits-out" not in page


def test_conditions_and_steps_in_words():
    table = resolve("euchre").table
    w = Notation(table)
    assert W.condition_words({"maker-tricks": [3, 4], "alone": True}, table, w) == "the makers take 3 or 4 tricks and the maker plays alone"
    assert W.condition_words({"maker-tricks": [0, 2]}, table, w) == "the makers take fewer than 3 tricks"
    assert W.condition_words({"maker-tricks": 5}, table, w) == "the makers take all 5 tricks"
    assert W.condition_words({"made": False, "forced-contract": True}, table, w) == \
        "the makers fail and the contract was forced (its maker could not pass)"
    assert W.condition_words({"forced-contract": False}, table, w) == "the contract was bid freely (not forced)"
    assert W.sequence_words("DDMMM") == "the defenders take the first two tricks and the makers take the last three tricks"
    assert W.points_words({"contract-value": 1, "at-least": 250}) == "the bid's value, at least 250"
    for variant in variant_ids():
        table = resolve(variant).table
        w = Notation(table)
        for step in table["hand"]:
            assert W.step_words(step, table, w)[:1].isupper(), (variant, step["id"])
        assert W.object_words(table, w).endswith(".")
    # an unknown atom is shown, never dropped
    assert "<code>shuffle</code>" in W.condition_words({"shuffle": "riffle"}, table, w)


def test_ranking_is_read_from_the_interpreter(site):
    page = site.pages["variants/euchre.md"]
    cards = page[page.index("{#rules-cards}"):page.index("{#rules-dealing}")]
    hearts = cards[cards.index('aria-label="hearts"'):]
    faces = re.findall(r'aria-label="([a-z ]+ of [a-z]+|joker)"', hearts)[:3]
    assert faces == ["jack of hearts", "jack of diamonds", "ace of hearts"]
    five = site.pages["variants/five-hundred.md"]
    assert "no-trumps" in five and 'aria-label="joker"' in five


def test_option_values_show_the_rules_they_bring(site):
    for variant in variant_ids():
        view = variant_view(variant)
        page = site.pages[f"variants/{variant}.md"]
        for key, choices in view.choices.items():
            block = page[page.index(f'id="option-{key}"'):]
            for choice in choices:
                assert choice.error is None, f"{variant} {key}={choice.value}: {choice.error}"
                for clause in choice.clauses_added:
                    assert f'id="{clause["id"]}"' in page


def test_table_diff_reports_the_highest_changed_path():
    before = {"game": {"target": 10}, "scoring": {"rows": [{"id": "a", "award": 1}, {"id": "b", "award": 2}]}}
    after = copy.deepcopy(before)
    after["game"]["target"] = 5
    after["scoring"]["rows"][1] = {"id": "c", "award": 4}
    assert table_diff(before, after) == [("game.target", 10, 5), ("scoring.rows.b", {"id": "b", "award": 2}, ...),
                                         ("scoring.rows.c", ..., {"id": "c", "award": 4})]
    moved = {"hand": [{"id": "x"}, {"id": "y"}]}
    assert table_diff(moved, {"hand": [{"id": "y"}, {"id": "x"}]}) == [("hand", ["x", "y"], ["y", "x"])]


def test_placeholders_are_filled_from_the_table(site):
    for variant in variant_ids():
        leftover = re.findall(r"(?<!\\)\{[a-z0-9-]+(?:\.[a-z0-9-]+)+\}", site.pages[f"variants/{variant}.md"])
        assert not leftover, f"{variant}: placeholders left: {leftover[:3]}"
    table = resolve("euchre").table
    assert fill("to {game.target} points", table) == f"to {table['game']['target']} points"
    assert fill("{scoring.rows.lone-march.award.0.points}", table) == "4"
    with pytest.raises(SiteError, match="game.nowhere"):
        fill("{game.nowhere}", table, "test")


def test_worked_example_tells_each_trick_by_seat():
    cases = [c for c in load_site_cases() if c.variant == "euchre" and c.hand_written]
    case = pick_examples(cases)[0]
    assert not case.options                          # the first example plays the default rules
    rep = replay(case)
    text = render_example(case, rep, Links("variants/euchre.md", {"euchre": variant_view("euchre").clause_ids()}))
    table = text[text.index('class="es-tricks"'):]
    head = re.findall(r'<th scope="col">([^<]*)', table[:table.index("</thead>")])
    assert head[0] == "Trick" and head[-1] == "Won" and len(head) == 2 + 4
    assert "es-win" in table and "es-led" in table
    assert "**Result.**" in text or "stops here" in text
    data = viewer_data(case, rep.hands[0], rep.table)
    accepted = [s for s in case.hands[0]["steps"] if not s.get("reject")]
    assert len(data["frames"]) == len(accepted) + 1 and data["seats"][0] == "North"
    assert all("legal" in f for f in data["frames"])


def test_refused_moves_are_set_apart():
    case = next(c for c in load_site_cases() if c.hand_written and any(s.get("reject") for h in c.hands for s in h["steps"]))
    text = render_example(case, replay(case), Links("corpus/x.md"))
    assert 'class="es-refusals"' in text
    decisions = re.findall(r'<ol class="es-decisions">(.*?)</ol>', text, re.S)
    assert all("refused" not in d for d in decisions)


def test_case_script_has_an_anchor_per_step():
    case = next(c for c in load_site_cases() if c.id == "made-three-tricks")
    script = render_script(case, Links("corpus/made-three-tricks.md"))
    for index in range(1, len(case.hands[0]["steps"]) + 1):
        assert f'id="h1-s{index}"' in script


def test_comparison_groups_by_family_and_dims_the_base_games_values(site):
    matrix = site.pages["variants/compare.md"]
    views = all_views()
    base = base_variant(views)
    assert base == "euchre"
    for family in {v.family for v in views}:
        section = matrix[matrix.index(f"## {family} {{#family-"):]
        assert section.index("- [**") < section.index('class="es-compare"')      # summaries first
    assert matrix.count('class="es-same"') >= 20
    assert matrix.count("(base game)") == len({v.family for v in views})     # the base game's column in every table
    for variant, _ in site.variants:
        assert f'{variant}.md' in matrix or f'{variant}/' in matrix or f'{variant}.html' in matrix
    # no table id in a cell: the cells are words
    cells = re.findall(r"<td>(.*?)</td>", matrix)
    assert not [c for c in cells if re.search(r"\b(forgo-widow|partner-sits-out|before-exchange)\b", c)]


def test_egn_page_maps_every_flag():
    views = all_views()
    page = render_egn(views, Links("egn.md", {v.id: v.clause_ids() for v in views}))
    flags = {o["egn"] for v in views for o in v.options.values() if o.get("egn")}
    assert flags
    for flag in flags:
        assert f"| `{flag}` |" in page, flag
    row = next(line for line in page.splitlines() if line.startswith("| `num_players` |"))
    upcard = [v for v in views if any(s["kind"] == "make-trumps" for s in v.table["hand"])]
    for view in views:
        assert (f"/{view.id}.md)" in row) == (view in upcard), view.id
    for count in {v.table["players"]["count"] for v in upcard}:
        assert f"`{count}`:" in row


def write_report(path: Path, lines: list) -> Path:
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_compliance_groups_failures_by_the_rule_of_the_failing_step(tmp_path):
    head = {"type": "header", "format": 1, "suite": {"name": "euchre-spec", "version": "0.1.0", "corpus_version": "0.0.1"},
            "engine": {"name": "toy-engine", "version": "3", "language": "Rust", "variants": {"euchre": {}}}}
    fail = {"where": "hand 1 step 1 (seat 1 order)", "message": "wrong phase", "field": "phase", "expected": "alone",
            "actual": "discard", "hand": 1, "step": 1, "seat": 1, "action": "order", "clause": {"id": "made", "title": "x"}}
    write_report(tmp_path / "toy.jsonl", [
        head,
        {"type": "case", "id": "made-three-tricks", "variant": "euchre", "clauses": ["made"], "outcome": "pass"},
        {"type": "case", "id": "made-three-tricks", "variant": "euchre", "clauses": ["made"], "outcome": "fail", "failure": fail},
        {"type": "case", "id": "other-case", "variant": "euchre", "clauses": ["made"], "outcome": "fail", "failure": fail},
        {"type": "case", "id": "gone-case", "variant": "euchre", "clauses": ["no-such-rule"], "outcome": "error",
         "detail": "engine crashed"},
        {"type": "case", "id": "x", "variant": "two-hand", "outcome": "unsupported", "detail": "variant not declared"},
        "{not json",
    ])
    write_report(tmp_path / "toy-again.jsonl", [head])
    reports = [read_report(tmp_path / "toy.jsonl"), read_report(tmp_path / "toy-again.jsonl")]
    assert reports[0].problems and reports[0].footer is None
    view = variant_view("euchre")
    links = Links("compliance/index.md", {"euchre": view.clause_ids()}, {"made-three-tricks"}, {},
                  {"euchre": view.clause_titles()})
    cases = {c.id: c for c in load_site_cases() if c.id == "made-three-tricks"}
    attribute = Attribution(cases, {}, lambda v: resolve(v).table)
    page = render_compliance(reports, [("euchre", "Euchre"), ("two-hand", "Two-handed Euchre")], links, "0.1.0", attribute)
    assert "toy-engine 3" in page
    assert "toy-engine 3 (toy-again)" in page or "toy-engine 3 on" in page       # two reports of one engine told apart
    # a phase mismatch is filed under the rule of the phase the rules go to, not the case's first clause
    assert "[Going alone](../variants/euchre.md#going-alone)" in page
    assert "expected phase `alone`, got `discard`" in page and ": **2**" in page
    assert "(../corpus/made-three-tricks.md#h1-s1)" in page               # linked to the failing step
    assert "`gone-case`" in page and "../variants/euchre.md#no-such-rule" not in page   # no dead link
    assert "could not be read in full" in page and "no footer" in page
    assert "the corpus has changed since" in page
    assert render_compliance([], [], links).count("No report yet") == 1


def test_phases_map_to_steps_and_clauses():
    table = resolve("euchre").table
    assert step_of_phase(table, "alone")["id"] == "going-alone"
    assert phase_clause(table, "bid-round-2") == "round-2"
    assert phase_clause(table, "discard") == "dealer-pickup"
    assert phase_clause(table, "play") == "lead"
    assert phase_clause(table, "no-such-phase") is None


def test_committed_reports_are_readable():
    reports = sorted((DOCS / "compliance" / "reports").glob("*.jsonl"))
    assert {p.stem for p in reports} >= {"reference", "euchrelib"}
    loaded = [read_report(path) for path in reports]
    for report in loaded:
        assert not report.problems, f"{report.path.name}: {report.problems}"
        assert report.footer is not None and report.cases
    label_reports(loaded)
    assert len({r.label for r in loaded}) == len(loaded)


def test_links_between_pages():
    links = Links("corpus/some-case.md")
    assert links.to("variants/euchre.md", "made") == "../variants/euchre.md#made"
    assert links.url("variants/euchre.md", "made") == "../../variants/euchre/#made"
    assert Links("corpus/x.md", directory_urls=False).url("variants/euchre.md", "m") == "../variants/euchre.html#m"
    assert md_text("a_b *c* `x_y` <b>") == "a\\_b \\*c\\* `x_y` &lt;b&gt;"


def test_generated_pages_are_not_in_docs(site):
    for path in site.pages:
        assert not (DOCS / path).exists(), f"docs/{path} is generated: it must not be committed"


def test_hook_lists_the_variants_after_the_variants_index():
    nav = [{"Home": "index.md"}, {"The rules": ["variants/index.md", "variants/compare.md"]}]
    assert _insert_variants(nav, [{"Euchre": "variants/euchre.md"}])
    assert nav[1]["The rules"] == ["variants/index.md", {"Euchre": "variants/euchre.md"}, "variants/compare.md"]
    assert not _insert_variants([{"Home": "index.md"}], [])
