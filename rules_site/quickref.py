"""A quick reference per game, to print on one sheet (A4 or Letter), and the glossary.

The quick reference is the variant page's own pieces, nothing re-worded: the game at a glance
(players, pack, deal, trumps, play, what a hand is worth, the game), the rank of the cards for
one choice of trumps, and the glossary's words that the table's rules use. Links point back to
the variant page. ``docs/stylesheets/euchre.css`` prints it without the site's navigation;
``tests/test_site_print.py`` prints it headless and counts the pages.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from .links import Links, md_text, variant_page
from .tables import VariantView

GLOSSARY_PAGE = "glossary.md"


def quickref_page(variant_id: str) -> str:
    return f"quickref/{variant_id}.md"


# Terms a player meets, in a sentence each; a term is shown for a game when the words in the
# pattern occur in its rules (clause texts and titles), so a new table gets its own list.
GLOSSARY: tuple[tuple[str, str, str], ...] = (
    ("Trick", r"\btricks?\b", "One card from each player in turn; the highest trump, else the highest card of the suit led, wins it."),
    ("Trumps", r"\btrumps?\b", "The suit chosen for the hand; any trump beats any card of another suit."),
    ("Follow suit", r"\bfollow", "Play a card of the suit led when you hold one."),
    ("Eldest hand", r"\beldest\b", "The player on the dealer's left: first to speak and, usually, to lead."),
    ("Upcard", r"\bupcard|turned (?:face )?up\b", "The card turned face up after the deal; its suit is offered as trumps."),
    ("Order up", r"\border(?:s|ed)? (?:it )?up\b|\border\b", "Tell the dealer to take up the upcard, making its suit trumps."),
    ("Maker", r"\bmakers?\b", "The player (or side) who chose trumps, and must take the most tricks."),
    ("Right bower", r"\bright bower\b|\bbowers?\b", "The jack of trumps: the highest trump."),
    ("Left bower", r"\bleft bower\b|\bbowers?\b", "The other jack of the same colour: the second trump, and a trump for every purpose."),
    ("Benny", r"\bbenny\b|\bjoker\b|\bbest bower\b", "A card above every trump (the joker, or the card the table names)."),
    ("Pam", r"\bpam\b", "Five-card Loo's jack of clubs: the highest trump whatever the trump suit."),
    ("Going alone", r"\balone\b|\blone\b", "The maker plays without a partner, for more points; the partner sits out."),
    ("March", r"\bmarch\b", "Taking all the tricks of a hand."),
    ("Euchre", r"\beuchred?\b", "The makers fail to take enough tricks; the defenders score."),
    ("Kitty", r"\bkitty\b", "The cards not dealt to the players."),
    ("Widow", r"\bwidow\b", "Cards dealt face down apart, which the maker may take up."),
    ("Stock", r"\bstock\b", "The undealt cards, drawn from in an exchange."),
    ("Bid", r"\bbids?\b|\bauction\b", "A promise to take a number of tricks with a trump suit; the highest bid makes trumps."),
    ("Set", r"\bset\b", "A maker who falls short of the bid is set, and loses the bid's value."),
    ("Misère", r"\bmis[eè]re\b", "A bid to take no trick at all."),
    ("Stick the dealer", r"\bstick\b|\bmust name\b", "When everyone passes twice, the dealer must name trumps."),
    ("Renege", r"\brenege", "Failing to follow suit when able: a fault, punished where the table says."),
    ("Loo", r"\bloo(?:ed|s)?\b", "In Loo, a player who takes no trick is looed and pays into the next pool."),
    ("Dummy", r"\bdummy\b", "A hand dealt face down for no player, which the maker may use."),
)


def glossary_terms(table: dict[str, Any]) -> list[tuple[str, str]]:
    """The glossary's words that this table's rules use."""
    text = " ".join(f"{c.get('title', '')} {c.get('text', '')}" for c in table.get("clauses") or []).lower()
    text += " " + str(table.get("summary", "")).lower()
    return [(term, meaning) for term, pattern, meaning in GLOSSARY if re.search(pattern, text)]


def _retarget(html: str, url: str) -> str:
    """Links to the variant page's anchors, from the quick reference page."""
    return html.replace('href="#', f'href="{url}#')


def render_quickref(view: VariantView, page, links: Links) -> str:
    """The quick reference of one game (``page``: its :class:`VariantPage`, for the pieces)."""
    table = view.table
    url = links.url(variant_page(view.id))
    glance = page.summary()[-1]               # the glance table (the object of the game comes before it)
    ranks = page.cards_drawn()
    ranks_html = _first_rows(ranks[-1] if ranks else "", 1)
    lines = ["---", "search:", "  exclude: true", "hide:", "  - navigation", "  - toc", "---", "",
             f"# {md_text(table['title'])}: quick reference", "",
             f'<p class="es-qr-lead">{escape(table["summary"])} '
             f'<a href="{escape(url)}">The full rules</a>. Print this page: it fits one sheet.</p>', "",
             '<div class="es-quickref">', "",
             '<h2 id="qr-glance">At a glance</h2>', "", _retarget(glance, url), "",
             '<h2 id="qr-ranks">Card ranks</h2>', "", _retarget(ranks_html, url), ""]
    terms = glossary_terms(table)
    if terms:
        lines += ['<h2 id="qr-glossary">Words</h2>', "",
                  '<dl class="es-qr-words">' + "".join(f"<dt>{escape(t)}</dt><dd>{escape(m)}</dd>" for t, m in terms) + "</dl>",
                  "", f'<p class="es-qr-more">More words: <a href="{escape(links.url(GLOSSARY_PAGE))}">the glossary</a>.</p>']
    lines += ["", "</div>"]
    return "\n".join(lines) + "\n"


def _first_rows(html: str, keep: int) -> str:
    """A rank table cut to its first ``keep`` choices of trumps (the others follow the same pattern)."""
    rows = re.findall(r"<tr><th scope=\"row\">.*?</tr>", html)
    if len(rows) <= keep:
        return html
    cut = html
    for row in rows[keep:]:
        cut = cut.replace(row, "", 1)
    return cut.replace("</tbody></table>", f'<tr><td colspan="3">The other suits as trumps: the same pattern.</td></tr></tbody></table>', 1)


def render_glossary(views: list[VariantView], links: Links) -> str:
    """Every word of the glossary, with the games whose rules use it."""
    lines = ["# Glossary", "", "The words of Euchre and its family, as the rules pages use them; each lists the games whose rules "
             "say it. Every game also has a one-page quick reference to print.", ""]
    for term, pattern, meaning in GLOSSARY:
        users = [v for v in views if re.search(pattern, " ".join(f"{c.get('title', '')} {c.get('text', '')}"
                                                                   for c in v.table.get("clauses") or []).lower())]
        if not users:
            continue
        anchor = "term-" + re.sub(r"[^a-z0-9]+", "-", term.lower().replace("è", "e")).strip("-")
        games = ", ".join(f"[{md_text(v.title)}]({links.to(quickref_page(v.id))})" for v in users)
        lines += [f'<p id="{anchor}" markdown><strong>{escape(term)}</strong>: {md_text(meaning)} *In:* {games}.</p>', ""]
    lines += ["Quick references: " + ", ".join(f"[{md_text(v.title)}]({links.to(quickref_page(v.id))})" for v in views) + "."]
    return "\n".join(lines) + "\n"
