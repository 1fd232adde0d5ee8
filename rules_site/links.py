"""Where every generated page lives in the docs tree, and relative links between them.

Links are written as relative Markdown links to ``.md`` sources, so ``mkdocs build
--strict`` checks every one of them, anchors included (``validation.anchors: warn``).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from html import escape


def variant_page(variant_id: str) -> str:
    return f"variants/{variant_id}.md"


def case_page(case_id: str) -> str:
    return f"corpus/{case_id}.md"


def case_file(rel: str) -> str:
    return f"corpus/files/{rel}"


VARIANTS_INDEX = "variants/index.md"
COMPARE_PAGE = "variants/compare.md"
CORPUS_INDEX = "corpus/index.md"
COMPLIANCE_PAGE = "compliance/index.md"
SCHEMA_INDEX = "schema/index.md"


def md_text(text: str) -> str:
    """Prose from the tables made safe for Markdown: no stray emphasis, links or HTML.
    Code spans (between backticks) are kept as they are."""
    out = []
    for index, part in enumerate(re.split(r"(`[^`\n]+`)", str(text).replace("\n", " "))):
        if index % 2:
            out.append(part)
            continue
        part = escape(part, quote=False)
        for char in ("\\", "*", "_", "[", "]", "|", "#", "{", "}"):
            part = part.replace(char, "\\" + char)
        out.append(part)
    return "".join(out)


def code(value: object) -> str:
    """Text as a Markdown code span (shown exactly as it is)."""
    text = str(value).replace("\n", " ")
    if "`" in text:
        return f"`` {text} ``"
    return f"`{text}`" if text.strip() else "` `"


def md_cell(text: str) -> str:
    """Markdown already formatted, made safe inside a table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


@dataclass
class Links:
    """Links from one page (``page``, a docs path) to the others."""

    page: str
    anchors: dict[str, set[str]] = field(default_factory=dict)    # variant id -> clause ids on its page
    cases: set[str] = field(default_factory=set)                   # case ids that have a page
    case_files: dict[str, str] = field(default_factory=dict)       # case id -> its file under the corpus
    titles: dict[str, dict[str, str]] = field(default_factory=dict)  # variant id -> clause id -> title
    directory_urls: bool = True                                    # mkdocs' use_directory_urls

    def url(self, target: str, anchor: str | None = None) -> str:
        """The final relative URL of a page, for links inside raw HTML (which mkdocs leaves alone)."""
        if target == self.page:
            return f"#{anchor}" if anchor else "#"

        def built(path: str) -> str:
            stem = path[:-3] if path.endswith(".md") else path
            if not self.directory_urls:
                return stem + ".html"
            if stem == "index" or stem.endswith("/index"):
                return stem[: -len("index")]
            return stem + "/"
        here, there = built(self.page), built(target)
        base = here if self.directory_urls else posixpath.dirname(here)
        rel = posixpath.relpath(there or ".", base or ".")
        if (there == "" or there.endswith("/")) and not rel.endswith("/"):
            rel += "/"
        return rel + (f"#{anchor}" if anchor else "")

    def clause_html(self, variant: str, clause_id: str) -> str:
        """An HTML link to a clause (by its title), or its id as code without such an anchor."""
        title = self.titles.get(variant, {}).get(clause_id)
        if clause_id in self.anchors.get(variant, ()):
            return f'<a href="{escape(self.url(variant_page(variant), clause_id))}">{escape(title or clause_id)}</a>'
        return f"<code>{escape(clause_id)}</code>"

    def to(self, target: str, anchor: str | None = None) -> str:
        if target == self.page:
            return f"#{anchor}" if anchor else "#"
        rel = posixpath.relpath(target, posixpath.dirname(self.page) or ".")
        return f"{rel}#{anchor}" if anchor else rel

    def clause(self, variant: str, clause_id: str, text: str | None = None) -> str:
        """A Markdown link to a clause, or its id as code when the variant's page has no such anchor."""
        title = self.titles.get(variant, {}).get(clause_id)
        label = text if text is not None else md_text(title) if title else code(clause_id)
        if clause_id in self.anchors.get(variant, ()):
            return f"[{label}]({self.to(variant_page(variant), clause_id)})"
        return label

    def variant(self, variant: str, text: str | None = None, anchor: str | None = None) -> str:
        label = text if text is not None else variant
        if variant in self.anchors:
            return f"[{label}]({self.to(variant_page(variant), anchor)})"
        return label

    def case(self, case_id: str, text: str | None = None, anchor: str | None = None) -> str:
        label = text if text is not None else code(case_id)
        if case_id in self.cases:
            return f"[{label}]({self.to(case_page(case_id), anchor)})"
        if case_id in self.case_files:
            return f"[{label}]({self.to(case_file(self.case_files[case_id]))})"
        return label


def corpus_variant_page(variant_id: str) -> str:
    """The list of one variant's cases (the corpus index is split by variant, to stay light)."""
    return f"corpus/by-variant/{variant_id}.md"


def corpus_rules_page(variant_id: str) -> str:
    """One variant's cases grouped by the rule they test: ``#rule-<clause>`` lists exactly
    the cases that cite that clause."""
    return f"corpus/by-rule/{variant_id}.md"
