"""The English of the built site, read as a player reads it: the text of each page's article
(code, scripts and the case scripts left out), checked for the defects generated prose falls
into. Each check returns the phrases it finds, with a few words around them.

Kinds: a placeholder left in; a dash standing where a value belongs; a plural after one
("1 kings"); the same phrase on both sides of an "else"; markup shown as text; a file name
as a title; a seat named twice ("Dealer Player 4"); a bid written as two numbers ("6 (7)");
a sentence cut before its object ("discards as many."); a condition printed as logic
("not (…)").
"""

from __future__ import annotations

import html.parser
import re
from typing import Callable

SKIP = {"code", "pre", "script", "style", "kbd", "svg", "samp", "template"}
BLOCK = {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "div", "caption", "summary", "dt", "dd",
         "blockquote", "tr", "br", "section", "article", "figcaption", "label", "option", "title"}
PLURAL_NOUNS = ("kings", "queens", "jacks", "aces", "tens", "nines", "tricks", "points", "cards", "cases", "players",
                "hands", "trumps", "rules", "options", "bids", "games", "deals", "counters", "sides", "seats", "suits",
                "bowers", "marks", "notes", "steps", "rows", "engines", "variants", "loos", "sequences")


class ArticleText(html.parser.HTMLParser):
    """The readable text of a page: the article (or the whole body when there is none) and the
    title, one line per block element, without code, scripts or hidden data."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.in_article = 0
        self.seen_article = False
        self.parts: list[str] = []
        self.body: list[str] = []
        self.headings: list[str] = []
        self._heading: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag in SKIP:
            self.skip += 1
        if tag == "article":
            self.in_article += 1
            self.seen_article = True
        if tag in ("h1", "h2", "h3", "title") and not self.skip:
            self._heading = []
        if tag in BLOCK:
            self.parts.append("\n")
            self.body.append("\n")

    def handle_endtag(self, tag):
        if tag in SKIP and self.skip:
            self.skip -= 1
        if tag == "article" and self.in_article:
            self.in_article -= 1
        if tag in ("h1", "h2", "h3", "title") and self._heading is not None:
            self.headings.append(" ".join("".join(self._heading).split()).rstrip("¶").strip())
            self._heading = None
        if tag in BLOCK:
            self.parts.append("\n")
            self.body.append("\n")

    def handle_data(self, data):
        if self.skip:
            return
        if self._heading is not None:
            self._heading.append(data)
        self.body.append(data)
        if self.in_article:
            self.parts.append(data)

    def text(self) -> str:
        raw = "".join(self.parts if self.seen_article else self.body)
        return "\n".join(" ".join(line.split()) for line in raw.splitlines() if line.strip())


def read(html_text: str) -> tuple[str, list[str]]:
    parser = ArticleText()
    parser.feed(html_text)
    return parser.text(), parser.headings


def _around(text: str, match: re.Match, width: int = 40) -> str:
    return text[max(0, match.start() - width):match.end() + width].replace("\n", " / ")


def placeholders(text: str) -> list[str]:
    pattern = re.compile(r"\{[a-z_][a-z0-9_.-]*\}|\{\{|\}\}|\bTODO\b|\bFIXME\b|\bNone\b|\bnan\b|\?\?\?|"
                         r"<(?:card|seat|suit|bid)>")
    return [_around(text, m) for m in pattern.finditer(text)]


def dash_for_value(text: str) -> list[str]:
    """A dash where a value belongs: after a label's colon, as a list item of a facts line, or
    as the whole text of a line (a table cell)."""
    pattern = re.compile(r"(?:^|\n)[^\n]{1,40}:\s*[—–-]\s*(?:$|\n|\.)|·\s*[—–]\s*(?:·|$|\n)|(?:^|\n)[—–]\s*(?=\n|$)")
    return [_around(text, m) for m in pattern.finditer(text)]


def plural_after_one(text: str) -> list[str]:
    pattern = re.compile(r"\b(?:1|one|a single) (" + "|".join(PLURAL_NOUNS) + r")\b", re.I)
    out = []
    for m in pattern.finditer(text):
        before = text[max(0, m.start() - 12):m.start()].lower()
        if re.search(r"(?:\d|of|than|to|in|from|no|player|seat|hand|step|version|round|trick)\s*$", before) or re.match(r"\s*(?:or|to|of)\b", text[m.start() + 2:]):
            continue            # "10 or 1 points", "one of", "worth 0 to 1 points"
        if re.match(r"1 (?:\w+) (?:or|to|and) \d", text[m.start():m.end() + 8]):
            continue
        out.append(_around(text, m))
    return out


ELSE = re.compile(r"([^.;:,()\n]{3,}?) if [^,;\n]+?,? else ([^.;,()\n]{3,})")


def same_both_sides(text: str) -> list[str]:
    out = []
    for m in ELSE.finditer(text):
        left = " ".join(m.group(1).split()[-4:]).lower().strip()
        right = " ".join(m.group(2).split()[:4]).lower().strip()
        shortest = min(len(left.split()), len(right.split()))
        if shortest >= 2 and left.split()[-shortest:] == right.split()[:shortest]:
            out.append(_around(text, m, 10))
    return out


def finder(pattern: str) -> Callable[[str], list[str]]:
    """A check that reports every match of one pattern, with the words around it."""
    compiled = re.compile(pattern)
    return lambda text: [_around(text, m) for m in compiled.finditer(text)]


raw_markup = finder(r"</?(?:code|strong|em|span|a|div|p|br|sup|details|summary)\b[^>]*>|&(?:lt|gt|amp|nbsp);|"
                    r"\*\*[^*\n]+\*\*|\{:\s*[.#]|\{#[a-z]|\]\([^)\s]+\)|(?<![\w`])`[^`\n]+`(?![\w`])|\\[_*\[\]#|]")
seat_named_twice = finder(r"\b[Dd]ealer Player \d+\b|\bPlayer Player\b|\b[Ss]eat (?:Player|North|East|South|West)\b")
bid_as_two_numbers = finder(r"\b\d+ \(\d+\), \d+ \(\d+\)")
cut_short = finder(r"\bas many(?=\s*[.;)]|\s*$)|\bthen discards? (?:as many|the same)\s*[.;]")
logic_as_text = finder(r"\bnot \((?:the|a|an|any|no|every|each|it|he|that|this|its) |\b(?:and|or) \((?=\w+[=:])|\b\w+ (?:==|!=) \w+")


def file_names_as_titles(headings: list[str], text: str) -> list[str]:
    pattern = re.compile(r"\b[\w-]+\.(?:ya?ml|json|md|py|txt)\b|^The seed\b|\bseed document\b|\bseed \d{3}\b", re.I)
    out = [h for h in headings if pattern.search(h)]
    out += [_around(text, m) for m in re.finditer(r"\bThe seed\b|\bseed document \d+|\b[Ss]eed \d{3}\b", text)]
    return out


CHECKS: dict[str, Callable[[str], list[str]]] = {
    "placeholder": placeholders,
    "dash for a value": dash_for_value,
    "plural after one": plural_after_one,
    "the same both sides of else": same_both_sides,
    "raw markup": raw_markup,
    "seat named twice": seat_named_twice,
    "bid as two numbers": bid_as_two_numbers,
    "sentence cut short": cut_short,
    "logic as text": logic_as_text,
}


ESCAPED_TAG = re.compile(r"&lt;(?:span|sup|em|strong|a|div)\s+(?:class|role|aria-label|href)=")


def defects(html_text: str) -> dict[str, list[str]]:
    """Every defect of a page, by kind (empty when the page reads well)."""
    text, headings = read(html_text)
    found = {kind: check(text) for kind, check in CHECKS.items()}
    # Markup drawn inside a code span is escaped there, and shows as tags: found in the HTML itself.
    found["raw markup"] += [html_text[max(0, m.start() - 40):m.end() + 40] for m in ESCAPED_TAG.finditer(html_text)]
    found["file name as a title"] = file_names_as_titles(headings, text)
    return {kind: hits for kind, hits in found.items() if hits}
