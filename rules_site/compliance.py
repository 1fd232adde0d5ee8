"""The compliance page: every JSON Lines report under ``docs/compliance/reports/``, rendered
for an engine author who has to act on it.

A report is what ``euchre-spec check --json FILE`` writes: a header line (the engine, the
suite and corpus versions), one line per case, a footer with the counts. The page shows a
summary that fits a laptop screen (one row per engine, with its main cause of failure), the
pass counts by variant, then for each engine its failures grouped by the rule clause of the
step that failed and, within it, by their first difference ("expected phase alone, got
discard": 12 cases), each case linked to that step's anchor on its case page. Under each engine: the rules it
declared (variants and option values), its history (the reports kept by engine version
under ``docs/compliance/history/<report>/``, each against the one before), and for a known
failure (listed in its baseline) the bug-tracker link the baseline entry carries; where
``docs/compliance/fuzz/<report>/`` holds its identify and fuzz runs, the house rules identified
and each divergence with its shrunk case.

The clause of a failing step is, for a state in the wrong phase, the clause of the table
step whose phase was expected (the engine skipped or misplaced that step); else the step's
own ``clause`` in the case; else the clause of the table step in which the step was taken
(its phase, from the reference engine's replay); else what the report says.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, Callable

import conformance
from conformance.reports.checked_summary import checked_line, defects_markdown
from conformance.corpus_tools.stamp import CorpusIdentity, staleness
from conformance.reports.jsonl import read_jsonl
from conformance.reports.runs import declared_text, links_of
from conformance.reports.fuzz_pages import fuzz_markdown
from conformance.reports.history import history_markdown
from conformance.runner.results import FAILING, OUTCOMES

from .examples import hand_anchor, step_anchor
from .links import Links, md_cell, md_text
from .notation import plural
from .phases import phase_clause, step_clause, step_of_phase, step_phases
from .tables import compact

NOT_RUN = ("skipped", "unsupported")
CORPUS_ROOT = Path(conformance.__file__).resolve().parent.parent     # a report names its cases' files from here
MAX_REASONS = 20
CASES_PER_RULE_ON_INDEX = 3     # failing cases listed per rule on the compliance page (all on the engine's page)
CATEGORY_WORDS = {"out_of_turn": "out of turn", "illegal_action": "against the rules", "wrong_phase": "at the wrong point"}


@dataclass
class Report:
    path: Path
    header: dict[str, Any]
    cases: list[dict[str, Any]]
    footer: dict[str, Any] | None
    problems: list[str] = field(default_factory=list)
    label: str = ""                     # the engine's name on the page, distinct from every other report's

    @property
    def anchor(self) -> str:
        return "report-" + re.sub(r"[^a-z0-9]+", "-", self.path.stem.lower()).strip("-")

    @property
    def engine(self) -> dict[str, Any]:
        return self.header.get("engine") or {}

    @property
    def name(self) -> str:
        engine = self.engine
        name = str(engine.get("name") or self.path.stem)
        return f"{name} {engine['version']}" if engine.get("version") else name

    def outcomes(self) -> Counter:
        return Counter(line.get("outcome", "?") for line in self.cases)

    def ran_variants(self) -> list[str]:
        return list(dict.fromkeys(line.get("variant", "?") for line in self.cases if line.get("outcome") not in NOT_RUN))


def current_corpus(corpus: CorpusIdentity | str | None) -> CorpusIdentity | None:
    """The corpus the reports are compared with (a bare version: known by its version only)."""
    return CorpusIdentity(corpus, None, None) if isinstance(corpus, str) else corpus


def stale_words(report: Report, corpus: CorpusIdentity | None) -> str | None:
    """Why a report does not describe the current corpus, with its date and case count, or None."""
    why = staleness(report.header, corpus) if corpus is not None else None
    if why is None:
        return None
    run = str(report.header.get("started") or "at an unknown date")
    count = report.footer.get("cases") if report.footer else len(report.cases)
    return f"run {run} over {count} cases: {why}"


def read_report(path: Path) -> Report:
    """A report, tolerating a run cut short (no footer); unreadable lines are listed as problems."""
    return Report(path, *read_jsonl(path))


def read_reports(directory: Path) -> list[Report]:
    """The reports of a directory: the engines that fail fewest cases first, then by name;
    each with a label no other report shares."""
    reports = [read_report(p) for p in sorted(directory.glob("*.jsonl"))] if directory.is_dir() else []

    def key(report: Report) -> tuple:
        outcomes = report.outcomes()
        return (sum(outcomes[o] for o in FAILING), -outcomes["pass"], report.name.lower())
    reports.sort(key=key)
    label_reports(reports)
    return reports


def label_reports(reports: list[Report], titles: dict[str, str] | None = None) -> None:
    """Give each report a distinct label: the engine's name and version, and where two
    reports share them, what they ran (the variants) or else their file's name."""
    titles = titles or {}
    names = Counter(r.name for r in reports)
    for report in reports:
        report.label = report.name
        if names[report.name] > 1:
            ran = report.ran_variants()
            report.label = f"{report.name} on {', '.join(titles.get(v, v) for v in ran[:2])}" if ran else report.name
    labels = Counter(r.label for r in reports)
    for report in reports:
        if labels[report.label] > 1:
            report.label = f"{report.label} ({report.path.stem})"


