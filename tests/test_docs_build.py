"""The site builds with `mkdocs build --strict` (no warnings: every link and anchor checked),
loads nothing from the network, works from disk (pages as .html, the search index also as a
script), has a page for every variant with an element for every clause id the corpus cites,
links every failure of the compliance page to the step where it fails, and builds under
--strict when variants have no case at all (they are listed as untested).

Each site is built once per test run, in the background from the start (tests/site_support.py).
"""

from __future__ import annotations

import filecmp
import json
import re

from site_support import BUILT_SITE, ROOT, built_site, html_ids, untested_site  # noqa: F401 (fixtures)

from reference_impl.catalog import schema_dir, variant_ids
from rules_site.corpus import load_site_cases

pytestmark = BUILT_SITE   # room to wait for the site's build

REPORTS = ROOT / "docs" / "compliance" / "reports"


def test_mkdocs_build_strict(built_site):
    for page in ("index.html", "protocol.html", "adapter-tutorial.html", "case-format.html", "cli.html", "ci.html",
                 "egn.html", "variants/index.html", "variants/compare.html", "compliance/index.html", "corpus/index.html",
                 "schema/index.html"):
        assert (built_site / page).is_file(), page


def test_nothing_loaded_from_the_network(built_site):
    loaded = []
    for page in built_site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        loaded += re.findall(r'<(?:script|img|link|iframe|source|video|audio)[^>]+(?:src|href)="((?:https?:)?//[^"]+)"', text)
        loaded += re.findall(r'url\(\s*["\']?((?:https?:)?//[^"\')]+)', text)
    for sheet in built_site.rglob("*.css"):
        text = sheet.read_text(encoding="utf-8", errors="replace")
        loaded += re.findall(r'@import\s+(?:url\()?\s*["\']?((?:https?:)?//[^"\')\s]+)', text)
        loaded += re.findall(r'url\(\s*["\']?((?:https?:)?//[^"\')]+)', text)
    assert loaded == [], f"assets loaded from the network: {sorted(set(loaded))[:5]}"


def test_the_site_works_from_disk(built_site):
    """Links point at .html files (no server needed to resolve a folder), and the search
    index is also written as a script for the offline search."""
    page = (built_site / "variants" / "euchre.html").read_text(encoding="utf-8")
    hrefs = re.findall(r'href="([^"#:]+)(?:#[^"]*)?"', page)
    folders = [h for h in hrefs if h.endswith("/") and not h.startswith("http")]
    assert not folders, f"links to folders do not open from disk: {folders[:3]}"
    script = (built_site / "search" / "search_index.js").read_text(encoding="utf-8")
    assert script.startswith("var __index = ")
    index = json.loads(script[len("var __index = "):].rstrip().rstrip(";"))
    assert any(doc["location"].startswith("variants/euchre.html") for doc in index["docs"])
    assert "javascripts/offline-search.js" in page and "javascripts/viewer.js" in page


def test_every_variant_has_a_page_with_a_worked_example(built_site):
    for variant in variant_ids():
        page = built_site / "variants" / f"{variant}.html"
        assert page.is_file(), f"no page for variant {variant}"
        text = page.read_text(encoding="utf-8")
        assert 'id="teaching-hand"' in text and 'id="object"' in text and 'id="test-cases"' in text
        assert 'class="es-tricks"' in text and 'class="es-viewer"' in text, f"{variant}: the teaching hand has no trick"
        assert 'class="es-refusals"' not in text.split('id="object"')[0], f"{variant}: the teaching hand has refused moves"


def test_every_cited_clause_is_an_anchor_on_its_variant_page(built_site):
    """Every clause anchor cited by a case is an element of its variant's page."""
    ids: dict[str, set[str]] = {}
    missing = []
    for case in load_site_cases():
        page = built_site / "variants" / f"{case.variant}.html"
        if case.variant not in ids:
            ids[case.variant] = html_ids(page) if page.is_file() else set()
        for clause in case.cited_clauses():
            if clause not in ids[case.variant]:
                missing.append(f"{case.id}: {case.variant}#{clause}")
    assert not missing, f"{len(missing)} cited clauses without an anchor, e.g. {missing[:5]}"


def test_schemas_are_browsable_and_downloadable(built_site):
    for source in sorted(schema_dir().rglob("*.json")):
        rel = source.relative_to(schema_dir()).as_posix()
        copy = built_site / "schema" / rel
        assert copy.is_file() and filecmp.cmp(copy, source, shallow=False), rel
        page = built_site / "schema" / (rel.removesuffix(".schema.json").removesuffix(".json") + ".html")
        assert page.is_file(), rel
        title = json.loads(source.read_text(encoding="utf-8")).get("title", "")
        assert title.split(" (")[0].replace("&", "&amp;") in page.read_text(encoding="utf-8")


def test_compliance_page_links_failures_to_the_failing_step(built_site):
    text = (built_site / "compliance" / "index.html").read_text(encoding="utf-8")
    for report in sorted(REPORTS.glob("*.jsonl")):
        assert f'href="reports/{report.name}"' in text, f"no link to {report.name}"
        head = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
        assert head["engine"]["name"] in text
    failing = [json.loads(line) for report in sorted(REPORTS.glob("*.jsonl"))
               for line in report.read_text(encoding="utf-8").splitlines() if '"outcome": "fail"' in line]
    steps = re.findall(r'href="\.\./corpus/([a-z0-9-]+)\.html#(h\d+-s\d+|hand-\d+[a-z-]*)"', text)
    if failing:
        assert steps, "no failure links to a step of its case"
    for case, anchor in steps:
        target = built_site / "corpus" / f"{case}.html"
        assert anchor in html_ids(target), f"{case}.html has no #{anchor}"
    # every engine's name is shown once: two reports of one engine are told apart
    names = re.findall(r'<h2 id="report-[^"]+">(.*?)<a', text)
    assert len(names) == len(set(names)) == len(list(REPORTS.glob("*.jsonl")))


def test_a_variant_without_cases_builds_strict_and_is_listed_untested(untested_site):
    """The site built from a corpus of the Euchre cases only (site_support.euchre_only_corpus):
    every other variant has no case, builds under --strict, and is listed as untested."""
    site, corpus = untested_site
    untested = [v for v in variant_ids() if v != "euchre"]
    assert len(list((corpus / "euchre").glob("*.yaml"))) < len(list((ROOT / "conformance" / "corpus" / "euchre").glob("*.yaml")))
    index = (site / "corpus" / "index.html").read_text(encoding="utf-8")
    assert 'id="untested"' in index
    for variant in untested:
        page = (site / "variants" / f"{variant}.html").read_text(encoding="utf-8")
        assert "untested" in page, variant
        assert f"{variant}.html" in index.split('id="untested"')[1], variant
    compare = (site / "variants" / "compare.html").read_text(encoding="utf-8")
    assert compare.count("Untested: no case yet") == len(untested)
