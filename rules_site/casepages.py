"""The corpus on the site: an index of every case by variant, and a page per case telling
it as a worked example followed by its full script (everything an engine must report)."""

from __future__ import annotations

from collections import defaultdict
from html import escape
from typing import Callable

from .corpus import Replay, SiteCase
from .examples import render_example, render_script
from .links import CORPUS_INDEX, Links, case_file, code, corpus_rules_page, corpus_variant_page, md_cell, md_text
from .notation import Notation, plural
from .rule_pages import citing_cases, layout, page_path, rule_order
from .tables import compact

KINDS = (("hand-written", "Hand-written cases"), ("generated", "Generated cases"), ("perft", "Perft cases"))


def kind_of(case: SiteCase) -> str:
    if "perft" in case.tags:
        return "perft"
    if "generated" in case.tags:
        return "generated"
    return "hand-written"


def _clauses(case: SiteCase, links: Links) -> str:
    return ", ".join(links.clause(case.variant, c) for c in case.cited_clauses())


def _options(case: SiteCase, links: Links) -> str:
    parts = []
    for key, value in case.options.items():
        label = f"{code(key)}"
        if case.variant in links.anchors:
            label = links.variant(case.variant, label, "option-" + key)
        parts.append(f"{label} = {code(compact(value))}")
    return ", ".join(parts)


def render_corpus_index(cases: list[SiteCase], variants: list[tuple[str, str]], version: str | None,
                        links: Links, tables: dict[str, dict] | None = None) -> str:
    notations = {v: Notation(t) for v, t in (tables or {}).items()}

    def words_for(variant: str) -> Notation | None:
        return notations.get(variant)

    lines = ["# The conformance corpus", "",
             f"{len(cases)} cases{f', corpus version {md_text(version)}' if version else ''}. Each case is a scripted game "
             "under one variant and options: the deals, every action in order, and what a conforming engine must "
             f"report (the [case format]({links.to('case-format.md')})). `euchre-spec check --engine CMD` plays them "
             "all against an engine; each case's page tells it step by step with its cards and lists every check.", "",
             "Hand-written cases derive their expectations from the rules by hand; generated cases come from seeded "
             "random deals and play (`euchre-spec corpus generate`); perft cases count the sequences of legal actions "
             "from a position."]
    by_variant: dict[str, list[SiteCase]] = defaultdict(list)
    for case in cases:
        by_variant[case.variant].append(case)
    titles = dict(variants)
    order = [v for v, _ in variants if v in by_variant] + sorted(v for v in by_variant if v not in titles)
    untested = [v for v, _ in variants if v not in by_variant]
    if untested:
        lines += ["", "## Untested variants {#untested}", "",
                  "No case plays these variants yet, so no engine is checked against them: "
                  + ", ".join(links.variant(v, md_text(titles[v])) for v in untested) + "."]
    lines += ["", "## Cases by variant {#variants}", "",
              "Each variant's cases are listed on a page of their own, and grouped by the rule they test on another.", "",
              "| Variant | Cases | Hand-written | Generated | Perft | By rule |", "|---|---|---|---|---|---|"]
    for variant in order:
        group = by_variant[variant]
        title = titles.get(variant, variant)
        counts = [sum(1 for c in group if kind_of(c) == kind) for kind, _ in KINDS]
        lines.append(f'| <span id="variant-{variant}"></span>[{md_cell(md_text(title))}]({links.to(corpus_variant_page(variant))}) '
                     f"| {len(group)} | " + " | ".join(str(n) for n in counts)
                     + f" | [{plural(len({cl for c in group for cl in c.cited_clauses()}), 'rule')}]({links.to(corpus_rules_page(variant))}) |")
    return "\n".join(lines) + "\n"


def render_variant_cases(variant: str, title: str, group: list[SiteCase], links: Links, table: dict | None) -> str:
    """One variant's cases: a table per kind (hand-written first), each row the case, what it
    shows and the options it sets (the rules each tests are on the by-rule page)."""
    words = Notation(table) if table else None
    lines = [f"# The cases of {md_text(title)}", "",
             f"{plural(len(group), 'case')} for {links.variant(variant, md_text(title))}; "
             f"[the same cases by the rule they test]({links.to(corpus_rules_page(variant))}); "
             f"[every variant]({links.to(CORPUS_INDEX)})."]
    for kind, kind_title in KINDS:
        members = [c for c in group if kind_of(c) == kind]
        if not members:
            continue
        lines += ["", f"## {kind_title} ({len(members)}) {{#{kind}}}", "",
                  "| Case | What it shows | Options |", "|---|---|---|"]
        for case in members:
            shown = words.prose_text(case.title) if words else case.title
            lines.append(f"| {links.case(case.id)} | {md_cell(md_text(shown))} | {md_cell(_options(case, links)) or 'defaults'} |")
    return "\n".join(lines) + "\n"


