"""The comparison matrix: every variant against every rule axis, each cell read from the
variant's resolved table (default options), with a mark where an option can change it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .notation import card_html, colours_of
from .words import LEAD, SIDES, hand_size, kitty_size, pack, rank_text, short_award, short_bidding, widow_size
from .links import COMPARE_PAGE, CORPUS_INDEX, Links, code, md_cell, md_text, variant_page
from .tables import VariantView, compact


@dataclass(frozen=True)
class Axis:
    key: str
    title: str
    section: str                       # the table section, whose topic heading the row links to
    paths: tuple[str, ...]             # the table paths this axis reads (for the option mark)
    short: Callable[[dict[str, Any]], str]
    glance: bool = False               # also shown in a variant page's "at a glance" table


def _players(t: dict[str, Any]) -> str:
    p = t["players"]
    text = f"{p['count']}, {SIDES.get(p.get('sides'), p.get('sides'))}"
    if p.get("sides") == "partnerships" and p.get("partnerships"):
        text += " (" + " v ".join("&".join(str(s) for s in group) for group in p["partnerships"]) + ")"
    return text


def _pack(t: dict[str, Any]) -> str:
    d = t["deck"]
    ranks = d.get("ranks", [])
    text = f"{len(pack(t))} cards: {rank_text(ranks[0])}–{rank_text(ranks[-1])}" if ranks else f"{len(pack(t))} cards"
    if d.get("extra"):
        text += " + " + " ".join(card_html(c, colours_of(t)) for c in d["extra"])
    return text


TRUMP_WORDS = {"benny": "Benny", "right-bower": "R", "left-bower": "L"}


def _trumps(t: dict[str, Any]) -> str:
    return " ".join(TRUMP_WORDS.get(str(i), rank_text(str(i))) for i in t["ranking"].get("trump", []))


def _plain(t: dict[str, Any]) -> str:
    return " ".join(rank_text(str(r)) for r in t["ranking"].get("plain", []))


def _no_trump(t: dict[str, Any]) -> str:
    nt = t["ranking"].get("no-trump")
    if not nt:
        return "—"
    text = " ".join(rank_text(str(r)) for r in nt.get("plain", []))
    if nt.get("master"):
        text += f"; master {card_html(nt['master'], colours_of(t))}"
    return text


def _deal(t: dict[str, Any]) -> str:
    deal = t["deal"]
    packets = "+".join(str(p["count"]) if p.get("to") == "players" else f"({p['count']} {deal.get('widow-name', 'widow')})"
                       for p in deal.get("packets", []))
    text = f"{hand_size(t)} each ({packets})"
    if deal.get("upcard"):
        text += ", upcard"
    return text


def _widow(t: dict[str, Any]) -> str:
    size = widow_size(t)
    return f"{size} ({t['deal'].get('widow-name', 'widow')})" if size else "—"


def _kitty(t: dict[str, Any]) -> str:
    return str(kitty_size(t))


def _turned_down(t: dict[str, Any]) -> str:
    p = t["bidding"].get("upcard-rounds")
    return p.get("second-round", {}).get("turned-down-suit", "—") if p else "—"


def _nt_call(t: dict[str, Any]) -> str:
    p = t["bidding"].get("upcard-rounds")
    if p:
        return "yes" if p.get("second-round", {}).get("no-trump") else "no"
    bids = t["bidding"].get("auction", {}).get("bids", [])
    return "yes" if any(b.get("strain") == "NT" for b in bids) else "no"


def _exchange(t: dict[str, Any]) -> str:
    takes = t["exchange"].get("takes", [])
    if not takes:
        return "none"
    parts = []
    for take in takes:
        when = take.get("when") or {}
        cond = ", ".join(([f"round {when['round']}"] if "round" in when else [])
                         + ([f"maker {when['maker']}"] if "maker" in when else []))
        text = f"{take.get('who')} ← {take.get('from')}" + (f" ({cond})" if cond else "")
        if take.get("optional"):
            text += " optional"
        if take.get("unless-alone"):
            text += " unless alone"
        parts.append(text)
    return "; ".join(parts)


def _alone(t: dict[str, Any]) -> str:
    a = t["alone"]
    if not a.get("allowed"):
        return "no"
    return f"yes, {a.get('declared', '')}" + (f"; {a['effect']}" if a.get("effect") else "")


def _defend(t: dict[str, Any]) -> str:
    d = t["alone"].get("defend") or {}
    return f"yes, against {d.get('against', 'a lone maker')}" if d.get("allowed") else "no"


def _best(t: dict[str, Any]) -> str:
    return "yes" if (t["alone"].get("partners-best") or {}).get("allowed") else "no"


def _lead(t: dict[str, Any]) -> str:
    p = t["play"]
    text = LEAD.get(p.get("lead"), str(p.get("lead")))
    if p.get("lone-lead") and t["alone"].get("allowed"):
        text += f"; alone: {LEAD.get(p['lone-lead'], p['lone-lead'])}"
    return text


def _rows(t: dict[str, Any]) -> str:
    rows = [r for r in t["scoring"].get("rows", []) if r.get("enabled", True) is not False]
    return "<br>".join(f"{r['id']} {short_award(r.get('award') or {})}" for r in rows)


def _makers_need(t: dict[str, Any]) -> str:
    return str(t["scoring"].get("makers-need", "by the bid"))


def _target(t: dict[str, Any]) -> str:
    g = t["game"]
    text = str(g.get("target"))
    if g.get("lose-at") is not None:
        text += f"; lose at {g['lose-at']}"
    return text


def _first_dealer(t: dict[str, Any]) -> str:
    return str(t["game"].get("first-dealer"))


def _tie(t: dict[str, Any]) -> str:
    return ", ".join(t["game"].get("simultaneous") or []) or "—"


def _benny(t: dict[str, Any]) -> str:
    benny = t["ranking"].get("benny")
    return card_html(benny, colours_of(t)) if benny else "—"


AXES: tuple[Axis, ...] = (
    Axis("players", "Players", "players", ("players",), _players, True),
    Axis("pack", "Pack", "deck", ("deck",), _pack, True),
    Axis("benny", "Benny", "ranking", ("ranking.benny",), _benny),
    Axis("trumps", "Trumps, high to low", "ranking", ("ranking.trump",), _trumps, True),
    Axis("plain", "Plain suits, high to low", "ranking", ("ranking.plain",), _plain),
    Axis("no-trump", "No-trump ranking", "ranking", ("ranking.no-trump",), _no_trump),
    Axis("deal", "Deal", "deal", ("deal.packets", "deal.upcard"), _deal, True),
    Axis("widow", "Widow / dummy", "deal", ("deal.packets",), _widow),
    Axis("kitty", "Cards not dealt", "deal", ("deal", "deck"), _kitty),
    Axis("bidding", "Bidding", "bidding", ("bidding",), short_bidding, True),
    Axis("turned-down", "Turned-down suit in round 2", "bidding", ("bidding.upcard-rounds.second-round.turned-down-suit",), _turned_down),
    Axis("nt-call", "No-trumps can be made", "bidding", ("bidding.upcard-rounds.second-round.no-trump", "bidding.auction.bids"), _nt_call),
    Axis("exchange", "Cards taken up", "exchange", ("exchange",), _exchange),
    Axis("alone", "Going alone", "alone", ("alone.allowed", "alone.declared", "alone.effect"), _alone, True),
    Axis("defend", "Defending alone", "alone", ("alone.defend",), _defend),
    Axis("best", "Partner's best card", "alone", ("alone.partners-best",), _best),
    Axis("lead", "Opening lead", "play", ("play",), _lead),
    Axis("makers-need", "Tricks the makers need", "scoring", ("scoring.makers-need",), _makers_need),
    Axis("rows", "Scoring rows (points)", "scoring", ("scoring.rows",), _rows, True),
    Axis("target", "Game", "game", ("game.target", "game.lose-at"), _target, True),
    Axis("first-dealer", "First dealer", "game", ("game.first-dealer",), _first_dealer),
    Axis("tie", "Tie-breaks", "game", ("game.simultaneous",), _tie),
)


def option_mark(view: VariantView, axis: Axis, links: Links) -> str:
    keys = []
    for path in axis.paths:
        for key, _ in view.option_setting(path):
            if key not in keys:
                keys.append(key)
    if not keys:
        return ""
    return " " + " ".join(f"[⚙]({links.to(variant_page(view.id), 'option-' + k)} \"option: {md_text(view.options[k].get('title', k))}\")"
                          for k in keys)


def render_matrix(views: list[VariantView], links: Links) -> str:
    lines = ["---", "hide:", "  - toc", "---", "", "# The variants compared", "",
             "Every variant of the specification, side by side, on every axis of the rule tables. Each cell is read "
             "from the variant's resolved table with its default options when the site is built; ⚙ marks a value an "
             "option of that variant can change (it links to the option). The row names link to the rules of the "
             "first variant; the column heads link to each variant's page.", ""]
    if not views:
        return "\n".join(lines + ["There are no variants yet."]) + "\n"
    head = "| Axis | " + " | ".join(links.variant(v.id, md_text(v.table["title"])) for v in views) + " |"
    lines += [head, "|---|" + "---|" * len(views)]
    for axis in AXES:
        cells = []
        for view in views:
            try:
                text = axis.short(view.table)
            except (KeyError, TypeError, IndexError):
                text = "?"
            cells.append(md_cell(text) + option_mark(view, axis, links))
        first = views[0].id
        lines.append(f"| [{md_text(axis.title)}]({links.to(variant_page(first), 'topic-' + axis.section)}) | " + " | ".join(cells) + " |")
    lines += ["", "| Options | " + " | ".join(
        md_cell("<br>".join(f"[{md_text(o.get('title', k))}]({links.to(variant_page(v.id), 'option-' + k)}): {code(compact(o.get('default')))}"
                            for k, o in v.options.items()) or "—") for v in views) + " |", "|---|" + "---|" * len(views)]
    lines += ["", "## Summaries {#summaries}", ""]
    for view in views:
        extends = f" (extends {links.variant(view.raw_extends, md_text(view.raw_extends))})" if view.raw_extends else ""
        lines.append(f"- {links.variant(view.id, '**' + md_text(view.table['title']) + '**')}{extends}: {md_text(view.table['summary'])}")
    return "\n".join(lines) + "\n"


def render_variants_index(views: list[VariantView], case_counts: dict[str, int], links: Links) -> str:
    lines = ["# The variants", "",
             "Each variant is a rule table in `spec/variants/`; its page here is generated from that table when the "
             "site is built, so the page and the table cannot disagree. The rules are told clause by clause, each "
             "under an anchor that conformance cases cite; the options are listed with their defaults, alternatives "
             "and sources; and the worked examples are cases from the conformance corpus.", "",
             f"See also [all the variants compared]({links.to(COMPARE_PAGE)}) axis by axis.", ""]
    titles = {v.id: v.table["title"] for v in views}
    for view in views:
        t = view.table
        parent = view.raw_extends
        extends = f" A preset of {links.variant(parent, md_text(titles.get(parent, parent)))}." if parent else ""
        facts = [f"{t['players']['count']} players, {SIDES.get(t['players'].get('sides'), t['players'].get('sides'))}",
                 _pack(t), short_bidding(t), f"game to {_target(t)}",
                 f"{len(view.options)} option{'s' if len(view.options) != 1 else ''}",
                 f"[{case_counts.get(view.id, 0)} cases]({links.to(CORPUS_INDEX, 'variant-' + view.id)})"]
        lines += [f"- {links.variant(view.id, '**' + md_text(t['title']) + '**')}: {md_text(t['summary'])}{extends}  ",
                  "  " + " · ".join(facts), ""]
    return "\n".join(lines) + "\n"