# -- what failed, and where -------------------------------------------------------------------

@dataclass
class Failure:
    line: dict[str, Any]
    clause: str | None                 # the clause of the failing step
    variant: str
    anchor: str | None                 # the step's anchor on the case page
    key: str                           # the first difference, as a grouping key
    words: str                         # the first difference, in words
    step: str                          # where, in words
    rule_phases: tuple[str, ...] = ()   # the phases of the table step the clause states


class Attribution:
    """Finds the clause of a failing step and words its first difference, from the case
    (its steps) and the reference engine's replay of it (the phase at each step)."""

    def __init__(self, cases: dict[str, Any], replays: dict[str, Any], tables: Callable[[str], dict[str, Any] | None]):
        self.cases = cases
        self.replays = replays
        self.tables = tables

    def table(self, line: dict[str, Any]) -> dict[str, Any] | None:
        replay = self.replays.get(line.get("id"))
        if replay is not None and replay.table:
            return replay.table
        return self.tables(line.get("variant", ""))

    def phase_at(self, line: dict[str, Any], hand: int | None, step: int | None) -> str | None:
        replay = self.replays.get(line.get("id"))
        if replay is None or not hand or hand > len(replay.hands):
            return None
        record = replay.hands[hand - 1]
        if step and step <= len(record.steps):
            return record.steps[step - 1].before.get("phase")
        if step is None and record.end is not None:
            return record.end.get("phase")
        if step is None and record.start is not None:
            return record.start.get("phase")
        return None

    def __call__(self, line: dict[str, Any]) -> Failure:
        failure = line.get("failure") or {}
        hand, step = failure.get("hand"), failure.get("step")
        case = self.cases.get(line.get("id"))
        table = self.table(line) or {}
        clause = None
        phase = self.phase_at(line, hand, step)
        where = failure.get("where", "")
        if failure.get("field") == "phase" and isinstance(failure.get("expected"), str):
            # the state after the step is in the wrong phase: the broken rule is the one of the
            # step the rules go to (going alone before the discard), not the one just taken
            clause = phase_clause(table, failure["expected"])
        if clause is None and case is not None and hand and step:
            try:
                clause = case.hands[hand - 1]["steps"][step - 1].get("clause")
            except (IndexError, KeyError, TypeError):
                clause = None
        if clause is None and hand and step is None and "after the deal" in where:
            clause = next((c["id"] for c in table.get("clauses") or [] if c.get("topic") == "deal"), None)
        if clause is None:
            clause = phase_clause(table, phase)
        if clause is None:
            clause = (failure.get("clause") or {}).get("id") or (line.get("clauses") or [None])[0]
        anchor = None
        if hand and step:
            anchor = step_anchor(hand, step)
        elif hand and "perft" in where:
            anchor = hand_anchor(hand) + "-perft"
        elif hand:
            anchor = hand_anchor(hand)
        key, words = difference(failure, line, table, phase)
        phases: tuple[str, ...] = ()
        for spec, names in step_phases(table):
            if clause and step_clause(table, spec) == clause:
                phases = names
                break
        return Failure(line, clause, line.get("variant", ""), anchor, key, words, step_words(failure), phases)


