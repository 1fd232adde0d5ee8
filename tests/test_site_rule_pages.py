"""The by-rule list of a variant's cases is cut into pages of bounded weight (rules_site/rule_pages.py):
every case of every rule is listed once, on the page where its rule's list starts or after,
and a rule's link goes to the page that holds its anchor. No site build: fake cases."""

from __future__ import annotations

from types import SimpleNamespace

from rules_site.rule_pages import OTHER_BYTES, RULE_BYTES, WRITTEN_BYTES, layout, page_path, rule_order, rule_pages
from rules_site.links import corpus_rules_page


def fake_cases(n: int, clauses: list[str], written_every: int = 5) -> list[SimpleNamespace]:
    cases = []
    for i in range(n):
        cited = [c for k, c in enumerate(clauses) if (i + k) % 3 != 0]
        cases.append(SimpleNamespace(id=f"case-{i}", hand_written=i % written_every == 0,
                                     cited_clauses=lambda cited=cited: cited))
    return cases


def weight(page) -> int:
    return sum(RULE_BYTES + WRITTEN_BYTES * len(b.written) + OTHER_BYTES * len(b.others) for b in page)


TABLE = {"clauses": [{"id": c} for c in ("deal", "bidding", "play", "scoring")]}


def test_pages_stay_within_the_budget_and_list_every_case_once():
    cases = fake_cases(400, ["deal", "bidding", "play", "scoring", "extra"])
    citing = {c: [x for x in cases if c in x.cited_clauses()] for c in ("deal", "bidding", "play", "scoring", "extra")}
    order = rule_order(TABLE, citing)
    assert order == ["deal", "bidding", "play", "scoring", "extra"]      # the variant's order, then unknown ids
    pages = layout(order, citing, budget=8_000)
    assert len(pages) > 3
    assert all(weight(page) <= 8_000 for page in pages)
    for clause in order:
        blocks = [b for page in pages for b in page if b.clause == clause]
        listed = [c.id for b in blocks for c in b.written + b.others]
        assert sorted(listed) == sorted(c.id for c in citing[clause])
        assert [b.continued for b in blocks] == [False] + [True] * (len(blocks) - 1)


def test_a_small_variant_keeps_one_page_at_the_old_address():
    cases = fake_cases(20, ["deal", "play"])
    where = rule_pages("euchre", TABLE, cases)
    assert set(where) == {"deal", "play"} and set(where.values()) == {corpus_rules_page("euchre")}


def test_each_rule_links_to_the_page_where_its_list_starts(monkeypatch):
    import rules_site.rule_pages as module
    monkeypatch.setattr(module, "PAGE_BUDGET", 6_000)
    cases = fake_cases(300, ["deal", "bidding", "play", "scoring"])
    citing = module.citing_cases(cases)
    pages = layout(rule_order(TABLE, citing), citing, budget=6_000)
    where = rule_pages("euchre", TABLE, cases)
    for number, page in enumerate(pages, start=1):
        for block in page:
            if not block.continued:
                assert where[block.clause] == page_path("euchre", number)
    assert len(set(where.values())) > 1 and page_path("euchre", 1) == corpus_rules_page("euchre")


def test_a_tiny_budget_still_puts_a_case_on_every_page():
    cases = fake_cases(6, ["deal"])
    citing = {"deal": [c for c in cases if "deal" in c.cited_clauses()]}
    pages = layout(["deal"], citing, budget=1)
    assert all(page and (page[0].written or page[0].others) for page in pages)
    assert sum(len(b.written) + len(b.others) for page in pages for b in page) == len(citing["deal"])
