"""No built page weighs more than 300 KB of HTML (the corpus index used to be 1.6 MB): the
corpus is split by variant and by rule, and a long schema links its source instead of
drawing it."""

from __future__ import annotations

from site_support import BUILT_SITE, built_site  # noqa: F401 (fixture)

pytestmark = BUILT_SITE   # room to wait for the site's build (started at collection)

MAX_HTML = 300 * 1024


def heavy_pages(root, limit: int = MAX_HTML) -> list[str]:
    return [f"{p.relative_to(root)}: {p.stat().st_size // 1024} KB" for p in sorted(root.rglob("*.html"))
            if p.stat().st_size > limit]


def test_no_page_exceeds_300_kb(built_site):
    heavy = heavy_pages(built_site)
    assert not heavy, "pages over 300 KB of HTML: " + "; ".join(heavy)


def test_a_heavy_page_is_caught(tmp_path):
    (tmp_path / "light.html").write_text("<p>x</p>")
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "index.html").write_text("<p>" + "x" * (MAX_HTML + 1) + "</p>")
    assert heavy_pages(tmp_path) == ["corpus/index.html: 300 KB"]


def test_code_keeps_its_blanks_without_a_span_each(built_site):
    """The highlighter's span around each run of blanks is dropped (rules_site/hooks.py); the
    blanks themselves stay, so a snippet copied from the page is the snippet."""
    import re
    page = (built_site / "authoring.html").read_text(encoding="utf-8")
    assert 'class="w"' not in page
    code = "".join(re.findall(r"<code>(.*?)</code>", page, re.S))
    text = re.sub(r"<[^>]+>", "", code)
    assert "id: hasenpfeffer-forced-one\nextends: hasenpfeffer\n" in text