def code_html(text: str) -> str:
    """Text with `code spans`, as HTML."""
    parts = re.split(r"`([^`]*)`", text)
    return "".join(f"<code>{escape(p)}</code>" if i % 2 else escape(p) for i, p in enumerate(parts))


def step_words(failure: dict[str, Any]) -> str:
    hand, step = failure.get("hand"), failure.get("step")
    if hand and step:
        action = failure.get("action")
        return f"hand {hand}, step {step}" + (f" (seat {failure.get('seat')}, `{action}`)" if action else "")
    return failure.get("where") or ""


def title_of(table: dict[str, Any], phase: str | None) -> str:
    step = step_of_phase(table, phase)
    clause = step_clause(table, step)
    titles = {c["id"]: c["title"] for c in table.get("clauses") or []}
    return titles.get(clause or "", "") if clause else ""


def _phase(table: dict[str, Any], phase: Any) -> str:
    title = title_of(table, phase) if isinstance(phase, str) else ""
    return f"“{title}” (phase `{phase}`)" if title else f"phase `{phase}`"


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def difference(failure: dict[str, Any], line: dict[str, Any], table: dict[str, Any], phase: str | None) -> tuple[str, str]:
    """The first difference of a failure: a key to group by, and its words."""
    field_ = failure.get("field")
    expected, actual = failure.get("expected"), failure.get("actual")
    message = str(failure.get("message") or line.get("detail") or line.get("outcome", ""))
    if field_ == "phase":
        return (f"phase:{expected}:{actual}",
                f"expected phase `{expected}`, got `{actual}`: the engine is at {_phase(table, actual)} where the rules are at "
                f"{_phase(table, expected)}")
    if field_ == "to_act":
        return (f"to_act:{phase}", f"another seat to act at {_phase(table, phase)}" if phase else "another seat to act")
    if field_ == "error":
        return (f"accepted:{expected}", f"accepts an action it must refuse ({CATEGORY_WORDS.get(str(expected), expected)})"
                + (f" at {_phase(table, phase)}" if phase else ""))
    if field_ == "legal" and isinstance(expected, list) and isinstance(actual, list):
        missing = sorted(set(expected) - set(actual))
        extra = sorted(set(actual) - set(expected))
        kinds = sorted({t.split(":")[0] for t in missing + extra})
        detail = "; ".join(p for p in (("missing " + ", ".join(f"`{t}`" for t in missing)) if missing else "",
                                       ("extra " + ", ".join(f"`{t}`" for t in extra)) if extra else "") if p)
        return (f"legal:{phase}:{','.join(kinds)}:{bool(missing)}:{bool(extra)}",
                f"other legal actions at {_phase(table, phase)}" + (f" ({detail})" if detail else ""))
    if field_ == "nodes":
        return (f"nodes:{phase}", f"another count of legal action sequences (perft) from {_phase(table, phase)}")
    if field_:
        if _scalar(expected) and _scalar(actual):
            return (f"field:{field_}:{expected}:{actual}", f"expected `{field_}` `{compact(expected)}`, got `{compact(actual)}`")
        return (f"field:{field_}", f"another `{field_}` than expected")
    refused = re.match(r"engine refused (\w+): (\w+)", message)
    if refused:
        action = str(failure.get("action") or "").split(":")[0] or refused.group(1)
        return (f"refused:{action}:{phase}", f"refuses `{action}`, which the rules allow" + (f" at {_phase(table, phase)}" if phase else ""))
    text = re.sub(r"\b\d+(\.\d+)?\b", "N", message)
    return (f"message:{text}", message)


# -- the page -------------------------------------------------------------------------------------

def _mark(outcomes: Counter) -> str:
    """✓ only where every case ran and passed: an engine that passes all it ran but leaves
    cases unrun gets a half mark, never the green tick beside a count that hides them."""
    not_run = sum(outcomes[o] for o in NOT_RUN)
    ran = sum(outcomes.values()) - not_run
    bad = sum(outcomes[o] for o in FAILING)
    if ran and not bad and not not_run:
        return '<span class="es-ok" role="img" aria-label="all passed">✓</span>'
    if ran and not bad:
        return '<span class="es-partial" role="img" aria-label="passed all it ran, some not run">◑</span>'
    if bad:
        return '<span class="es-bad" role="img" aria-label="some failed">✗</span>'
    return '<span class="es-none" role="img" aria-label="none run">–</span>'


