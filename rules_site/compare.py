"""The variants side by side (the comparison page) and the list of variants, both grouped by
family (the tables' ``family``).

The comparison puts the summaries first, then one table: a row per rule axis, a column per
variant; a cell that says the same as the base game (the table most others extend) is shown
as a dimmed "=", so the differences stand out; the row labels stay in view when the table
scrolls sideways (on a phone).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from html import escape
from typing import Any, Callable

from .links import COMPARE_PAGE, CORPUS_INDEX, Links, md_text, variant_page
from .notation import Notation, in_halves, number_word, plural, rank_text
from .scoring_order import by_commonness
from .tables import VariantView, base_variant
from .words import (BIDDING_KINDS, condition_words, hand_size, he_words, join, merged_takes, pack, points_words,
                    round_number, seat_ref, widow_size)


RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}


@dataclass(frozen=True)
class Axis:
    key: str
    title: str
    section: str                          # the variant page's section (rules-<section>)
    cell: Callable[[dict[str, Any], Notation], str]


def _players(t: dict[str, Any], w: Notation) -> str:
    n = t["players"]["count"]
    if w.team_game:
        return f"{n}, {number_word(len(w.units))} teams of {number_word(len(w.units[0]))}"
    return f"{n}, " + {"maker-against-rest": "the maker against the rest", "maker-and-called": "the maker and a called partner",
                       "each-alone": "each for himself"}.get(t["players"].get("sides"), str(t["players"].get("sides")))


def players_fact(t: dict[str, Any], w: Notation) -> str:
    """``4 players in two teams of two``, ``5 players, each for himself``: for the list of variants."""
    text = _players(t, w)
    count, _, rest = text.partition(", ")
    if w.team_game:
        return f"{count} players in {rest}"
    return f"{count} players, {rest}" if rest else f"{count} players"


def _pack(t: dict[str, Any], w: Notation) -> str:
    ranks = t["deck"].get("ranks", [])
    text = (f"{len(pack(t))} cards, {RANK_WORDS.get(ranks[0], rank_text(ranks[0]))} to {RANK_WORDS.get(ranks[-1], rank_text(ranks[-1]))}"
            if ranks else f"{len(pack(t))} cards")
    extra = t["deck"].get("extra") or []
    if extra:
        text += " and " + join([w.card(c) for c in extra])
    return text


def _trumps(t: dict[str, Any], w: Notation) -> str:
    ranking = t.get("ranking") or {}
    parts = []
    if ranking.get("benny"):
        parts.append(f"{w.card(ranking['benny'])} {w.benny} highest")
    parts.append("right and left bowers" if ranking.get("bowers") else "no bowers")
    master = (ranking.get("no-trump") or {}).get("master")
    if master:
        parts.append(f"at no-trumps {w.card(master)} beats all")
    return "; ".join(parts)


def _deal(t: dict[str, Any], w: Notation) -> str:
    packets = [str(p["count"]) for p in t["deal"].get("packets", []) if p.get("to") == "players"]
    text = f"{hand_size(t)} each ({'+'.join(packets)})"
    if widow_size(t):
        text += f", {widow_size(t)} to the {w.widow}"
    if t["deal"].get("upcard"):
        text += ", an upcard"
    return text


def _making(t: dict[str, Any], w: Notation) -> str:
    steps = [s for s in t.get("hand") or [] if s.get("kind") in BIDDING_KINDS]
    parts = []
    rounds = [s for s in steps if s.get("kind") == "make-trumps"]
    if rounds:
        words = []
        for s in rounds:
            if s.get("action") == "order":
                words.append("accept the upcard's suit")
            else:
                words.append(("name another suit" if s.get("turned-down") == "forbidden" else "name any suit")
                             + (" or no-trumps" if s.get("no-trump") else ""))
        parts.append(", then ".join(words))
        if any(s.get("stuck") for s in rounds):
            parts.append("the dealer is stuck")
    for s in steps:
        if s.get("kind") == "auction":
            bids = [b for b in s.get("bids") or [] if b.get("enabled", True)]
            tricks = sorted({b["tricks"] for b in bids if "tricks" in b})
            nt = any(b.get("strain") == "NT" for b in bids)
            parts.append(f"an auction, {tricks[0]} to {tricks[-1]} tricks" if len(tricks) > 1 else "an auction")
            if nt:
                parts[-1] += ", no-trumps too"
        elif s.get("kind") == "force-bid":
            parts.append(f"{seat_ref(s.get('who'), w)} may be given the bid")
        elif s.get("kind") == "name" and s.get("effect") == "trumps":
            parts.append(f"{seat_ref(s.get('who'), w)} names trumps")
    hand = t.get("hand") or []
    for s in (s for s in steps if s.get("kind") in ("throw-in", "set-trumps")):
        # What a step that ends the bidding means depends on where it stands: before any
        # bidding (and with a condition) it sets trumps at once; after the rounds, all passed.
        index = next((i for i, x in enumerate(hand) if x is s), 0)
        bid_before = any(x.get("kind") in ("make-trumps", "auction", "name") for x in hand[:index])
        when = {k: v for k, v in (s.get("when") or {}).items() if k != "all-passed"}
        if s.get("kind") == "throw-in":
            parts.append("all pass: thrown in" if bid_before else "thrown in")
            continue
        strain = "the upcard's suit" if s.get("trumps") == "upcard" else w.strain(s.get("trumps"))
        if when:
            parts.append(f"if {condition_words(when, t, w)}: {strain} trumps at once")
        elif not bid_before:
            parts.append(f"{strain} is trumps, no bidding" if s.get("trumps") == "upcard" else f"played at {strain}, no bidding")
        else:
            parts.append(f"all pass: played at {strain}")
    return "; ".join(parts) or "no set end"


def _alone(t: dict[str, Any], w: Notation) -> str:
    offers = [s for s in t.get("hand") or [] if s.get("kind") == "offer" and s.get("effect") in ("alone", "defend-alone")]
    if not offers:
        bids = [b for s in t.get("hand") or [] for b in s.get("bids") or [] if b.get("alone")]
        return "by some bids" if bids else "no"
    parts = []
    for s in offers:
        if s.get("effect") == "alone":
            parts.append("the maker may" + (" (sometimes must)" if s.get("forced") else ""))
        else:
            parts.append("a lone defence" + (" against any maker" if not (s.get("when") or {}).get("alone") else ""))
    order = [s.get("kind") for s in t.get("hand") or []]
    first_offer = next(i for i, s in enumerate(t.get("hand") or []) if s in offers)
    if "exchange" in order:
        parts.append("decided before the exchange" if first_offer < order.index("exchange") else "decided after the exchange")
    return "; ".join(parts)


def _exchange(t: dict[str, Any], w: Notation) -> str:
    parts = []
    for s in t.get("hand") or []:
        if s.get("kind") == "exchange":
            for who, source_key, when, declines in merged_takes(s.get("takes") or []):
                source = "the upcard" if source_key == "upcard" else f"the {w.widow}"
                cond = []
                if "round" in when:
                    cond.append(f"round {round_number(t, when['round'])}")
                if when.get("alone") is False:
                    cond.append("not alone")
                text = f"{seat_ref(who, w).split(' (')[0]} takes {source}" + (f" ({', '.join(cond)})" if cond else "")
                if declines is not None:
                    text += ", may decline"
                if text not in parts:
                    parts.append(text)
        elif s.get("kind") == "give":
            parts.append("the loner's partner may pass a card")
        elif s.get("kind") == "offer" and s.get("effect") == "swap-with-kitty":
            parts.append("a swap with the kitty")
    return "; ".join(parts) or "none"


def _lead(t: dict[str, Any], w: Notation) -> str:
    play = next((s for s in t.get("hand") or [] if s.get("kind") == "play"), {})
    parts = []
    for rule in play.get("lead") or []:
        who = seat_ref(rule.get("seat"), w).split(" (")[0]
        if (rule.get("when") or {}).get("alone") is True:
            parts.append(f"{who} if alone")
        elif rule.get("when"):
            parts.append(f"{who} (sometimes)")
        else:
            parts.append(who)
    if len(set(p.removesuffix(" if alone").removesuffix(" (sometimes)") for p in parts)) == 1:
        return parts[0].removesuffix(" if alone").removesuffix(" (sometimes)")   # the same seat either way
    return ", else ".join(parts) or "the eldest hand"


def _scoring(t: dict[str, Any], w: Notation) -> str:
    rows = [r for r in by_commonness((t.get("scoring") or {}).get("rows") or [], t) if r.get("enabled", True) is not False]
    titles = {c["id"]: c["title"] for c in t.get("clauses") or []}
    items = []
    for row in rows:
        awards = row.get("award") or []
        points = ", ".join(f"{points_words(a.get('points', 0), short=True, half=in_halves(t))}"
                           + {"makers": "", "maker": " to the maker", "defenders": " to the defenders", "everyone": " to each",
                              "in-hand": " to each in the hand", "partner": " to the partner"}.get(a.get("to"), f" to {a.get('to')}")
                           + (f" if {he_words(condition_words(a['when'], t, w))}" if a.get("when") else "")
                           for a in awards) or "nothing"
        items.append(f"{escape(titles.get(row['id'], row['id'].replace('-', ' ')))}: {points}")
    return "<br>".join(items)


def _game(t: dict[str, Any], w: Notation) -> str:
    game = t["game"]
    parts = []
    if game.get("direction") == "down":
        parts.append(f"from {game.get('start-score', 0)} down to {game.get('target', 0)}")
    elif game.get("target"):
        parts.append(f"first to {game['target']}")
    if game.get("deals"):
        parts.append(f"{game['deals']} deals")
    if game.get("lose-at") is not None:
        parts.append(f"lose at {game['lose-at']}")
    return "; ".join(parts) or "—"


def _first_dealer(t: dict[str, Any], w: Notation) -> str:
    return {"first-black-jack": "first black jack", "random": "at random", "cut": "cut, lowest deals"}.get(
        t["game"].get("first-dealer"), str(t["game"].get("first-dealer")))


AXES: tuple[Axis, ...] = (
    Axis("players", "Players", "players", _players),
    Axis("pack", "Pack", "cards", _pack),
    Axis("trumps", "Top trumps", "cards", _trumps),
    Axis("deal", "Deal", "dealing", _deal),
    Axis("first-dealer", "First dealer", "dealing", _first_dealer),
    Axis("making", "Making trumps", "bidding", _making),
    Axis("alone", "Playing alone", "alone", _alone),
    Axis("exchange", "Taking up cards", "exchange", _exchange),
    Axis("lead", "Opening lead", "play", _lead),
    Axis("scoring", "A hand is worth", "scoring", _scoring),
    Axis("game", "Game", "game", _game),
)


def families(views: list[VariantView]) -> list[tuple[str, list[VariantView]]]:
    grouped: dict[str, list[VariantView]] = defaultdict(list)
    for view in views:
        grouped[view.family].append(view)
    return list(grouped.items())


def _cell(axis: Axis, view: VariantView) -> str:
    try:
        return axis.cell(view.table, Notation(view.table))
    except (KeyError, TypeError, IndexError, ValueError, StopIteration):
        return "?"


def render_matrix(views: list[VariantView], links: Links, case_counts: dict[str, int] | None = None) -> str:
    """The comparison: per family, its variants in one line each, then a table of the family
    against the base game (the base game's column first, a dimmed = where a variant says the
    same); in a family other than the base game's, rows where every variant says the same as
    the base game are named in one line instead."""
    lines = ["---", "hide:", "  - toc", "  - navigation", "---", "", "# The variants compared", ""]
    if not views:
        return "\n".join(lines + ["There are no variants yet."]) + "\n"
    base = base_variant(views)
    base_view = next(v for v in views if v.id == base)
    case_counts = case_counts or {}
    lines += [f"Every variant of the specification, by family: first what each is in one line, then a table against "
              f"{md_text(base_view.title)}, the base game. A dimmed **=** means *the same as {md_text(base_view.title)}*, "
              "so what is written is what differs. Each cell is read from the variant's rule table with its default "
              "options when the site is built; the row names link to the rules of the base game, the column heads to "
              "each variant's page.", ""]
    for number, (family, members) in enumerate(families(views), 1):
        anchor = "family-" + "-".join(re.findall(r"[a-z0-9]+", family.lower()))
        lines += [f"## {md_text(family)} {{#{anchor}}}", ""]
        for view in members:
            parent = f" (a preset of {links.variant(view.raw_extends, md_text(_title(views, view.raw_extends)))})" if view.raw_extends else ""
            untested = " *Untested: no case yet.*" if not case_counts.get(view.id) else ""
            lines.append(f"- {links.variant(view.id, '**' + md_text(view.title) + '**')}{parent}: "
                         f"{md_text(view.table['summary'])}{untested}")
        lines.append("")
        columns = members if base in [v.id for v in members] else [base_view] + members
        lines += family_table(family, columns, base_view, links, case_counts, full=base in [v.id for v in members])
    house = house_rules_table(views, base_view, links)
    if house:
        lines[lines.index("# The variants compared") + 2] += " At the end, [the house rules each variant turns on](#house-rules)."
    lines += house
    return "\n".join(lines) + "\n"


def family_table(family: str, columns: list[VariantView], base_view: VariantView, links: Links,
                 case_counts: dict[str, int], full: bool) -> list[str]:
    base = base_view.id
    rows, same = [], []
    for axis in AXES:
        base_text = _cell(axis, base_view)
        cells = [(view, _cell(axis, view)) for view in columns]
        if not full and all(text == base_text for view, text in cells if view.id != base):
            same.append(axis.title)
            continue
        rows.append((axis, base_text, cells))
    html = [f'<div class="es-scroll es-compare-wrap"><table class="es-compare"><caption>{escape(family)} against '
            f'{escape(base_view.title)} (= the same as {escape(base_view.title)})</caption><thead><tr>'
            '<th scope="col" class="es-axis">Rule</th>']
    for view in columns:
        mark = ' <span class="es-base">(base game)</span>' if view.id == base else ""
        html.append(f'<th scope="col"><a href="{escape(links.url(variant_page(view.id)))}">{escape(view.title)}</a>{mark}</th>')
    html.append("</tr></thead><tbody>")
    for axis, base_text, cells in rows:
        row = [f'<th scope="row" class="es-axis"><a href="{escape(links.url(variant_page(base), "rules-" + axis.section))}">'
               f"{escape(axis.title)}</a></th>"]
        for view, text in cells:
            if view.id != base and text == base_text:
                row.append(f'<td class="es-same"><span aria-hidden="true">=</span><span class="es-sr">same as {escape(base_view.title)}</span></td>')
            elif view.id != base and "<br>" in base_text:
                row.append(f"<td>{list_difference(text, base_text, base_view.title)}</td>")
            else:
                row.append(f"<td>{text}</td>")
        html.append("<tr>" + "".join(row) + "</tr>")
    row = ['<th scope="row" class="es-axis">House rules</th>']
    row += [f"<td>{plural(len(view.options), 'option')}</td>" if view.options else "<td>none</td>" for view in columns]
    html.append("<tr>" + "".join(row) + "</tr>")
    row = ['<th scope="row" class="es-axis">Conformance cases</th>']
    for view in columns:
        count = case_counts.get(view.id, 0)
        row.append(f"<td>{count}</td>" if count else '<td class="es-untested">untested</td>')
    html.append("<tr>" + "".join(row) + "</tr></tbody></table></div>")
    out = ["".join(html), ""]
    if same:
        out += [f"The same as {md_text(base_view.title)} in every variant of this family: {', '.join(same).lower()}.", ""]
    return out


def lower_first(title: str) -> str:
    """``Going alone`` -> ``going alone``; ``UK style`` and ``The Canadian loner`` keep their capitals."""
    first = title.split(" ", 1)[0]
    return title if first.isupper() and len(first) > 1 else title[:1].lower() + title[1:]


def option_value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return escape(str(value).replace("-", " "))


def house_rules_table(views: list[VariantView], base_view: VariantView, links: Links) -> list[str]:
    """Which of the base game's house rules each variant turns on: a row per house rule that
    some variant sets otherwise than the base game does (or does not offer), a column per
    variant that offers any of them; the rest named in one line."""
    base_options = base_view.options
    if not base_options:
        return []
    def value(view: VariantView, key: str) -> Any:
        return view.resolved.selected.get(key, view.options.get(key, {}).get("default"))
    base_values = {key: value(base_view, key) for key in base_options}

    def differs(view: VariantView, key: str) -> bool:
        return key in view.options and value(view, key) != base_values[key]
    others = [v for v in views if v.id != base_view.id]
    shown = [key for key in base_options if any(differs(v, key) for v in others)]
    alike = [key for key in base_options if key not in shown]
    columns = [v for v in others if any(differs(v, key) for key in shown)]
    rows = [(key, base_options[key], [(v, key in v.options, value(v, key) if key in v.options else None) for v in columns])
            for key in shown]
    lines = ["## House rules, variant by variant {#house-rules}", "",
             f"The house rules of {md_text(base_view.title)} that a variant sets otherwise: **on** or a value where the "
             "variant plays it by default, *off* where it is offered but not played, and — where the variant does not "
             "offer it. A variant's page tells each rule.", ""]
    if rows:
        html = [f'<div class="es-scroll es-compare-wrap"><table class="es-compare es-house-rules"><caption>House rules by '
                f'variant ({escape(base_view.title)} first)</caption><thead><tr><th scope="col" class="es-axis">House rule</th>'
                f'<th scope="col">{escape(base_view.title)}</th>']
        html += [f'<th scope="col"><a href="{escape(links.url(variant_page(v.id)))}">{escape(v.title)}</a></th>' for v in columns]
        html.append("</tr></thead><tbody>")
        for key, option, cells in rows:
            head = (f'<th scope="row" class="es-axis"><a href="{escape(links.url(variant_page(base_view.id), "option-" + key))}">'
                    f"{escape(option.get('title', key))}</a></th>")
            row = [head, f'<td>{option_value_words(base_values[key])}</td>']
            for view, offered, val in cells:
                if not offered:
                    row.append('<td class="es-same"><span aria-hidden="true">—</span><span class="es-sr">not offered</span></td>')
                elif val == base_values[key]:
                    row.append(f'<td class="es-base">{option_value_words(val)}</td>')
                else:
                    row.append(f"<td><strong>{option_value_words(val)}</strong></td>")
            html.append("<tr>" + "".join(row) + "</tr>")
        html.append("</tbody></table></div>")
        lines += ["".join(html), ""]
    if alike:
        lines += [f"Every other house rule is set as in {md_text(base_view.title)} wherever a variant offers it: "
                  + ", ".join(md_text(lower_first(base_options[k].get("title", k))) for k in alike) + ".", ""]
    return lines


def list_difference(text: str, base_text: str, base_title: str) -> str:
    """A cell that lists lines (the scoring rows) against the base game's: only the lines that
    differ, then what it shares said in a word, and the base game's lines it does without."""
    lines, base_lines = text.split("<br>"), base_text.split("<br>")
    differ = [line for line in lines if line not in base_lines]
    shared = len(lines) - len(differ)
    titles = {line.split(":")[0] for line in lines}
    without = [line.split(":")[0] for line in base_lines if line not in lines and line.split(":")[0] not in titles]
    out = differ[:]
    if shared:
        out.append(f'<span class="es-base">as {escape(base_title)}: {shared} of its {len(base_lines)} rows</span>')
    if without and shared:
        named = ", ".join(w[:1].lower() + w[1:] for w in without[:3]) + (f" and {len(without) - 3} more" if len(without) > 3 else "")
        out.append(f'<span class="es-base">without: {named}</span>')
    return "<br>".join(out)


