"""Which page lists which rule's cases: one variant's cases by rule, cut into pages of bounded
weight so that no page grows past what a phone loads at ease, however large the corpus grows.

A generated case cites a dozen rules, so it is listed a dozen times: a variant with a thousand
such cases made a by-rule page of 350 KB. The rules are laid out in their order on pages of at
most :data:`PAGE_BUDGET` estimated bytes; a rule that does not fit on the page it starts on
goes on over the next (its anchor, ``#rule-<clause>``, stays where its list starts). The
first page keeps the address every link used before the split
(:func:`rules_site.links.corpus_rules_page`), so a variant with few cases has one page as
before. The variant's page and the by-rule pages both call :func:`rule_pages`, so a rule's
link and its list cannot disagree.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .corpus import SiteCase
from .links import corpus_rules_page

# Estimated bytes of built HTML: a rule's heading and lead line, a hand-written case (a link
# under its title), any other case (a link under its id). The page's frame (theme, navigation)
# weighs about 25 KB more, and the contents line of a split list a few KB.
RULE_BYTES = 450
WRITTEN_BYTES = 260
OTHER_BYTES = 110
PAGE_BUDGET = 200_000


@dataclass
class RuleBlock:
    """One rule's cases on one page: all of them, or the part that fits there."""
    clause: str
    written: list[SiteCase]
    others: list[SiteCase]
    continued: bool = False          # the rule's list began on an earlier page


def citing_cases(cases: Iterable[SiteCase]) -> dict[str, list[SiteCase]]:
    """Each rule's cases: those that cite it."""
    citing: dict[str, list[SiteCase]] = defaultdict(list)
    for case in cases:
        for clause in case.cited_clauses():
            citing[clause].append(case)
    return citing


def rule_order(table: dict[str, Any] | None, citing: dict[str, list[SiteCase]]) -> list[str]:
    """The rules that have cases, in the variant's order; rules it does not list, last by id."""
    clauses = [c["id"] for c in (table or {}).get("clauses") or []]
    return [c for c in clauses if c in citing] + sorted(c for c in citing if c not in clauses)


def layout(order: Sequence[str], citing: dict[str, list[SiteCase]], budget: int | None = None) -> list[list[RuleBlock]]:
    """The rules laid out on pages of at most ``budget`` estimated bytes (:data:`PAGE_BUDGET`
    unless given; a page holds at least one case, so it is never empty however small the budget)."""
    budget = PAGE_BUDGET if budget is None else budget
    pages: list[list[RuleBlock]] = [[]]
    used = 0
    for clause in order:
        cases = citing[clause]
        queue = [c for c in cases if c.hand_written] + [c for c in cases if not c.hand_written]
        block = RuleBlock(clause, [], [])
        used += RULE_BYTES
        for case in queue:
            weight = WRITTEN_BYTES if case.hand_written else OTHER_BYTES
            if used + weight > budget and (pages[-1] or block.written or block.others):
                if block.written or block.others:
                    pages[-1].append(block)
                    block = RuleBlock(clause, [], [], continued=True)
                pages.append([])
                used = RULE_BYTES
            (block.written if case.hand_written else block.others).append(case)
            used += weight
        pages[-1].append(block)
    return [page for page in pages if page]


def page_path(variant: str, number: int) -> str:
    """The first page at the by-rule address; page n (from 2) beside it."""
    return corpus_rules_page(variant) if number == 1 else f"corpus/by-rule/{variant}/{number}.md"


def rule_pages(variant: str, table: dict[str, Any] | None, cases: Iterable[SiteCase]) -> dict[str, str]:
    """Each rule's page: where its list of cases starts (its ``#rule-<clause>`` anchor)."""
    citing = citing_cases(cases)
    where: dict[str, str] = {}
    for number, page in enumerate(layout(rule_order(table, citing), citing), start=1):
        for block in page:
            where.setdefault(block.clause, page_path(variant, number))
    return where