def _cell(outcomes: Counter) -> str:
    total = sum(outcomes.values())
    if not total:
        return '<td class="es-none">no case</td>'
    not_run = sum(outcomes[o] for o in NOT_RUN)
    ran = total - not_run
    if not ran:
        return f'<td class="es-none">not run ({total})</td>'
    return f"<td>{_mark(outcomes)} {outcomes['pass']}/{ran}" + (f" · {not_run} not run" if not_run else "") + "</td>"


def passed_html(outcomes: Counter) -> str:
    """The summary's count: passed of those run, and beside it how many were not run."""
    not_run = sum(outcomes[o] for o in NOT_RUN)
    ran = sum(outcomes.values()) - not_run
    text = f"{_mark(outcomes)} {outcomes['pass']} of {ran} run"
    return text + (f'<br><span class="es-notrun-count">{not_run} not run</span>' if not_run else "")


def render_compliance(reports: list[Report], variants: list[tuple[str, str]], links: Links,
                      corpus_version: CorpusIdentity | str | None = None, attribute: Attribution | None = None,
                      engine_pages: bool = False) -> str:
    """The page. ``variants`` lists (id, title) of the variants known to the site;
    ``engine_pages``: each engine also has a page of its own (:func:`render_engine_pages`), linked."""
    titles = dict(variants)
    label_reports(reports, titles)
    attribute = attribute or Attribution({}, {}, lambda variant: None)
    corpus = current_corpus(corpus_version)
    lines = ["# Compliance", "",
             "The conformance corpus run against the reference engine and against every third-party engine someone "
             "has adapted to the [engine protocol](" + links.to("protocol.md") + "). Each engine is one JSON Lines report "
             "(`euchre-spec check --engine CMD --json FILE`) committed under `docs/compliance/reports/`; the page is "
             "rendered from those files when the site is built, so adding an engine is adding its report.", "",
             "For each engine the failures are grouped by the rule of the step that failed, and then by their first "
             "difference, so that one mistake shows as one line with the number of cases it explains. Every failing "
             "case links to the step where it fails.", ""]
    if not reports:
        return "\n".join(lines + ["No report yet."]) + "\n"
    analysed = {r.path.name: [attribute(line) for line in r.cases if line.get("outcome") in (*FAILING, "expected-fail")]
                for r in reports}
    lines += ["## Summary {#summary}", ""]
    html = ['<div class="es-scroll"><table class="es-summary"><thead><tr><th scope="col">Engine</th><th scope="col">Passed</th>'
            '<th scope="col">Failing</th><th scope="col">Main cause of failure</th></tr></thead><tbody>']
    for report in reports:
        outcomes = report.outcomes()
        bad = sum(outcomes[o] for o in FAILING)
        causes = group_failures([f for f in analysed[report.path.name] if f.line.get("outcome") in FAILING])
        main = ""
        if causes:
            clause, variant, members = causes[0]
            title = clause_title(links, variant, clause)
            words = cause(members, title)
            main = (f"<strong>{escape(title)}</strong> ({len(members)} of {bad}): "
                    f"{code_html(words[:1].upper() + words[1:])}.")
        language = f'<br><span class="es-lang">{escape(str(report.engine["language"]))}</span>' if report.engine.get("language") else ""
        if stale_words(report, corpus) is not None:
            run = str(report.header.get("started") or "?")[:10]
            language += (f'<br><span class="es-stale" title="{escape(stale_words(report, corpus) or "")}">stale: corpus '
                         f'{escape(str((report.header.get("suite") or {}).get("corpus_version", "?")))}, run {escape(run)}</span>')
        html.append(f'<tr><th scope="row"><a href="#{report.anchor}">{escape(report.label)}</a>{language}</th>'
                    f'<td data-label="Passed">{passed_html(outcomes)}</td><td data-label="Failing">{bad or "none"}</td>'
                    f'<td data-label="Main cause">{main or ("nothing failed" if not bad else "")}</td></tr>')
    html.append("</tbody></table></div>")
    lines.append("".join(html))
    stale = [r for r in reports if stale_words(r, corpus) is not None]
    if stale and corpus is not None:
        lines += ["", f"**{len(stale)} of {len(reports)} reports are stale**: they ran another corpus than the current "
                  f"one (corpus {md_text(corpus.version)}" + (f", {corpus.cases} case files" if corpus.cases else "")
                  + "), so their counts say nothing of the cases added or changed since. Each says when it ran and over "
                  "how many cases."]
    lines += ["", "*Passed* counts the cases an engine ran (those outside what it declares in its `hello` are "
              "*not run*: `unsupported`, or `skipped` when it declined them). Outcomes are those of "
              f"[`euchre-spec check`]({links.to('cli.md')}); a failure listed in an engine's skip file counts as known "
              "(`expected-fail`)."]
    lines += by_variant(reports, variants, links)
    for report in reports:
        lines += render_report(report, analysed[report.path.name], links, corpus_version, titles, engine_pages)
    return "\n".join(lines) + "\n"