def _title(views: list[VariantView], variant: str | None) -> str:
    return next((v.title for v in views if v.id == variant), variant or "")


def render_variants_index(views: list[VariantView], case_counts: dict[str, int], links: Links) -> str:
    lines = ["# The variants", "",
             "Each variant is a rule table in `spec/variants/`; its page here is generated from that table when the "
             "site is built, so the page and the table cannot disagree. Each page opens with a hand played out, then teaches "
             "the game in the order of play and says how it differs from the base game; every rule has a stable anchor "
             "that the cases cite, and links to exactly the cases that test it. Each game also has a one-page quick "
             f"reference to print, and the words are in the [glossary]({links.to('glossary.md')}).", "",
             f"See also [all the variants compared]({links.to(COMPARE_PAGE)}).", ""]
    for family, members in families(views):
        lines += [f"## {md_text(family)}", ""]
        for view in members:
            t = view.table
            w = Notation(t)
            parent = view.raw_extends
            extends = f" A preset of {links.variant(parent, md_text(_title(views, parent)))}." if parent else ""
            count = case_counts.get(view.id, 0)
            tested = (f"[{plural(count, 'case')}]({links.to(CORPUS_INDEX, 'variant-' + view.id)})" if count
                      else "**untested** (no case yet)")
            facts = [players_fact(t, w), f"{len(pack(t))} cards", "game: " + _game(t, w), plural(len(view.options), "option"), tested]
            lines += [f"- {links.variant(view.id, '**' + md_text(t['title']) + '**')}: {md_text(t['summary'])}{extends}  ",
                      "  " + " · ".join(facts), ""]
    return "\n".join(lines) + "\n"
