"""Everything the site generates, in one pass: pages (Markdown, by docs path) and files to
copy (the schemas and the case files), from the rule tables, the corpus and the reports.

The mkdocs hook (``hooks.py``) turns the result into virtual files; nothing is written
into ``docs/``. Tests call :func:`build_site` directly.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from conformance import CORPUS_DIR
from conformance.corpus_tools.stamp import current_identity
from conformance.reference_engine import ReferenceEngine
from conformance.runner.results import FAILING
from reference_impl.catalog import schema_dir, spec_root
from reference_impl.errors import SpecError
from reference_impl.resolve import ResolvedTable, resolve

from .casepages import render_case_page, render_corpus_index, render_rule_cases, render_variant_cases
from .compare import render_matrix, render_variants_index
from .compliance import Attribution, read_reports, render_compliance, render_engine_pages
from .corpus import Replay, SiteCase, load_site_cases, replay
from .egn import EGN_PAGE, render_egn
from .links import corpus_variant_page
from .links import (COMPARE_PAGE, COMPLIANCE_PAGE, CORPUS_INDEX, SCHEMA_INDEX, VARIANTS_INDEX, Links, case_file,
                    case_page, variant_page)
from .schemas import render_schema_index, render_schema_page, schema_files
from .search_index import rule_entries
from .tables import SiteError, VariantView, all_views, base_variant
from .teaching import TeachingHand, teaching_hand
from .variant import VariantPage, pick_examples, render_variant
from .quickref import GLOSSARY_PAGE, quickref_page, render_glossary, render_quickref

REPORTS_DIR = "compliance/reports"     # under docs/
PROTOCOL_PAGE = "protocol.md"           # the protocol page is part of the spec (spec/protocol.md)


@dataclass
class Site:
    pages: dict[str, str] = field(default_factory=dict)          # docs path -> Markdown
    copies: dict[str, Path] = field(default_factory=dict)        # docs path -> file to copy as it is
    variants: list[tuple[str, str]] = field(default_factory=list)  # (id, title), in nav order
    anchors: dict[str, set[str]] = field(default_factory=dict)   # variant id -> clause anchors on its page
    cases: list[SiteCase] = field(default_factory=list)
    examples: dict[str, list[str]] = field(default_factory=dict)  # variant id -> case ids told as examples
    paged: set[str] = field(default_factory=set)                 # case ids with a page of their own
    untested: list[str] = field(default_factory=list)            # variant ids no case plays
    search_entries: list[dict] = field(default_factory=list)     # a search entry per rule and option (search_index.py)
    timings: dict[str, float] = field(default_factory=dict)
    teaching: dict[str, TeachingHand | None] = field(default_factory=dict)   # variant id -> its teaching hand


def _replay(case: SiteCase, resolver, engine: ReferenceEngine) -> Replay:
    try:
        return replay(case, resolver, engine)
    except SpecError as exc:
        return Replay({}, problem="; ".join(p.message for p in exc.problems))


def _corpus_version(root: Path) -> str | None:
    import yaml
    path = root / "corpus.yaml"
    if not path.is_file():
        return None
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return str(data.get("version")) if data.get("version") is not None else None


def build_site(docs_dir: Path, corpus_dir: Path = CORPUS_DIR, reports_dir: Path | None = None,
               directory_urls: bool = True) -> Site:
    """Every generated page of the site (``directory_urls``: mkdocs' ``use_directory_urls``)."""
    site = Site()
    clock = time.perf_counter()
    try:
        views: list[VariantView] = all_views()
    except SpecError as exc:
        raise SiteError("a variant table does not resolve: " + "; ".join(str(p) for p in exc.problems)) from None
    site.timings["tables"] = time.perf_counter() - clock
    site.variants = [(v.id, v.table["title"]) for v in views]
    site.anchors = {v.id: v.clause_ids() for v in views}
    titles = {v.id: v.clause_titles() for v in views}
    variant_titles = dict(site.variants)

    clock = time.perf_counter()
    cases = load_site_cases(root=corpus_dir)
    site.cases = cases
    for case in cases:
        if case.id in ("index", "files"):
            raise SiteError(f"{case.file}: a case id may not be {case.id!r} (it names a page of the site)")
    reports = read_reports(reports_dir or docs_dir / REPORTS_DIR)
    by_variant: dict[str, list[SiteCase]] = {}
    for case in cases:
        by_variant.setdefault(case.variant, []).append(case)
    for view in views:
        site.examples[view.id] = [c.id for c in pick_examples(by_variant.get(view.id, []))]
    site.untested = [v.id for v in views if not by_variant.get(v.id)]
    # A page for every case but the generated ones (hundreds of random games, linked as files),
    # except those told as examples or that a committed report shows failing.
    known = {c.id for c in cases}
    failing = {line.get("id") for report in reports for line in report.cases
               if line.get("outcome") in (*FAILING, "expected-fail") and line.get("id") in known}
    shown = {c for ids in site.examples.values() for c in ids}
    site.paged = {c.id for c in cases if "generated" not in c.tags or c.id in shown or c.id in failing}
    # Resolve afresh on every build (a long-lived `mkdocs serve` must see edited tables).
    resolved: dict[str, ResolvedTable] = {}

    def resolver(variant: str, options: dict) -> ResolvedTable:
        key = variant + json.dumps(options, sort_keys=True)
        if key not in resolved:
            resolved[key] = resolve(variant, options)
        return resolved[key]
    engine = ReferenceEngine()
    replays = {case.id: _replay(case, resolver, engine) for case in cases if case.id in site.paged}
    site.timings["corpus"] = time.perf_counter() - clock
    files_of = {c.id: c.rel for c in cases}

    def links(page: str) -> Links:
        return Links(page, site.anchors, site.paged, files_of, titles, directory_urls)

    clock = time.perf_counter()
    counts = Counter(c.variant for c in cases)
    base_id = base_variant(views) if views else None
    base = next((v for v in views if v.id == base_id), None)
    for view in views:
        page = variant_page(view.id)
        hand = teaching_hand(view.resolved)
        site.teaching[view.id] = hand
        site.pages[page] = render_variant(view, by_variant.get(view.id, []), replays, links(page), variant_titles,
                                          hand, base)
    for view in views:
        page = quickref_page(view.id)
        pieces = VariantPage(view, by_variant.get(view.id, []), replays, links(page), variant_titles,
                             site.teaching.get(view.id), base)
        site.pages[page] = render_quickref(view, pieces, links(page))
    site.pages[GLOSSARY_PAGE] = render_glossary(views, links(GLOSSARY_PAGE))
    site.pages[VARIANTS_INDEX] = render_variants_index(views, dict(counts), links(VARIANTS_INDEX))
    site.pages[COMPARE_PAGE] = render_matrix(views, links(COMPARE_PAGE), dict(counts))
    site.pages[EGN_PAGE] = render_egn(views, links(EGN_PAGE))
    site.search_entries = rule_entries(views, site.anchors, directory_urls)
    site.timings["variants"] = time.perf_counter() - clock

    clock = time.perf_counter()
    version = _corpus_version(corpus_dir)
    site.pages[CORPUS_INDEX] = render_corpus_index(cases, site.variants, version, links(CORPUS_INDEX),
                                                   {v.id: v.table for v in views})
    for variant, _title in site.variants:
        if not by_variant.get(variant):
            continue
        view = next(v for v in views if v.id == variant)
        page = corpus_variant_page(variant)
        site.pages[page] = render_variant_cases(variant, _title, by_variant[variant], links(page), view.table)
        site.pages.update(render_rule_cases(variant, _title, by_variant[variant], links, view.table))
    for case in cases:
        site.copies.setdefault(case_file(case.rel), case.file)
        if case.id in site.paged:
            page = case_page(case.id)
            site.pages[page] = render_case_page(case, replays[case.id], links(page), variant_titles.get(case.variant))
    site.timings["cases"] = time.perf_counter() - clock

    clock = time.perf_counter()
    files = schema_files(schema_dir())
    site.pages[SCHEMA_INDEX] = render_schema_index(files, links(SCHEMA_INDEX))
    for schema_file in files:
        site.pages[schema_file.page] = render_schema_page(schema_file, files)
        site.copies[schema_file.download] = schema_file.path
    site.timings["schemas"] = time.perf_counter() - clock

    site.pages[PROTOCOL_PAGE] = (spec_root() / PROTOCOL_PAGE).read_text(encoding="utf-8")
    by_id = {c.id: c for c in cases}
    tables = {v.id: v.table for v in views}
    attribute = Attribution(by_id, replays, tables.get)
    current = current_identity(corpus_dir) if version is not None else None
    site.pages[COMPLIANCE_PAGE] = render_compliance(reports, site.variants, links(COMPLIANCE_PAGE), current, attribute,
                                                    engine_pages=True)
    site.pages.update(render_engine_pages(reports, site.variants, links, current, attribute))
    return site