def engine_page(report: Report) -> str:
    """Where an engine's page of its own is: beside the compliance page, by its report's name."""
    return f"compliance/{report.path.stem}.md"


def render_engine_pages(reports: list[Report], variants: list[tuple[str, str]], links_for: Callable[[str], Links],
                        corpus_version: CorpusIdentity | str | None = None, attribute: Attribution | None = None) -> dict[str, str]:
    """A page of its own for each engine (path -> Markdown): what its section of the compliance
    page says (the rules it declared, its history by engine version, its identify and fuzz
    runs, its failures by rule with the known ones' bug-tracker links), for an engine author
    to link to."""
    titles = dict(variants)
    label_reports(reports, titles)
    attribute = attribute or Attribution({}, {}, lambda variant: None)
    pages = {}
    for report in reports:
        path = engine_page(report)
        if path == "compliance/index.md":       # a report named index: its section on the page suffices
            continue
        links = links_for(path)
        failures = [attribute(line) for line in report.cases if line.get("outcome") in (*FAILING, "expected-fail")]
        section = render_report(report, failures, links, corpus_version, titles)
        body = section[3:]                     # its own title instead of the section heading
        pages[path] = "\n".join([f"# {md_text(report.label)}", "",
                                 f"[All engines on the compliance page](index.md#{report.anchor})", ""] + body) + "\n"
    return pages


def by_variant(reports: list[Report], variants: list[tuple[str, str]], links: Links) -> list[str]:
    titles = dict(variants)
    seen = list(titles)
    for report in reports:
        for line in report.cases:
            if line.get("variant") and line["variant"] not in seen:
                seen.append(line["variant"])
    used = [v for v in seen if any(line.get("variant") == v for r in reports for line in r.cases)]
    lines = ["", "## By variant {#by-variant}", "", "Cases passed out of those run, for each variant (rows) and engine (columns).", ""]
    head = "".join(f'<th scope="col"><a href="#{r.anchor}">{escape(r.label)}</a></th>' for r in reports)
    html = [f'<div class="es-scroll"><table class="es-by-variant"><thead><tr><th scope="col">Variant</th>{head}</tr></thead><tbody>']
    for variant in used:
        cells = []
        for report in reports:
            cells.append(_cell(Counter(line.get("outcome", "?") for line in report.cases if line.get("variant") == variant)))
        name = escape(titles.get(variant, variant))
        link = f'<a href="{escape(links.url("variants/" + variant + ".md"))}">{name}</a>' if variant in titles else name
        html.append(f'<tr><th scope="row">{link}</th>{"".join(cells)}</tr>')
    html.append("</tbody></table></div>")
    return lines + ["".join(html)]


def group_failures(failures: list[Failure]) -> list[tuple[str | None, str, list[Failure]]]:
    """Failures by the clause (and variant) of the failing step, the biggest group first."""
    groups: dict[tuple[str | None, str], list[Failure]] = defaultdict(list)
    for failure in failures:
        groups[(failure.clause, failure.variant)].append(failure)
    return sorted(((c, v, m) for (c, v), m in groups.items()), key=lambda g: (-len(g[2]), g[1], g[0] or ""))


