"""The site's generated pages, without mkdocs: every variant page has a heading for every
clause, its placeholders filled from the table, worked examples, the options with what they
change; the matrix, the schema pages and the compliance page render whatever is there."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from rules_site import describe
from rules_site.build import build_site
from rules_site.cards import card_html, suit_html
from rules_site.compliance import read_report, render_compliance
from rules_site.corpus import load_site_cases, replay
from rules_site.examples import render_example
from rules_site.hooks import _insert_variants
from rules_site.links import Links, md_text
from rules_site.tables import SiteError, fill, table_diff, variant_view
from rules_site.variant import pick_examples
from reference_impl.catalog import variant_ids
from reference_impl.resolve import resolve

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
HEADING_ID = re.compile(r"^#{1,6} .*\{#([a-z0-9-]+)\}\s*$", re.M)


@pytest.fixture(scope="module")
def site():
    return build_site(DOCS)


def test_a_page_for_every_variant_with_a_heading_per_clause(site):
    assert set(variant_ids()) == {variant for variant, _ in site.variants}
    for variant in variant_ids():
        page = site.pages[f"variants/{variant}.md"]
        ids = HEADING_ID.findall(page)
        assert len(ids) == len(set(ids)), f"{variant}: a heading id is used twice"
        view = variant_view(variant)
        missing = view.clause_ids() - set(ids)
        assert not missing, f"{variant}: no heading for {sorted(missing)}"
        for key in view.options:
            assert f"option-{key}" in ids


def test_every_clause_a_case_cites_is_an_anchor(site):
    for case in site.cases:
        missing = [c for c in case.cited_clauses() if c not in site.anchors.get(case.variant, set())]
        assert not missing, f"{case.id} cites {missing}, which {case.variant}'s page does not have"


def test_every_variant_has_a_worked_example(site):
    for variant in variant_ids():
        assert site.examples[variant], f"{variant} has no worked example"
        page = site.pages[f"variants/{variant}.md"]
        assert f"{{#example-{site.examples[variant][0]}}}" in page
        hand_written = [c for c in site.cases if c.variant == variant and c.hand_written]
        if hand_written:
            chosen = {c.id for c in hand_written}
            assert set(site.examples[variant]) <= chosen, f"{variant}: an example is not hand-written"


def test_placeholders_are_filled_from_the_table(site):
    for variant in variant_ids():
        leftover = re.findall(r"(?<!\\)\{[a-z0-9-]+(?:\.[a-z0-9-]+)+\}", site.pages[f"variants/{variant}.md"])
        assert not leftover, f"{variant}: placeholders left: {leftover[:3]}"
    table = resolve("euchre").table
    assert fill("to {game.target} points", table) == f"to {table['game']['target']} points"
    assert fill("{scoring.rows.march.award.makers}", table) == str(
        next(r for r in table["scoring"]["rows"] if r["id"] == "march")["award"]["makers"])
    with pytest.raises(SiteError, match="game.nowhere"):
        fill("{game.nowhere}", table, "test")


def test_option_choices_show_what_they_change(site):
    for variant in variant_ids():
        view = variant_view(variant)
        page = site.pages[f"variants/{variant}.md"]
        for key, choices in view.choices.items():
            for choice in choices:
                assert choice.error is None, f"{variant} {key}={choice.value}: {choice.error}"
                if choice.changes:
                    path = choice.changes[0][0]
                    assert f"`{path}`" in page, f"{variant}: the change of {key}={choice.value} to {path} is not shown"


def test_describers_read_every_table_and_keep_unknown_fields():
    for variant in variant_ids():
        view = variant_view(variant)
        tables = [view.table] + [c.table for cs in view.choices.values() for c in cs if c.table is not None]
        for table in tables:
            for section, describer in describe.DESCRIBERS.items():
                assert describer(table), f"{variant}: nothing said about {section}"
            assert describe.describe_scoring(table, lambda row: row["id"])
    table = copy.deepcopy(resolve("euchre").table)
    table["deal"]["shuffle"] = "riffle"
    table["game"]["simultaneous"] = ["makers", "coin-toss"]
    assert "`deal.shuffle` = `riffle`" in "\n".join(describe.describe_deal(table))
    assert "`coin-toss`" in "\n".join(describe.describe_game(table))


def test_ranking_is_drawn_with_the_bowers():
    table = resolve("euchre").table
    assert describe.trump_order(table, "H")[:3] == ["JH", "JD", "AH"]
    assert "JD" not in describe.plain_order(table, "D", "H")
    assert describe.plain_order(table, "S", "H")[3] == "JS"
    if "benny" in table.get("options", {}):
        benny = resolve("euchre", {"benny": "joker"}).table
        assert describe.trump_order(benny, "C")[0] == "JK"


def test_cards_are_drawn_in_their_colours():
    assert 'es-red' in card_html("JH") and "J♥" in card_html("JH")
    assert 'es-black' in card_html("TS") and "10♠" in card_html("TS")
    assert "es-joker" in card_html("JK")
    assert 'es-red' in suit_html("D") and "♦" in suit_html("D")
    assert "es-red" in card_html("AS", {"S": "red"})


def test_table_diff_reports_the_highest_changed_path():
    before = {"game": {"target": 10}, "scoring": {"rows": [{"id": "a", "award": 1}, {"id": "b", "award": 2}]}}
    after = copy.deepcopy(before)
    after["game"]["target"] = 5
    after["scoring"]["rows"][1] = {"id": "c", "award": 4}
    assert table_diff(before, after) == [("game.target", 10, 5), ("scoring.rows.b", {"id": "b", "award": 2}, ...),
                                         ("scoring.rows.c", ..., {"id": "c", "award": 4})]


def test_worked_example_tells_tricks_and_result():
    cases = [c for c in load_site_cases() if c.variant == "euchre" and c.hand_written]
    case = pick_examples(cases)[0]
    text = render_example(case, replay(case), Links("variants/euchre.md", {"euchre": variant_view("euchre").clause_ids()}))
    assert "es-tricks" in text and "es-card" in text
    assert "**Result.**" in text or "stops here" in text
    assert "(#" in text          # rules link to their anchors on the same page


def test_matrix_compares_every_variant(site):
    matrix = site.pages["variants/compare.md"]
    for variant, title in site.variants:
        assert f"]({variant}.md)" in matrix, variant
    header = next(line for line in matrix.splitlines() if line.startswith("| Axis |"))
    assert header.count("|") == len(site.variants) + 2


def test_schema_pages(site):
    from reference_impl.catalog import schema_dir
    for source in sorted(schema_dir().rglob("*.json")):
        rel = source.relative_to(schema_dir()).as_posix()
        schema = json.loads(source.read_text(encoding="utf-8"))
        page = site.pages["schema/" + rel.removesuffix(".schema.json").removesuffix(".json") + ".md"]
        assert f"[Download `{Path(rel).name}`]({Path(rel).name})" in page
        for name in schema.get("properties", {}):
            assert f"| `{name}` |" in page, f"{rel}: property {name}"
        for name in schema.get("$defs", {}):
            assert re.search(rf"\{{#def-{name.lower()}\}}", page), f"{rel}: definition {name}"
        for ref in re.findall(r'"\$ref": "([a-z-]+)\.schema\.json#/\$defs/(\w+)"', source.read_text(encoding="utf-8")):
            assert f"{ref[0]}.md#def-{ref[1].lower()}" in page, f"{rel}: $ref {ref} is not a link"


def write_report(path: Path, lines: list) -> Path:
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_compliance_renders_any_report(tmp_path):
    head = {"type": "header", "format": 1, "suite": {"name": "euchre-spec", "version": "0.1.0", "corpus_version": "0.0.1"},
            "engine": {"name": "toy-engine", "version": "3", "language": "Rust", "variants": {"euchre": {}}}}
    write_report(tmp_path / "toy.jsonl", [
        head,
        {"type": "case", "id": "made-three-tricks", "variant": "euchre", "clauses": ["made"], "outcome": "pass"},
        {"type": "case", "id": "throw-in-then-march", "variant": "euchre", "clauses": ["throw-in"], "outcome": "fail",
         "failure": {"where": "hand 1 step 4 (seat 0 pass)", "message": "wrong turned_down", "field": "turned_down",
                     "expected": "H", "actual": None, "clause": {"id": "throw-in", "title": "All pass twice"}}},
        {"type": "case", "id": "gone-case", "variant": "euchre", "clauses": ["no-such-rule"], "outcome": "error",
         "detail": "engine crashed"},
        {"type": "case", "id": "x", "variant": "two-hand", "outcome": "unsupported", "detail": "variant not declared"},
        "{not json",
    ])
    reports = [read_report(tmp_path / "toy.jsonl")]
    assert reports[0].problems and reports[0].footer is None
    links = Links("compliance/index.md", {"euchre": {"made", "throw-in"}}, {"made-three-tricks", "throw-in-then-march"})
    page = render_compliance(reports, [("euchre", "Euchre"), ("two-hand", "Two-handed Euchre")], links, "0.1.0")
    assert "toy-engine 3" in page
    assert "**1**/3" in page                                        # euchre: 1 pass of 3 run
    assert "[`throw-in-then-march`](../corpus/throw-in-then-march.md)" in page
    assert "[All pass twice](../variants/euchre.md#throw-in)" in page
    assert "`turned_down`: expected `H`, got `null`" in page
    assert "`gone-case`" in page and "../variants/euchre.md#no-such-rule" not in page   # no dead link
    assert "could not be read in full" in page and "no footer" in page
    assert "the corpus has changed since" in page
    assert render_compliance([], [], links).count("No report yet") == 1


def test_committed_reports_are_readable():
    reports = sorted((DOCS / "compliance" / "reports").glob("*.jsonl"))
    assert {p.stem for p in reports} >= {"reference", "euchrelib"}
    for path in reports:
        report = read_report(path)
        assert not report.problems, f"{path.name}: {report.problems}"
        assert report.footer is not None and report.cases


def test_links_between_pages():
    links = Links("corpus/some-case.md")
    assert links.to("variants/euchre.md", "made") == "../variants/euchre.md#made"
    assert links.url("variants/euchre.md", "made") == "../../variants/euchre/#made"
    assert links.url("index.md") == "../../"
    assert Links("variants/index.md").url("variants/euchre.md") == "euchre/"
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
