"""One page per variant, written from its resolved rule table.

The page follows the table section by section (players, pack, ranking, deal, bidding,
exchange, going alone, play, scoring, game): first what the fields say, drawn, then every
clause of that topic under a heading whose id is the clause id (the anchor cases cite).
Then the options, each choice with what it changes in the table and the clauses it brings,
each under its own heading; then worked examples from the corpus; then the sources.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

from .corpus import Replay, SiteCase
from .words import DESCRIBERS, describe_scoring
from .examples import render_example
from .links import CORPUS_INDEX, Links, code, md_cell, md_text
from .tables import ChoiceView, SiteError, VariantView, compact, fill

TOPICS = [("players", "Players"), ("deck", "The pack"), ("ranking", "Rank of the cards"), ("deal", "The deal"),
          ("bidding", "Bidding"), ("exchange", "Taking up cards"), ("alone", "Going alone"), ("play", "The play"),
          ("scoring", "Scoring"), ("game", "The game and its end")]
MAX_EXAMPLES = 3
MAX_CASE_LINKS = 6


class Anchors:
    """The ids of the headings written on one page; an id used twice is an error."""

    def __init__(self, page: str):
        self.page = page
        self.used: set[str] = set()

    def claim(self, anchor: str) -> str:
        if anchor in self.used:
            raise SiteError(f"{self.page}: two headings would have the id {anchor!r}; rename a clause, option or source")
        self.used.add(anchor)
        return anchor


def heading(level: int, title: str, anchor: str) -> str:
    return f"{'#' * level} {md_text(title)} {{#{anchor}}}"


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
        best = max(pool, key=lambda c: (bool(set(c.cited_clauses()) - shown), complete(c),
                                        len(set(c.cited_clauses()) - shown), -pool.index(c)))
        if chosen and not set(best.cited_clauses()) - shown:
            break
        chosen.append(best)
        shown |= set(best.cited_clauses())
        pool.remove(best)
    return chosen


def _source_link(view: VariantView, key: str | None) -> str:
    sources = view.table.get("sources") or {}
    if not key:
        return ""
    if key in sources:
        return f"[{md_text(sources[key].get('title', key))}](#source-{key})"
    return f"{code(key)}"


def _value(value: Any) -> str:
    return f"{code(compact(value))}"


class VariantPage:
    def __init__(self, view: VariantView, cases: list[SiteCase], replays: dict[str, Replay], links: Links):
        self.view = view
        self.table = view.table
        self.cases = cases
        self.replays = replays
        self.links = links
        self.anchors = Anchors(links.page)
        self.clause_titles = view.clause_titles()
        self.citing: dict[str, list[SiteCase]] = defaultdict(list)
        for case in cases:
            for clause in case.cited_clauses():
                self.citing[clause].append(case)
        self.rendered_clauses: set[str] = set()

    # -- pieces -----------------------------------------------------------------------------
    def clause_ref(self, clause_id: str) -> str:
        return f"[{md_text(self.clause_titles.get(clause_id, clause_id))}](#{clause_id})"

    def clause_id_ref(self, clause_id: str) -> str:
        return f"[{code(clause_id)}](#{clause_id})"

    def option_ref(self, key: str) -> str:
        option = self.view.options.get(key, {})
        return f"[{md_text(option.get('title', key))}](#option-{key})"

    def cases_line(self, clause_id: str) -> str:
        cases = self.citing.get(clause_id, [])
        if not cases:
            return ""
        written = [c for c in cases if c.hand_written]
        shown = written[:MAX_CASE_LINKS]
        parts = [self.links.case(c.id) for c in shown]
        rest = len(cases) - len(shown)
        if rest:
            parts.append(f"[{rest} more]({self.links.to(CORPUS_INDEX, 'variant-' + self.view.id)})")
        return "Tested by " + ", ".join(parts)

    def clause_block(self, clause: dict[str, Any], table: dict[str, Any], level: int, context: str = "") -> list[str]:
        clause_id = clause["id"]
        self.rendered_clauses.add(clause_id)
        lines = ["", heading(level, clause["title"], self.anchors.claim(clause_id)), ""]
        if context:
            lines += [context, ""]
        lines.append(md_text(fill(clause["text"], table, f"{self.view.id}: clause {clause_id}")))
        meta = [f"Rule `{clause_id}`"]
        if clause.get("source"):
            meta.append("source: " + _source_link(self.view, clause["source"]))
        tested = self.cases_line(clause_id)
        if tested:
            meta.append(tested)
        lines += ["", " · ".join(meta), "{: .es-meta }"]
        if clause.get("note"):
            lines += ["", '!!! note "Interpretation"', "", "    " + md_text(clause["note"])]
        return lines

    def options_touching(self, section: str) -> str:
        keys = list(dict.fromkeys(key for key, _ in self.view.option_setting(section)))
        if not keys:
            return ""
        return "Options that change this: " + ", ".join(self.option_ref(k) for k in keys) + "."

    def row_link(self, row: dict[str, Any]) -> str:
        if row["id"] in self.clause_titles:
            return self.clause_ref(row["id"])
        return f"{code(row['id'])}"

    def enabled_by(self, row_id: str) -> str:
        found = []
        for key, choice in self.view.option_setting(f"scoring.rows.{row_id}"):
            found.append(f"{self.option_ref(key)} = {_value(choice.value)}")
        return (", with " + " or ".join(found)) if found else ""

    # -- sections ---------------------------------------------------------------------------
    def header(self) -> list[str]:
        view, table = self.view, self.table
        source = f"spec/variants/{view.file.name}"
        parent = view.raw_extends
        lines = [f"# {md_text(table['title'])}", "", f"*{md_text(table['summary'])}*", "{: .es-lead }", ""]
        info = [f"This page is generated from the rule table `{source}` when the site is built"
                + (f"; the table extends {self.links.variant(parent, md_text(parent))}, and the rules below include what it inherits" if parent else "")
                + ". It shows the rules with every option at its default; the [options](#options) say what each other value changes.",
                "Every rule clause has a stable anchor, its id: a conformance case that cites `round-1` links here as "
                f"`variants/{view.id}/#round-1`.",
                f"SHA-256 of the resolved table with the default options: `{view.resolved.sha256}`."]
        lines += ['!!! info "Generated from the rule table"', ""] + ["    " + line + "\n" for line in info]
        lines += self.glance()
        return lines

    def glance(self) -> list[str]:
        from .compare import AXES
        rows = ["", "| At a glance | |", "|---|---|"]
        for axis in AXES:
            if not axis.glance:
                continue
            text = axis.short(self.table)
            if text:
                rows.append(f"| [{md_text(axis.title)}](#topic-{axis.section}) | {md_cell(text)} |")
        return rows

    def topic_section(self, section: str, title: str) -> list[str]:
        lines = ["", heading(2, title, self.anchors.claim(f"topic-{section}")), ""]
        if section in self.table:
            if section == "scoring":
                lines += describe_scoring(self.table, self.row_link, self.enabled_by)
            elif section in DESCRIBERS:
                lines += DESCRIBERS[section](self.table)
            else:
                lines.append(f"{code(section)}: {_value(self.table[section])}")
            touching = self.options_touching(section)
            if touching:
                lines += ["", touching, "{: .es-meta }"]
        for clause in self.view.clauses:
            if clause.get("topic") == section:
                lines += self.clause_block(clause, self.table, 3)
        return lines

    def change_words(self, choice: ChoiceView) -> str:
        if choice.error:
            return f"cannot be resolved: {md_text(choice.error)}"
        if choice.is_default:
            return "(the default)"
        parts = []
        for path, before, after in choice.changes:
            def show(value: Any) -> str:
                if value is ...:
                    return "(absent)"
                if isinstance(value, dict) and "id" in value:
                    return f"row {code(value['id'])}"
                text = compact(value)
                return f"{code(text if len(text) <= 60 else text[:57] + '...')}"
            parts.append(f"{code(path)}: {show(before)} → {show(after)}")
        replaced = {c.get("replaces") for c in choice.raw.get("clauses", []) if c.get("replaces")}
        for clause in choice.clauses_added:
            target = next((c.get("replaces") for c in choice.raw.get("clauses", []) if c["id"] == clause["id"] and c.get("replaces")), None)
            parts.append(f"rule {self.clause_id_ref(clause['id'])}" + (f" replaces {self.clause_id_ref(target)}" if target else " applies"))
        for clause in choice.clauses_removed:
            if clause["id"] not in replaced:
                parts.append(f"rule {self.clause_id_ref(clause['id'])} no longer applies")
        return "<br>".join(parts) if parts else "nothing in the table"

    def options_section(self) -> list[str]:
        options = self.view.options
        lines = ["", heading(2, "Options", self.anchors.claim("options")), ""]
        if not options:
            return lines + ["This variant has no options."]
        lines += ["Each option is a choice among the values below; a conformance case names the values it needs "
                  "(its `options`), every other option keeps its default, and the runner sends the engine the table "
                  "resolved with those values.", "",
                  "| Option | Default | Other values |", "|---|---|---|"]
        for key, option in options.items():
            others = [_value(c["value"]) for c in option.get("choices", []) if c["value"] != option.get("default")]
            lines.append(f"| {self.option_ref(key)} | {_value(option.get('default'))} | {', '.join(others) or 'none (fixed in this variant)'} |")
        for key, option in options.items():
            lines += ["", heading(3, option.get("title", key), self.anchors.claim(f"option-{key}")), ""]
            lines.append(md_text(option.get("summary", "")) + f" Key `{key}`, default {_value(option.get('default'))}"
                         + (f", source: {_source_link(self.view, option.get('source'))}" if option.get("source") else "") + ".")
            if option.get("note"):
                lines += ["", '!!! note "Interpretation"', "", "    " + md_text(option["note"])]
            lines += ["", "| Value | Meaning | What it changes in the table |", "|---|---|---|"]
            views = self.view.choices.get(key, [])
            for choice in views:
                label = _value(choice.value) + (" (default)" if choice.is_default else "")
                lines.append(f"| {label} | {md_cell(md_text(choice.summary))} | {md_cell(self.change_words(choice))} |")
            if len(views) == 1:
                lines += ["", "This variant allows only this value."]
            for choice in views:
                candidates = choice.clauses_added + [c for c in choice.raw.get("clauses", [])]
                for clause in candidates:
                    if clause["id"] in self.rendered_clauses:
                        continue
                    context = f"With [{md_text(option.get('title', key))}](#option-{key}) = {_value(choice.value)}"
                    target = clause.get("replaces") or next((c.get("replaces") for c in choice.raw.get("clauses", [])
                                                            if c["id"] == clause["id"] and c.get("replaces")), None)
                    if target:
                        context += f", this rule replaces {self.clause_ref(target)} ({code(target)})."
                    else:
                        context += ", this rule applies."
                    context += "\n{: .es-context }"
                    lines += self.clause_block(clause, choice.table or self.table, 4, context)
        return lines

    def examples_section(self) -> list[str]:
        lines = ["", heading(2, "Worked examples", self.anchors.claim("worked-examples")), ""]
        chosen = pick_examples(self.cases)
        if not chosen:
            return lines + ["No conformance case plays this variant yet."]
        lines += [f"These hands are conformance cases: every engine that claims this variant must replay them exactly. "
                  f"The corpus has {len(self.cases)} case{'s' if len(self.cases) != 1 else ''} for this variant "
                  f"([all of them]({self.links.to(CORPUS_INDEX, 'variant-' + self.view.id)})); the page of each "
                  "hand-written case tells it the same way and lists everything an engine must report at each step."]
        for number, case in enumerate(chosen, 1):
            lines += ["", heading(3, f"Example {number}: {case.title}", self.anchors.claim(f"example-{case.id}")), ""]
            facts = [f"Case {self.links.case(case.id)}"]
            if case.options:
                facts.append("with " + ", ".join(f"{self.option_ref(k) if k in self.view.options else md_text(k)} = {_value(v)}"
                                                 for k, v in case.options.items()))
            facts.append("rules " + ", ".join(self.clause_ref(c) if c in self.clause_titles else f"{code(c)}"
                                              for c in case.clauses))
            lines += [" · ".join(facts), "{: .es-meta }"]
            if case.description:
                lines += ["", md_text(case.description)]
            lines += ["", render_example(case, self.replays[case.id], self.links, hand_heading="####")]
        return lines

    def sources_section(self) -> list[str]:
        lines = ["", heading(2, "Sources", self.anchors.claim("sources")), ""]
        for key, source in (self.table.get("sources") or {}).items():
            anchor = self.anchors.claim(f"source-{key}")
            text = f"**`{key}`**: *{md_text(source.get('title', key))}*"
            if source.get("author"):
                text += f", {md_text(source['author'])}"
            if source.get("year"):
                text += f", {source['year']}"
            text += f" ({md_text(source.get('kind', ''))}"
            if source.get("file"):
                text += f", file {code(source['file'])}"
            text += ")"
            if source.get("url"):
                text += f". <{source['url']}>"
            lines += [text, f"{{: #{anchor} }}", ""]
        if self.table.get("notes"):
            lines += [heading(3, "Notes on this table", self.anchors.claim("notes")), ""]
            lines += [f"- {md_text(note)}" for note in self.table["notes"]]
        return lines

    def render(self) -> str:
        lines = self.header()
        topics = list(TOPICS)
        known = {t for t, _ in topics}
        for clause in self.view.clauses:
            if clause.get("topic") not in known:
                topics.append((clause["topic"], str(clause["topic"]).capitalize()))
                known.add(clause["topic"])
        for section, title in topics:
            lines += self.topic_section(section, title)
        lines += self.options_section()
        lines += self.examples_section()
        lines += self.sources_section()
        missing = self.view.clause_ids() - self.rendered_clauses
        if missing:
            raise SiteError(f"{self.view.id}: clauses without a heading: {', '.join(sorted(missing))}")
        return "\n".join(lines) + "\n"


def render_variant(view: VariantView, cases: Iterable[SiteCase], replays: dict[str, Replay], links: Links) -> str:
    return VariantPage(view, list(cases), replays, links).render()