def cause(members: list[Failure], title: str) -> str:
    """The group's cause in one line: where most of its cases show the engine not at the
    rule's step when the rules are (the wrong phase, another seat to act, or the step's
    actions refused there), the engine skips that step; else the most common difference."""
    phases = members[0].rule_phases if members else ()
    if phases:
        main = phases[0]

        def skipped(failure: Failure) -> bool:
            parts = failure.key.split(":")
            return ((parts[0] == "phase" and parts[1] == main) or (parts[0] == "to_act" and parts[1] == main)
                    or (parts[0] == "refused" and parts[-1] == main))
        evidence = [f for f in members if skipped(f)]
        if len(evidence) * 2 >= len(members):
            elsewhere = Counter(f.key.split(":")[2] for f in evidence if f.key.startswith("phase:"))
            goes = f": it goes on to phase `{elsewhere.most_common(1)[0][0]}` instead" if elsewhere else ""
            share = f" ({len(evidence)} of {len(members)} cases)" if len(evidence) < len(members) else ""
            return f"the engine skips “{title}” (phase `{main}`) where the rules have it{goes}{share}"
    key, words, count = dominant(members)
    return words + (f" ({count} of {len(members)} cases)" if count < len(members) else "")


def dominant(members: list[Failure]) -> tuple[str, str, int]:
    counts = Counter(f.key for f in members)
    key, count = counts.most_common(1)[0]
    return key, next(f.words for f in members if f.key == key), count


def clause_title(links: Links, variant: str, clause: str | None) -> str:
    if not clause:
        return "No rule named"
    return links.titles.get(variant, {}).get(clause, clause)


# conformance.reports.checked_summary words a difference as ``str()`` of each side: a JSON null shows as
# Python's ``None`` (also inside a list), a field the engine left out as the fuzzer's marker.
PYTHON_NONE = re.compile(r"(?<![\w`])None(?![\w`])")
LEFT_OUT = "<missing>"        # conformance.fuzzing.compare.MISSING


def no_value_words(row: str) -> str:
    """A row of the defects table with each side of a first difference that had no value in a
    reader's words: "no value" for a null, "no such field" for a field left out, never
    ``None`` or a marker that the page would take for an HTML tag."""
    return PYTHON_NONE.sub("no value", row.replace(LEFT_OUT, "no such field"))


def render_report(report: Report, failures: list[Failure], links: Links, corpus_version: CorpusIdentity | str | None,
                  titles: dict[str, str], own_page: bool = False) -> list[str]:
    engine = report.engine
    suite = report.header.get("suite") or {}
    lines = ["", f"## {md_text(report.label)} {{#{report.anchor}}}", ""]
    facts = []
    if engine.get("language"):
        facts.append(f"language {md_text(str(engine['language']))}")
    if engine.get("url"):
        facts.append(f"<{engine['url']}>")
    if suite:
        protocol = report.header.get("protocol_version") or report.header.get("protocol") or "?"
        facts.append(f"suite {md_text(str(suite.get('version', '?')))}, corpus {md_text(str(suite.get('corpus_version', '?')))}, "
                     f"protocol {md_text(str(protocol))}")
    if report.header.get("started"):
        facts.append(f"run {md_text(str(report.header['started']))}")
    declared = engine.get("variants")
    if declared == "*":
        facts.append("declares every rule table")
    elif isinstance(declared, dict):
        facts.append("declares " + md_text(declared_text(declared, titles)))
    facts.append(f"report [`{report.path.name}`](reports/{report.path.name})")
    if own_page:
        facts.append(f"[its own page]({report.path.stem}.md)")
    lines += [" · ".join(facts), "{: .es-meta }", ""]
    stale = stale_words(report, current_corpus(corpus_version))
    if stale:
        lines += ['!!! warning "Stale: the corpus has changed since this report was run"', "",
                  f"    This report was {md_text(stale)}. Its counts say nothing of the cases added or changed since; "
                  f"re-run it with `python tools/publish_reports.py --only {md_text(report.path.stem)}`.", ""]
    for problem in report.problems:
        lines += ["!!! failure \"This report could not be read in full\"", "", f"    {md_text(problem)}", ""]
    counts = report.outcomes()
    lines.append("Outcomes: " + ", ".join(f"{o} **{counts[o]}**" for o in OUTCOMES if counts.get(o))
                 + (f" ({report.footer.get('cases')} cases" + (f", {report.footer['duration_s']} s" if 'duration_s' in report.footer else "") + ")"
                    if report.footer else " (the run was cut short: no footer)") + ".")
    if report.path.stem != "reference":
        lines += ["", checked_line(report.path, report.cases)]
        lines += [no_value_words(row) for row in
                  defects_markdown(report.path, report.cases, CORPUS_ROOT, lambda case: links.case(case, f"`{case}`"))]
    lines += history_markdown(report.path)
    lines += fuzz_markdown(report.path)
    if not failures:
        lines += ["", "No failure."]
    else:
        # The list of every failing case is long: on the compliance page, a few of each rule's.
        lines += [""] + failures_html(report, failures, links, per_rule=CASES_PER_RULE_ON_INDEX if own_page else None)
    reasons = Counter((line.get("outcome"), str(line.get("detail") or "")) for line in report.cases if line.get("outcome") in NOT_RUN)
    if reasons:
        total = sum(reasons.values())
        items = "".join(f"<li><code>{escape(str(o))}</code>: {escape(d) or '(no reason given)'} ({n})</li>"
                        for (o, d), n in reasons.most_common(MAX_REASONS))
        if len(reasons) > MAX_REASONS:
            items += f"<li>and {len(reasons) - MAX_REASONS} other reasons</li>"
        lines += ["", f'<details class="es-notrun"><summary>Not run: {total} case{"s" if total != 1 else ""}</summary><ul>{items}</ul></details>']
    return lines