def render_rule_cases(variant: str, title: str, group: list[SiteCase], links_of: Callable[[str], Links],
                      table: dict | None) -> dict[str, str]:
    """One variant's cases by rule, by page (rules_site/rule_pages.py lays them out): under each
    rule's anchor (``#rule-<clause>``), exactly the cases that cite it, which is where the rule
    on the variant's page links. A list on several pages opens each with every rule, linked."""
    words = Notation(table) if table else None
    citing = citing_cases(group)
    order = rule_order(table, citing)
    pages = layout(order, citing)
    paths = [page_path(variant, n) for n in range(1, len(pages) + 1)]
    home = {block.clause: paths[n] for n in reversed(range(len(pages))) for block in pages[n]}
    titles = links_of(paths[0]).titles.get(variant, {})
    named = [titles.get(c) or c for c in order]

    def rule_title(clause: str) -> str:
        text = titles.get(clause) or clause
        return text + f", rule {clause}" if named.count(text) > 1 else text     # two rules of one title: told apart by their ids

    out: dict[str, str] = {}
    for number, (path, blocks) in enumerate(zip(paths, pages), start=1):
        links = links_of(path)
        heading = f"# The cases of {md_text(title)}, rule by rule" + (f" (page {number} of {len(pages)})" if len(pages) > 1 else "")
        lines = [heading, "",
                 f"For each rule of {links.variant(variant, md_text(title))}, the cases that test it (a case tests every rule "
                 f"it cites). [All the cases of {md_text(title)}]({links.to(corpus_variant_page(variant))})."]
        if len(pages) > 1:
            lines += ["", f"The list is on {len(pages)} pages: "
                      + ", ".join(f"[page {n}]({links.to(p)})" if p != path else f"page {n} (this one)"
                                  for n, p in enumerate(paths, start=1))
                      + ". Every rule, with its number of cases: "
                      + "; ".join(f"[{md_text(rule_title(c))}]({links.to(home[c], 'rule-' + c)}) ({len(citing[c])})"
                                  for c in order) + "."]
        for block in blocks:
            clause, cases = block.clause, citing[block.clause]
            if block.continued:
                lines += ["", f"<h2>{escape(rule_title(clause))}, continued</h2>", "",
                          f"The rest of the cases of {links.clause(variant, clause)}, whose list "
                          f"[starts on an earlier page]({links.to(home[clause], 'rule-' + clause)}).", ""]
            else:
                lines += ["", f'<h2 id="rule-{clause}">{escape(rule_title(clause))} <small>({plural(len(cases), "case")})</small></h2>', "",
                          f"The rule: {links.clause(variant, clause)} (<code>{escape(clause)}</code>).", ""]
            for case in block.written:
                shown = words.prose_text(case.title) if words else case.title
                lines.append(f"- {links.case(case.id, md_text(shown))}")
            if block.others:
                lines += ["", "Generated and perft cases: " + ", ".join(links.case(c.id) for c in block.others) + "."]
        out[path] = "\n".join(lines) + "\n"
    return out


def render_case_page(case: SiteCase, rep: Replay, links: Links, variant_title: str | None) -> str:
    # Case pages stay out of the search index (the corpus index, which is searched, lists every
    # case by id and title): indexing a hundred scripts would double the build and the index.
    lines = ["---", "search:", "  exclude: true", "---", ""]
    words = Notation(rep.table) if rep.table else None
    title = words.prose_text(case.title) if words else case.title
    lines += [f"# {md_text(title)}", ""]
    facts = [f"Case `{case.id}`",
             f"variant {links.variant(case.variant, md_text(variant_title or case.variant))}",
             f"file [`conformance/corpus/{md_text(case.rel)}`]({links.to(case_file(case.rel))})"]
    if case.tags:
        facts.append("tags " + ", ".join(f"{code(t)}" for t in case.tags))
    if case.generated:
        facts.append(f"generated by {code(str(case.generated.get('generator', '')))}, seed {case.generated.get('seed')}")
    lines += [" · ".join(facts), "{: .es-meta }", ""]
    lines.append("**Options:** " + (_options(case, links) or "all at their defaults") + ".  ")
    lines.append("**Rules tested:** " + _clauses(case, links) + ".")
    if case.description:
        lines += ["", words._prose_part(md_text(words.seed_titles(case.description)), None) if words else md_text(case.description)]
    lines += ["", "## The game, step by step {#story}", "",
              render_example(case, rep, links, hand_heading="###", prefix="story", viewer=case.hand_written),
              "## The script {#script}", ""]
    if case.generated:
        # Generated cases expect every state field at every step: the file lists them all.
        lines += [f"This case was generated: it checks the legal actions and the main state fields after every "
                  f"step, as its file [{code(case.rel)}]({links.to(case_file(case.rel))}) lists them.", "",
                  render_script(case, links, brief=True)]
    else:
        lines += ["What `euchre-spec check` sends and checks, in the protocol's tokens: each action by the seat to act, "
                  "the exact set of legal actions where the case gives it, the state fields after the step, and the "
                  "actions that must be refused. Each step has an anchor (`#h1-s3`: hand 1, step 3), which the "
                  f"[compliance page]({links.to('compliance/index.md')}) links to.", "", render_script(case, links)]
    return "\n".join(lines) + "\n"

