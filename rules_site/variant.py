"""One page per variant, written from its resolved rule table, to teach the game.

The page opens with the object of the game and a one-screen summary (players, pack, deal,
how trumps are made, what a hand is worth, the game); then the rules in the order of play:
the players, the cards, the deal, then one section per stage of the table's own ``hand``
steps in their order (making trumps, going alone, taking up cards, the play...), then the
scoring and the end of the game. Each clause is said once, as a paragraph whose id is the
clause id (the anchor that cases cite), with its id, source and tests folded into a small
expandable line. Then worked examples from the corpus, the options (house rules, each value
with the rule it brings), the sources, and the table itself (file, hash) at the bottom.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from html import escape
from typing import Any, Iterable

from .corpus import Replay, SiteCase
from .examples import render_example
from .links import CORPUS_INDEX, Links, md_text
from .notation import Notation, number_word, plural, spoken
from .phases import step_clause
from .scoring_order import by_commonness, row_order
from .tables import SiteError, VariantView, fill
from .teaching import TeachingHand
from .differences import differences
from .protocol_words import rule_protocol
from .links import corpus_rules_page, corpus_variant_page
from .rule_pages import citing_cases, rule_pages
from .visibility import visibility_lines
from .words import (awards_words, condition_words, deal_words, game_words, join, object_words, pack_words,
                    play_rules_words, step_words)

MAX_EXAMPLES = 3
MAX_CASE_LINKS = 3
BIDDING = ("name", "make-trumps", "auction", "force-bid", "set-trumps", "throw-in")
BEFORE_HAND = (("players", "Players and seats"), ("cards", "The cards"), ("dealing", "Dealing"))
AFTER_HAND = (("scoring", "Scoring"), ("game", "The end of the game"))


class Anchors:
    """The ids written on one page; an id used twice is an error."""

    def __init__(self, page: str):
        self.page = page
        self.used: set[str] = set()

    def claim(self, anchor: str) -> str:
        if anchor in self.used:
            raise SiteError(f"{self.page}: two elements would have the id {anchor!r}; rename a clause, option or source")
        self.used.add(anchor)
        return anchor


def heading(level: int, title: str, anchor: str) -> str:
    return f"{'#' * level} {md_text(title)} {{#{anchor}}}"


def other_bids_line(bid_html: Any, bids: list[dict[str, Any]]) -> str:
    """The bids outside the grid in players' words: those worth their number of tricks named
    together, each other one with its worth ("Other bids: 2, 3 and 4, each worth its number of
    tricks; 5, worth 10."), never a bare number after a number."""
    plain = [b for b in bids if b.get("value") is not None and b.get("value") == b.get("tricks")]
    parts = []
    if plain:
        parts.append(join([bid_html(b["id"]) for b in plain]) + (", each" if len(plain) > 1 else ",")
                     + " worth its number of tricks")
    for b in bids:
        if b in plain:
            continue
        parts.append(bid_html(b["id"]) + (f", worth {b['value']}" if b.get("value") is not None else ""))
    return "Other bids: " + "; ".join(parts) + "."


def pick_examples(cases: list[SiteCase], limit: int = MAX_EXAMPLES) -> list[SiteCase]:
    """Cases to tell as worked examples: hand-written ones first (default options, whole hands),
    each adding rules the earlier ones did not show; generated cases only when there is nothing else."""
    def playable(case: SiteCase) -> bool:
        return any(step["action"].startswith("play:") for hand in case.hands for step in hand.get("steps", []))
    pool = [c for c in cases if c.hand_written and playable(c)] or [c for c in cases if c.hand_written]
    if pool:
        pool.sort(key=lambda c: (len(c.options), -len(set(c.cited_clauses())), c.id))
    else:               # nothing hand-written: the shortest generated games
        pool = [c for c in cases if "perft" not in c.tags and playable(c)] or list(cases)
        pool.sort(key=lambda c: (len(c.options), len(c.hands), sum(len(h.get("steps", [])) for h in c.hands), c.id))

    def complete(case: SiteCase) -> bool:      # its last hand is played out and scored
        last = case.hands[-1] if case.hands else {}
        return bool({"hand_points", "scores"} & set(last.get("expect") or {})) or "game_over" in case.expect

    chosen: list[SiteCase] = []
    shown: set[str] = set()
    while pool and len(chosen) < limit:
        # The first example teaches: a natural deal, played without refused moves.
        first = not chosen
        best = max(pool, key=lambda c: ((natural_deal(c) and not has_refusals(c), not c.options, complete(c),
                                         not any("alone" in tag for tag in c.tags), len(c.hands) == 1) if first else (),
                                        bool(set(c.cited_clauses()) - shown), not c.options, complete(c),
                                        len(set(c.cited_clauses()) - shown), -pool.index(c)))
        if chosen and not set(best.cited_clauses()) - shown:
            break
        chosen.append(best)
        shown |= set(best.cited_clauses())
        pool.remove(best)
    return chosen


def has_refusals(case: SiteCase) -> bool:
    return any(step.get("reject") for hand in case.hands for step in hand.get("steps", []))


def natural_deal(case: SiteCase) -> bool:
    """Whether the first deal of a case looks like a real one, not a stacked deck that gives
    each player one suit: most players hold two suits or more (a deal given as a pack order:
    most neighbouring cards differ in suit)."""
    deal = (case.hands[0] if case.hands else {}).get("deal") or {}
    def suit(card: str) -> str:
        return card.split(".")[0][-1:]
    hands = deal.get("hands")
    if isinstance(hands, list) and hands:
        cards = [h.split() if isinstance(h, str) else list(h) for h in hands]
        one_suit = sum(1 for h in cards if len({suit(c) for c in h}) <= 1)
        return one_suit * 2 <= len(cards)
    deck = deal.get("deck")
    if deck:
        cards = deck.split() if isinstance(deck, str) else list(deck)
        same = sum(1 for a, b in zip(cards, cards[1:]) if suit(a) == suit(b))
        return same * 2 <= max(len(cards) - 1, 1)
    return True


# -- the sections, in the order of play ----------------------------------------------------------

@dataclass
class Section:
    key: str                                   # its anchor: rules-<key>
    title: str
    stage: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    clauses: list[dict[str, Any]] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return f"rules-{self.key}"


def stage_of(step: dict[str, Any]) -> str:
    kind = step.get("kind")
    if kind == "name" and step.get("effect") == "partner":
        return "partner"
    if kind in BIDDING:
        return "bidding"
    if kind == "offer":
        return {"alone": "alone", "defend-alone": "alone", "sit-out": "drop", "swap-with-kitty": "swap",
                "concede": "fold"}.get(step.get("effect"), "offer")
    return str(kind)


def stage_title(stage: str, steps: list[dict[str, Any]], table: dict[str, Any], words: Notation) -> str:
    if stage == "bidding":
        return "The auction" if any(s.get("kind") == "auction" for s in steps) else "Making trumps"
    if stage == "alone":
        return "Going alone" if any(s.get("effect") == "alone" for s in steps) else "Defending alone"
    if stage == "exchange":
        sources = {t.get("from") for s in steps for t in s.get("takes") or []}
        if sources == {"upcard"}:
            return "Taking up the upcard"
        if sources == {"widow"}:
            return f"Taking the {words.widow}"
        return "Taking up cards"
    return {"partner": "Calling a partner", "drop": "Dropping out", "swap": "Swapping with the kitty", "fold": "Playing or folding",
            "give": "The partner's best card", "play": "The play", "offer": "Offers"}.get(stage, stage.replace("-", " ").capitalize())


def plan_sections(table: dict[str, Any], words: Notation) -> list[Section]:
    """The page's sections in the order of play, each with the clauses it states."""
    sections = [Section(key, title, key) for key, title in BEFORE_HAND]
    hand: list[Section] = []
    for step in table.get("hand") or []:
        stage = stage_of(step)
        if hand and hand[-1].stage == stage:
            hand[-1].steps.append(step)
        else:
            hand.append(Section(stage, "", stage, [step]))
    keys: set[str] = {s.key for s in sections} | {k for k, _ in AFTER_HAND}
    titles: set[str] = {s.title for s in sections} | {t for _, t in AFTER_HAND}
    for section in hand:
        base_key, base_title = section.key, stage_title(section.stage, section.steps, table, words)
        section.key, section.title, number = base_key, base_title, 2
        while section.key in keys or section.title in titles:
            section.key, section.title = f"{base_key}-{number}", f"{base_title} (continued)" if number == 2 else f"{base_title} ({number})"
            number += 1
        keys.add(section.key)
        titles.add(section.title)
    sections += hand + [Section(key, title, key) for key, title in AFTER_HAND]

    clauses = table.get("clauses") or []
    order = {c["id"]: i for i, c in enumerate(clauses)}
    placed: dict[str, Section] = {}
    for section in hand:
        for step in section.steps:
            clause = step_clause(table, step)
            if clause and clause in order and clause not in placed:
                placed[clause] = section
    by_key = {s.key: s for s in sections}

    def first(*stages: str) -> Section | None:
        for stage in stages:
            found = next((s for s in hand if s.stage == stage), None) or by_key.get(stage)
            if found is not None:
                return found
        return None
    for clause in clauses:
        if clause["id"] in placed:
            continue
        placed[clause["id"]] = home_section(clause, first, by_key)
    for clause in clauses:
        placed[clause["id"]].clauses.append(clause)
    rows = row_order(table)
    for section in sections:              # a row's rule by how common its hand is, after the general rules
        section.clauses.sort(key=lambda c: (c["id"] in rows, rows.get(c["id"], 0), order[c["id"]]))
    return sections


def home_section(clause: dict[str, Any], first, by_key: dict[str, Section]) -> Section:
    """Where a clause no step names is said: by its topic."""
    topic = clause.get("topic")
    if topic == "game" and "first-dealer" in (clause["id"], clause.get("replaces")):
        return by_key["dealing"]
    found = {"players": lambda: by_key["players"], "deck": lambda: by_key["cards"], "ranking": lambda: by_key["cards"],
             "deal": lambda: by_key["dealing"], "bidding": lambda: first("bidding", "dealing"),
             "alone": lambda: first("alone", "give", "bidding"), "exchange": lambda: first("exchange", "bidding"),
             "play": lambda: first("play"), "scoring": lambda: by_key["scoring"],
             "game": lambda: by_key["game"]}.get(topic, lambda: by_key["game"])()
    return found or by_key["game"]


# -- the page ---------------------------------------------------------------------------------

class VariantPage:
    def __init__(self, view: VariantView, cases: list[SiteCase], replays: dict[str, Replay], links: Links,
                 titles: dict[str, str] | None = None, teaching: TeachingHand | None = None,
                 base: VariantView | None = None):
        self.view = view
        self.teaching = teaching
        self.base = base
        self.table = view.table
        self.words = Notation(self.table)
        self.cases = cases
        self.replays = replays
        self.links = links
        self.titles = titles or {}
        self.anchors = Anchors(links.page)
        self.clause_titles = view.clause_titles()
        self.citing = citing_cases(cases)
        self.rule_pages = rule_pages(view.id, self.table, cases)      # where each rule's list of cases is
        self.sections = plan_sections(self.table, self.words)
        self.said: set[str] = set()
        self.option_of_clause: dict[str, list[str]] = defaultdict(list)      # base clause -> options that change it
        self.option_of_section: dict[str, list[str]] = defaultdict(list)
        self._map_options()

    # -- options touching the rules ---------------------------------------------------------------
    def _map_options(self) -> None:
        """Which rule (clause) or part of the game each option changes: the clauses a value
        replaces or removes; else the section where the clauses it adds are said; else the
        step or section of each table path it changes."""
        section_of_clause = {c["id"]: s for s in self.sections for c in s.clauses}
        section_of_step = {step["id"]: s for s in self.sections for step in s.steps}
        stage_sections = {s.stage: s for s in reversed(self.sections)}
        rows = {r["id"] for r in (self.table.get("scoring") or {}).get("rows") or []}
        steps = {s["id"]: s for s in self.table.get("hand") or []}
        for key, views in self.view.choices.items():
            clauses: set[str] = set()
            sections: set[str] = set()
            for choice in views:
                targets = set(choice.replaced.values()) | {c["id"] for c in choice.clauses_removed}
                added = [c for c in choice.clauses_added if not c.get("replaces")]
                if targets:
                    clauses |= targets
                    continue
                if added:
                    sections |= {home.key for home in (self._home_of(c) for c in added) if home}
                    continue
                for path, before, after in choice.changes:
                    parts = path.split(".")
                    if path == "hand" and isinstance(before, list) and isinstance(after, list):
                        moved = [i for i in before if i in after and before.index(i) != after.index(i)]
                        sections |= {section_of_step[i].key for i in moved if i in section_of_step}
                    elif parts[0] == "hand" and len(parts) > 1 and parts[1] in steps:
                        clause = step_clause(self.table, steps[parts[1]])
                        if clause and clause in section_of_clause:
                            clauses.add(clause)
                        elif parts[1] in section_of_step:
                            sections.add(section_of_step[parts[1]].key)
                    elif parts[0] == "hand" and isinstance(after, dict) and after.get("kind"):
                        home = stage_sections.get(stage_of(after))
                        sections.add(home.key if home else "game")
                    elif parts[0] == "scoring" and len(parts) > 2 and parts[2] in rows and parts[2] in section_of_clause:
                        clauses.add(parts[2])
                    else:
                        sections.add({"players": "players", "deck": "cards", "ranking": "cards", "deal": "dealing",
                                      "scoring": "scoring", "counters": "scoring", "game": "game"}.get(parts[0], "game"))
            for clause in clauses:
                if clause in section_of_clause and key not in self.option_of_clause[clause]:
                    self.option_of_clause[clause].append(key)
            for section in sections:
                if key not in self.option_of_section[section]:
                    self.option_of_section[section].append(key)

    def _home_of(self, clause: dict[str, Any]) -> Section | None:
        by_key = {s.key: s for s in self.sections}
        hand = [s for s in self.sections if s.key not in dict(BEFORE_HAND) and s.key not in dict(AFTER_HAND)]

        def first(*stages: str) -> Section | None:
            for stage in stages:
                found = next((s for s in hand if s.stage == stage), None) or by_key.get(stage)
                if found is not None:
                    return found
            return None
        return home_section(clause, first, by_key)

    # -- pieces ---------------------------------------------------------------------------------
    def option_link(self, key: str) -> str:
        option = self.view.options.get(key, {})
        return f"[{md_text(option.get('title', key))}](#option-{key})"

    def replaced_rule_link(self, clause_id: str) -> str:
        """A link to the rule a clause replaces: on this page when it is shown here, else on
        the page of the table this one extends (a preset's page drops the rule it replaces)."""
        parent = self.view.raw_extends
        title = md_text(self.clause_titles.get(clause_id) or self.links.titles.get(parent or "", {}).get(clause_id)
                        or clause_id)
        if clause_id in self.links.anchors.get(self.view.id, ()):
            return f"[{title}](#{clause_id})"
        return self.links.clause(parent, clause_id, title) if parent else title

    def source_link(self, key: str | None) -> str:
        sources = self.table.get("sources") or {}
        if not key:
            return ""
        if key in sources:
            return f"[{md_text(source_title(sources[key], key))}](#source-{key})"
        return md_text(key)

    def tested_by(self, clause_id: str) -> tuple[int, str]:
        """The cases that cite this rule: a few hand-written ones by title, then the list of
        exactly this rule's cases (the corpus page of the variant's rules, at the rule's anchor)."""
        cases = self.citing.get(clause_id, [])
        if not cases:
            return 0, ""
        written = [c for c in cases if c.hand_written]
        shown = written[:MAX_CASE_LINKS]
        parts = [self.links.case(c.id, self._prose(md_text(c.title))) for c in shown]
        listing = self.links.to(self.rule_pages.get(clause_id, corpus_rules_page(self.view.id)), "rule-" + clause_id)
        every = "the one case that tests" if len(cases) == 1 else f"all {plural(len(cases), 'case')} that test"
        parts.append(f"[{every} this rule]({listing})")
        return len(cases), "Tested by " + "; ".join(parts) + "."

    def clause_block(self, clause: dict[str, Any], table: dict[str, Any], *, section_title: str = "",
                     lead: str = "", house: str = "") -> list[str]:
        """A rule: its text (its title in bold unless the section says it), then a folded line
        with its id, source, interpretation note and the cases that test it."""
        clause_id = clause["id"]
        self.said.add(clause_id)
        anchor = self.anchors.claim(clause_id)
        text = md_text(fill(clause["text"], table, f"{self.view.id}: clause {clause_id}"))
        text = self._prose(text)
        title = clause["title"]
        shown_title = "" if title.strip().lower() == section_title.strip().lower() else f"**{md_text(title)}.** "
        count, tested = self.tested_by(clause_id)
        source = (self.table.get("sources") or {}).get(clause.get("source") or "", {})
        summary_bits = [f"rule <code>{escape(clause_id)}</code>"]
        if clause.get("source"):
            summary_bits.append(escape(short_source(source, clause["source"])))
        summary_bits.append(plural(count, "case") if count else "no case yet")
        if clause.get("note"):
            summary_bits.append("a note")
        body = []
        if clause.get("note"):
            body.append(f"**How this table reads the sources.** {self._prose(md_text(clause['note']))}")
        if clause.get("source"):
            body.append(f"Source: {self.source_link(clause['source'])}.")
        if tested:
            body.append(tested)
        if clause.get("replaces"):
            body.append(f"Replaces the rule {self.replaced_rule_link(clause['replaces'])}.")
        protocol = rule_protocol(table, clause)
        if protocol:
            body.append(protocol)
        lines = ["", f'<div class="es-rule{" es-house" if house else ""}" id="{anchor}" markdown>', ""]
        if lead:
            lines += [lead, ""]
        lines += [f"{shown_title}{text}", ""]
        options = self.option_of_clause.get(clause_id) if not house else None
        if options:
            lines += ['<p class="es-house-note" markdown>House rules that change this: '
                      + ", ".join(self.option_link(k) for k in options) + ".</p>", ""]
        lines += ['<details class="es-about" markdown>', f"<summary>{' · '.join(summary_bits)}</summary>", ""]
        lines += [b + "\n" for b in body]
        lines += ["</details>", "", "</div>"]
        return lines

    def _prose(self, markdown: str) -> str:
        """Seat numbers and card tokens in table prose, in players' words (Markdown kept)."""
        parts = re.split(r"(`[^`\n]+`)", spoken(self._seed_titles(markdown)))
        # Code spans stay as they are: a card face drawn inside one shows as raw HTML.
        return "".join(part if index % 2 else self.words._prose_part(part, None) for index, part in enumerate(parts))

    def _seed_titles(self, markdown: str) -> str:
        """"seed 001" (this project's name for a source document) said as the source's title."""
        return self.words.seed_titles(markdown, emphasis="*")

    # -- sections --------------------------------------------------------------------------------
    def header(self) -> list[str]:
        return [f"# {md_text(self.table['title'])}", "", f"{md_text(self.table['summary'])}", "{: .es-lead }"]

    def skip_link(self) -> list[str]:
        """A link past the summary straight to the hand's step-through viewer (keyboard users)."""
        from .quickref import quickref_page
        card = f"[One-page quick reference, to print]({self.links.to(quickref_page(self.view.id))})"
        if self.teaching is None:
            return ["", card]
        return ["", '<p class="es-skip"><a href="#th-h1-viewer">Skip to the hand, step by step</a></p>', "", card]

    def summary(self) -> list[str]:
        t, w = self.table, self.words
        lines = ["", heading(2, "The object of the game", self.anchors.claim("object")), "", object_words(t, w), ""]
        steps = [s for s in t.get("hand") or [] if self._possible(s)]
        bidding = [s for s in steps if stage_of(s) == "bidding"]
        after = [s for s in steps if stage_of(s) != "bidding" and s.get("kind") != "play"]
        play = next((s for s in steps if s.get("kind") == "play"), None)

        def link(key: str) -> str:
            target = next((s for s in self.sections if s.key == key or s.stage == key), None)
            return f"#{target.anchor}" if target else "#rules"
        rows = [("Players", self.players_summary(), "#rules-players"),
                ("Pack", pack_words(t, w) + ".", "#rules-cards"),
                ("Deal", deal_words(t, w).capitalize() + ".", "#rules-dealing"),
                ("Trumps", " ".join(step_words(s, t, w) for s in bidding), link("bidding"))]
        if after:
            rows.append(("Then", " ".join(step_words(s, t, w) for s in after), f"#{next(s for s in self.sections if s.steps and s.steps[0] is after[0] or after[0] in s.steps).anchor}"))
        if play is not None:
            rows.append(("Play", step_words(play, t, w) + " " + play_rules_words(play) + "; the highest "
                         "trump wins the trick, else the highest card of the suit led, and the winner leads next.", link("play")))
        rows.append(("A hand is worth", self.scoring_summary(), "#rules-scoring"))
        rows.append(("Game", game_words(t, w) + ".", "#rules-game"))
        html = ['<div class="es-scroll"><table class="es-glance"><caption>The game at a glance</caption><tbody>']
        for name, text, href in rows:
            html.append(f'<tr><th scope="row"><a href="{href}">{escape(name)}</a></th><td>{text}</td></tr>')
        html.append("</tbody></table></div>")
        return lines + ["".join(html)]

    def _possible(self, step: dict[str, Any]) -> bool:
        """A step whose condition can hold in this table (not a Benny upcard without a Benny)."""
        when = step.get("when") or {}
        return not (when.get("upcard") == "benny" and not (self.table.get("ranking") or {}).get("benny"))

    def players_summary(self) -> str:
        w, players = self.words, self.table["players"]
        n = players["count"]
        if w.team_game:
            teams = [w.unit(u) for u in range(len(w.units))]
            seating = "opposite" if all(len(u) == 2 for u in w.units) and n == 2 * len(w.units) else "alternately"
            return (f"{number_word(n).capitalize()}, in {number_word(len(teams))} teams, partners sitting {seating}: "
                    f"{join(teams, 'against')}.")
        rest = {2: "the other", 3: "the other two"}.get(n, "all the others")
        sides = {"maker-against-rest": f"in each hand {w.maker} plays against {rest}",
                 "maker-and-called": f"in each hand {w.maker} and a called partner play against the rest",
                 "each-alone": "each plays for himself"}.get(players.get("sides"), "")
        names = f" ({join([w.seat(s) for s in range(n)])})" if players.get("names") else ""
        return f"{number_word(n).capitalize()}{names}, each keeping his own score; {sides}."

    def scoring_summary(self) -> str:
        """Each enabled scoring row in a few words: its clause's title and its points."""
        t, w = self.table, self.words
        items = []
        for row in by_commonness((t.get("scoring") or {}).get("rows") or [], t):
            if row.get("enabled", True) is False:
                continue
            title = self.clause_titles.get(row["id"])
            label = (f'<a href="#{row["id"]}">{escape(title)}</a>' if title
                     else condition_words(row.get("when"), t, w).capitalize() or "Any other hand")
            items.append(f"<li>{label}: {awards_words(row.get('award') or [], t, w)}</li>")
        for counter in t.get("counters") or []:
            items.append(f"<li>{escape(counter.get('title', counter['id']))} are counted</li>")
        return '<ul class="es-rows">' + "".join(items) + "</ul>"

    def rules(self) -> list[str]:
        lines = ["", heading(2, "The rules, in the order of play", self.anchors.claim("rules")), ""]
        for section in self.sections:
            body = self.section_body(section)
            if not body:
                continue
            lines += ["", heading(3, section.title, self.anchors.claim(section.anchor)), ""] + body
            named = {k for c in section.clauses for k in self.option_of_clause.get(c["id"], [])}
            options = [k for k in self.option_of_section.get(section.key, []) if k not in named]
            if options:
                lines += ["", '<p class="es-house-note" markdown>House rules for this part of the game: '
                          + ", ".join(self.option_link(k) for k in options) + ".</p>"]
        return lines

    def section_body(self, section: Section) -> list[str]:
        lines: list[str] = []
        if section.key == "players":
            lines += self.seating()
        if section.stage == "bidding":
            lines += self.bid_schedule(section)
        for step in section.steps:       # a step no clause states is said in words
            if not step_clause(self.table, step) and self._possible(step) and step.get("kind") != "play":
                lines += ["", step_words(step, self.table, self.words)]
        for clause in section.clauses:
            lines += self.clause_block(clause, self.table, section_title=section.title)
        if section.key == "cards":
            lines += [""] + self.cards_drawn()
        return lines

    def seating(self) -> list[str]:
        w = self.words
        n = w.n
        if n == 4 and w.names:
            cells = {0: "top", 1: "right", 2: "bottom", 3: "left"}
            html = ['<div class="es-seating" role="img" aria-label="'
                    + escape("Seats clockwise: " + ", ".join(w.seat(s) for s in range(n))) + '">']
            for seat in range(n):
                html.append(f'<span class="es-seat-{cells[seat]}">{escape(w.seat(seat))}</span>')
            html.append('<span class="es-seat-table">table</span></div>')
            return ["".join(html)]
        seats = join([w.seat(s) for s in range(n)])
        return [f"Seats clockwise: {seats}. Play goes clockwise; the player on the dealer's left is the *eldest hand*."]

    def cards_drawn(self) -> list[str]:
        """The pack by suit, then the order of the cards with each suit as trumps (from the
        interpreter's compiled tables)."""
        t, w = self.table, self.words
        deck = t["deck"]
        suits = deck.get("suits", [])
        topics = {c.get("topic") for c in self.sections[1].clauses}
        lines = [] if "deck" in topics else [f"**The pack**: {pack_words(t, w)}.", ""]
        rules = self.view.rules
        if rules is None:
            return lines
        from .ranking import orders
        html = ['<div class="es-scroll"><table class="es-ranks"><caption>Rank of the cards, highest first</caption>'
                '<thead><tr><th scope="col">Trumps</th><th scope="col">The trump suit</th><th scope="col">The other suits</th>'
                "</tr></thead><tbody>"]
        master = ((t.get("ranking") or {}).get("no-trump") or {}).get("master") or (t.get("ranking") or {}).get("benny")
        for trump, trump_cards, others in orders(rules):
            other = "<br>".join(w.cards(cards) for _, cards in others)
            if trump_cards:
                first = w.cards(trump_cards)
            else:
                first = f"none; {w.card(master)} beats every card" if master and master in rules.card_index else "none"
            html.append(f'<tr><th scope="row">{w.strain(trump)}</th><td>{first}</td><td>{other}</td></tr>')
        html.append("</tbody></table></div>")
        lines.append("".join(html))
        return lines

    def bid_schedule(self, section: Section) -> list[str]:
        """An auction's bids as a grid: tricks by trump suit, each cell the bid's value."""
        w = self.words
        lines: list[str] = []
        for step in section.steps:
            if step.get("kind") != "auction":
                continue
            bids = [b for b in step.get("bids") or [] if b.get("enabled", True)]
            grid = [b for b in bids if "tricks" in b and b.get("strain")]
            others = [b for b in bids if b not in grid]
            strains = list(dict.fromkeys(b["strain"] for b in grid))
            tricks = list(dict.fromkeys(b["tricks"] for b in grid))
            if grid:
                head = "".join(f'<th scope="col">{w.strain(s, name=False)}</th>' for s in strains)
                html = ['<div class="es-scroll"><table class="es-bids"><caption>The bids and their values (a bid must be '
                        'worth more than the last)</caption><thead><tr><th scope="col">Tricks</th>' + head + "</tr></thead><tbody>"]
                for n in tricks:
                    cells = []
                    for s in strains:
                        bid = next((b for b in grid if b["tricks"] == n and b["strain"] == s), None)
                        cells.append(f"<td>{bid.get('value', '') if bid else ''}</td>")
                    html.append(f'<tr><th scope="row">{n}</th>{"".join(cells)}</tr>')
                html.append("</tbody></table></div>")
                lines += ["".join(html), ""]
            if others:
                lines += [other_bids_line(w.bid_html, others), ""]
        return lines

    # -- examples, options, sources, the table ---------------------------------------------------
    def teaching_section(self) -> list[str]:
        """A hand a player would meet, played out (rules_site/teaching.py), under a title in
        players' words; a note on each trick's winning card says why it wins."""
        hand = self.teaching
        lines = ["", heading(2, f"A hand of {self.table['title']}", self.anchors.claim("teaching-hand")), ""]
        if hand is None:
            return lines + ["No hand of this variant could be played out at its default rules."]
        lines += [heading(3, hand.title, self.anchors.claim("teaching-hand-title")), "",
                  "A deal at random, played out by four simple rules of thumb at every seat (make trumps with a strong hand, "
                  "lead a winner, win a trick as cheaply as you can when your side is not already winning it, else throw your "
                  "lowest card). Who wins each trick and what the hand scores are the rules' own, worked out by the "
                  "reference interpreter. Step through it below the tricks."
                  .replace("four simple rules of thumb", "a few rules of thumb") if self.words.n != 4 else
                  "A deal at random, played out by a few rules of thumb at every seat (make trumps with a strong hand, "
                  "lead a winner, win a trick as cheaply as you can when your partner is not already winning it, else throw "
                  "your lowest card). Who wins each trick and what the hand scores are the rules' own, worked out by the "
                  "reference interpreter. Step through it below the tricks.", "{: .es-meta }"]
        lines += ["", render_example(hand.case, hand.replay, self.links, hand_heading=None, prefix="th")]
        return lines

    def cases_section(self) -> list[str]:
        """Where the conformance cases are: on their own pages, listed for this variant."""
        lines = ["", heading(2, "Test cases", self.anchors.claim("test-cases")), ""]
        if not self.cases:
            return lines + ['<p class="es-untested">No conformance case plays this variant yet: it is <strong>untested</strong>, '
                            "and engines are not checked against it.</p>"]
        return lines + [f"The conformance corpus has {plural(len(self.cases), 'case')} for {md_text(self.table['title'])}: "
                        f"scripted hands every engine that claims this variant must replay exactly "
                        f"([the list]({self.links.to(corpus_variant_page(self.view.id))}); "
                        f"[the cases of each rule]({self.links.to(corpus_rules_page(self.view.id))})). "
                        "Each rule above links to the cases that test it."]

    def differences_section(self) -> list[str]:
        """How this variant differs from the base game, axis by axis, from the tables."""
        base = self.base
        if base is None or base.id == self.view.id:
            return []
        rows = differences(self.view, base)
        lines = ["", heading(2, f"How it differs from {base.title}", self.anchors.claim("differences")), ""]
        if not rows:
            return lines + [f"It is played as {md_text(base.title)} at its default rules."]
        html = ['<div class="es-scroll"><table class="es-differences"><caption>'
                f"{escape(self.table['title'])} against {escape(base.title)}</caption><thead><tr>"
                f'<th scope="col">Rule</th><th scope="col">{escape(self.table["title"])}</th>'
                f'<th scope="col">{escape(base.title)}</th></tr></thead><tbody>']
        for title, section, mine, theirs in rows:
            target = next((s for s in self.sections if s.key == section or s.stage == section), None)
            head = f'<a href="#{target.anchor}">{escape(title)}</a>' if target else escape(title)
            html.append(f'<tr><th scope="row">{head}</th><td>{mine}</td><td>{theirs}</td></tr>')
        html.append("</tbody></table></div>")
        return lines + ["".join(html)]

    def value_words(self, key: str, value: Any) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    def options_section(self) -> list[str]:
        options = self.view.options
        lines = ["", heading(2, "House rules (options)", self.anchors.claim("options")), ""]
        if not options:
            return lines + ["This variant has no options."]
        lines += ["House rules that players agree on before the game. Each is a choice among the values listed; a "
                  "conformance case names the values it needs (its `options`, by the key shown), and every other option "
                  "keeps its default."]
        blocks = [line for key, option in options.items() for line in self.option_block(key, option)]
        if len(options) <= 6:
            return lines + blocks
        # Many options: one folded list, so that the page reads on a phone (a link to an option opens it).
        return lines + ["", '<details class="es-fold es-options" markdown>',
                        f"<summary>All {len(options)} house rules of {escape(self.table['title'])}</summary>", ""] + blocks + [
                        "", "</details>"]

    def option_block(self, key: str, option: dict[str, Any]) -> list[str]:
        anchor = self.anchors.claim(f"option-{key}")
        views = self.view.choices.get(key, [])
        # Each option folded to its one line (the page has dozens): opened by a click, or by a
        # link to it or to a rule it brings (docs/javascripts/open-target.js).
        lines = ["", f'<details class="es-option" id="{anchor}" markdown>',
                 f"<summary><strong>{escape(option.get('title', key))}</strong>: "
                 f"{self.words.prose_html(option.get('summary', ''))}</summary>", "",
                 f'<span class="es-key">key <code>{escape(key)}</code></span>', ""]
        items = []
        named = {repr(c["value"]) for c in option.get("choices", [])}
        for choice in views:
            if repr(choice.value) not in named:        # a value of the range: said in the range's line
                continue
            label = value_label(choice.value)
            default = " (the default)" if choice.is_default else ""
            text = f"- {label}{default}: {self._prose(md_text(choice.summary))}"
            if choice.also:
                text += " Needs " + ", ".join(f"{self.option_link(k)} = {value_label(v)}" for k, v in choice.also.items()) + "."
            if choice.error:
                text += f" (This value cannot be resolved: {md_text(choice.error)}.)"
            items.append(text)
        span = option.get("range")
        if span:
            default = option.get("default")
            examples = [v for v in span.get("examples", []) if repr(v) not in named]
            text = f"- **any whole number from {span['minimum']} to {span['maximum']}**"
            if repr(default) not in named:
                text += f" (the default is **{default}**"
                text += f"; often {', '.join(str(v) for v in examples if v != default)})" if len(examples) > 1 else ")"
            elif examples:
                text += f" (often {', '.join(str(v) for v in examples)})"
            items.append(text + ": " + self._prose(md_text(option.get("summary", ""))).rstrip(".").lower() + ".")
        lines += items
        extra: list[str] = []
        if option.get("source"):
            extra.append(f"Source: {self.source_link(option['source'])}.")
        if option.get("egn"):
            extra.append(f"EGN flag `{option['egn']}` ([all EGN flags]({self.links.to('egn.md')})).")
        if option.get("note"):
            extra.append(self._prose(md_text(option["note"])))
        folded: list[str] = []
        if extra:
            folded += ["", " ".join(extra), "{: .es-meta }"]
        brought = 0
        for choice in views:
            for clause in choice.clauses_added:
                if clause["id"] in self.said:
                    continue
                lead = f"*With {md_text(option.get('title', key))}* = {value_label(choice.value)}:"
                folded += self.clause_block(clause, choice.table or self.table, lead=lead, house=key)
                brought += 1
        lines += folded + ["", "</details>"]
        return lines

    def sources_section(self) -> list[str]:
        lines = ["", heading(2, "Sources", self.anchors.claim("sources")), ""]
        for key, source in (self.table.get("sources") or {}).items():
            anchor = self.anchors.claim(f"source-{key}")
            text = f"*{md_text(source_title(source, key))}*"
            if source.get("author"):
                text += f", {md_text(source['author'])}"
            if source.get("year"):
                text += f", {source['year']}"
            kind = SOURCE_KINDS.get(source.get("kind", ""), source.get("kind", ""))
            text += f" ({md_text(kind)}"
            if source.get("file"):         # as code, unescaped: md_text's backslashes would show inside it
                text += f", the project's copy <code>{escape(source['file'])}</code>"
            text += ")"
            if source.get("url"):
                text += f". <{source['url']}>"
            # An id on an element of its own: Python-Markdown's attr_list never gives an id
            # to a one-line list item, so "{: #id }" there was printed as text.
            lines += [f'- <span id="{anchor}"></span>{text}']
        if self.table.get("notes"):
            lines += ["", heading(3, "Notes on this table", self.anchors.claim("notes")), ""]
            notes = self.table["notes"]
            lines += ['<details class="es-fold" markdown>', f"<summary>{plural(len(notes), 'note')} on how this table "
                      "reads its sources</summary>", ""]
            lines += [f"- {self._prose(md_text(note))}" for note in notes] + ["", "</details>"]
        return lines

    def table_section(self) -> list[str]:
        view = self.view
        parent = view.raw_extends
        lines = ["", heading(2, "The rule table", self.anchors.claim("table")), "",
                 f"This page is generated from `spec/variants/{view.file.name}` when the site is built"
                 + (f"; the table extends {self.links.variant(parent, md_text(self.titles.get(parent, parent)))}, and the "
                    "rules above include what it inherits" if parent else "")
                 + ". It shows every option at its default. Each rule's id is a stable anchor: a conformance case that cites "
                 f"`round-1` links to `variants/{view.id}#round-1`.", "",
                 f"SHA-256 of the resolved table with the default options: `{view.resolved.sha256}`{{: .es-hash }}"]
        return lines

    def who_sees_what(self) -> list[str]:
        """The table's visibility in players' words ("the kitty stays face down")."""
        def cite(entry: dict[str, Any]) -> str:
            clause = entry.get("clause")
            if clause and clause in self.clause_titles:
                return f"[{md_text(self.clause_titles[clause])}](#{clause})"
            return self.source_link(entry.get("source"))
        items = visibility_lines(self.table, self.words, cite)
        if not items:
            return []
        return ["", heading(2, "Who sees what", self.anchors.claim("who-sees-what")), "",
                "What each player may see of the cards, and from when; an engine's view of a seat (the protocol's "
                "`state` with a `seat`) shows exactly this.", ""] + items

    def render(self) -> str:
        lines = (self.header() + self.skip_link() + self.teaching_section() + self.summary() + self.differences_section()
                 + self.rules() + self.who_sees_what() + self.cases_section() + self.options_section())
        lines += self.sources_section() + self.table_section()
        missing = self.view.clause_ids() - self.said
        if missing:
            raise SiteError(f"{self.view.id}: clauses not shown: {', '.join(sorted(missing))}")
        return "\n".join(lines) + "\n"


def value_label(value: Any) -> str:
    """An option's value as a player says it: **yes**, **no**, **10**, a named value in words.
    (The value a case writes is on the case's page, and the option's key beside its title.)"""
    if isinstance(value, bool):
        return f"**{'yes' if value else 'no'}**"
    if isinstance(value, int):
        return f"**{value}**"
    return f"**{md_text(str(value).replace('-', ' '))}**"


def source_title(source: dict[str, Any], key: str) -> str:
    """A source's title for readers: without this project's numbering of its seed documents
    (``Two-handed Euchre (seed document 004, in Serbian)`` -> ``Two-handed Euchre (in Serbian)``)."""
    title = str(source.get("title", key))
    return re.sub(r" ?\(seed document \d+(?:, ([^)]*))?\)", lambda m: f" ({m.group(1)})" if m.group(1) else "", title)


SOURCE_KINDS = {"seed": "a rules document this project started from", "site": "web site", "engine": "a program",
                "format": "a file format", "book": "book"}


def short_source(source: dict[str, Any], key: str) -> str:
    """A source in a few words, for the folded line: ``Leeds and Dwight 1888``, or its title
    without the parenthesis (never the project's file name or its number)."""
    if source.get("author"):
        return source["author"].split(" (")[0] + (f" {source['year']}" if source.get("year") else "")
    title = source_title(source, key)
    return title.split(" (")[0] if len(title) > 40 else title


def render_variant(view: VariantView, cases: Iterable[SiteCase], replays: dict[str, Replay], links: Links,
                   titles: dict[str, str] | None = None, teaching: TeachingHand | None = None,
                   base: VariantView | None = None) -> str:
    return VariantPage(view, list(cases), replays, links, titles, teaching, base).render()


__all__ = ["render_variant", "pick_examples", "plan_sections", "Anchors", "heading"]