def failures_html(report: Report, failures: list[Failure], links: Links, per_rule: int | None = None) -> list[str]:
    """The causes (one row per rule, with its first differences and counts), then every
    failing case under its rule, linked to the failing step (Markdown, so that the build
    checks every link and anchor); only the first ``per_rule`` of each rule when given (the
    compliance page, whose engines each have a page of their own with the whole list, to
    which it links)."""
    groups = group_failures(failures)
    out = [f"**{len(failures)} failing case{'s' if len(failures) != 1 else ''}, by the rule of the failing step:**", "",
           "| Rule of the failing step | Cause, and the first differences | Cases |", "|---|---|---|"]
    for clause, variant, members in groups:
        diffs = Counter(f.key for f in members)
        words = {f.key: f.words for f in members}
        title = clause_title(links, variant, clause)
        summary = cause(members, title)
        # A group with one difference that the cause already says: the cause alone, not its copy.
        repeated = len(diffs) == 1 and summary.startswith(next(iter(words.values())))
        items = "" if repeated else "<br>".join(f"{md_text(words[k])}: **{n}**" for k, n in diffs.most_common())
        rule = links.clause(variant, clause, md_text(title)) if clause else "no rule named"
        out.append(f"| {rule}<br><small>{md_text(variant)}</small> | **{md_text(summary[:1].upper() + summary[1:])}.**"
                   + (f"<br>{md_cell(items)}" if items else "") + f" | {len(members)} |")
    shown = "Every failing case" if per_rule is None else f"The first {plural(per_rule, 'failing case')} of each rule"
    out += ["", f'<details class="es-failures" markdown>', f"<summary>{shown} of {escape(report.label)}, "
            "under its rule, linked to the step that fails</summary>", ""]
    if per_rule is not None:
        out += [f"All of them are on [the engine's own page]({report.path.stem}.md).", ""]
    for clause, variant, members in groups:
        rule = links.clause(variant, clause, md_text(clause_title(links, variant, clause))) if clause else "No rule named"
        out += [f"{rule} ({len(members)}):", ""]
        listed = sorted(members, key=lambda f: (f.key, f.line.get("id", "")))
        for failure in listed[:per_rule]:
            line = failure.line
            case_id = line.get("id", "?")
            link = links.case(case_id, f"`{case_id}`", failure.anchor)
            tracker = "".join(f", [bug tracker]({url})" for url in links_of(line))
            known = f" (known{tracker})" if line.get("outcome") == "expected-fail" else ""
            outcome = "" if line.get("outcome") in ("fail", "expected-fail") else f" `{line.get('outcome')}`"
            out.append(f"- {link}{known}{outcome}, {md_text(failure.step)}: {md_text(failure.words)}")
        if per_rule is not None and len(listed) > per_rule:
            out.append(f"- and {len(listed) - per_rule} more, on [the engine's own page]({report.path.stem}.md)")
        out.append("")
    out += ["</details>"]
    return out
