"""The compliance page: every JSON Lines report under ``docs/compliance/reports/``, rendered.

A report is what ``euchre-spec check --json FILE`` writes: a header line (the engine, the
suite and corpus versions), one line per case, a footer with the counts. The page shows an
engine × variant table of pass counts, then for each report its failures, each linked to
its case page and to the rule clause the failure cites on the variant's page.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.report import read_jsonl
from conformance.runner import FAILING, OUTCOMES
from .links import Links, code, md_cell, md_text
from .tables import compact

NOT_RUN = ("skipped", "unsupported")
MAX_REASONS = 20


@dataclass
class Report:
    path: Path
    header: dict[str, Any]
    cases: list[dict[str, Any]]
    footer: dict[str, Any] | None
    problems: list[str] = field(default_factory=list)

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


def read_report(path: Path) -> Report:
    """A report, tolerating a run cut short (no footer); unreadable lines are listed as problems."""
    return Report(path, *read_jsonl(path))


def read_reports(directory: Path) -> list[Report]:
    """The reports of a directory: the engines that fail fewest cases first, then by name."""
    reports = [read_report(p) for p in sorted(directory.glob("*.jsonl"))] if directory.is_dir() else []

    def key(report: Report) -> tuple:
        outcomes = Counter(line.get("outcome") for line in report.cases)
        return (sum(outcomes[o] for o in FAILING), -outcomes["pass"], report.name.lower())
    return sorted(reports, key=key)


def _cell(outcomes: Counter) -> str:
    total = sum(outcomes.values())
    if not total:
        return "—"
    ran = total - sum(outcomes[o] for o in NOT_RUN)
    bad = sum(outcomes[o] for o in FAILING)
    mark = ('<span class="es-ok" title="every case run passed">✓</span>' if ran and not bad
            else '<span class="es-bad" title="some cases failed">✗</span>' if bad
            else '<span class="es-none" title="no case run">–</span>')
    text = f"{mark} **{outcomes['pass']}**/{ran}"
    extra = []
    if bad:
        extra.append(f"{bad} failing")
    if outcomes["expected-fail"]:
        extra.append(f"{outcomes['expected-fail']} known")
    not_run = sum(outcomes[o] for o in NOT_RUN)
    if not_run:
        extra.append(f"{not_run} not run")
    return text + (f"<br><small>{', '.join(extra)}</small>" if extra else "")


def _failure_text(line: dict[str, Any]) -> str:
    failure = line.get("failure") or {}
    parts = []
    if failure.get("where"):
        parts.append(md_text(failure["where"]))
    if failure.get("message"):
        parts.append(md_text(failure["message"]))
    if "field" in failure:
        parts.append(f"{code(str(failure['field']))}: expected {code(compact(failure.get('expected')))}, "
                     f"got {code(compact(failure.get('actual')))}")
    if not parts and line.get("detail"):
        parts.append(md_text(str(line["detail"])))
    return md_cell(": ".join(parts[:2]) + ("<br>" + parts[2] if len(parts) > 2 else "")) or line.get("outcome", "")


def _rule(line: dict[str, Any], links: Links) -> str:
    failure = line.get("failure") or {}
    clause = failure.get("clause") or {}
    clause_id = clause.get("id") or (line.get("clauses") or [None])[0]
    if not clause_id:
        return ""
    title = clause.get("title") or clause_id
    return links.clause(line.get("variant", ""), clause_id, md_text(title))


def render_compliance(reports: list[Report], variants: list[tuple[str, str]], links: Links,
                      corpus_version: str | None = None) -> str:
    """The page. ``variants`` lists (id, title) of the variants known to the site."""
    lines = ["# Compliance", "",
             "The conformance corpus run against the reference engine and against every third-party engine someone "
             "has adapted to the [engine protocol](" + links.to("protocol.md") + "). Each row is one JSON Lines report "
             "(`euchre-spec check --engine CMD --json FILE`) committed under `docs/compliance/reports/`; the page is "
             "rendered from those files when the site is built, so adding an engine is adding its report.", "",
             "A cell counts the cases that **passed** out of those the engine ran for that variant; cases outside what "
             "the engine declares in its `hello` (`unsupported`) or that it declined (`skipped`) are *not run*. "
             "Failures are listed below each engine with the step, the expected and actual values, and the rule they test.", ""]
    if not reports:
        return "\n".join(lines + ["No report yet."]) + "\n"
    titles = dict(variants)
    seen_variants = list(titles)
    for report in reports:
        for line in report.cases:
            if line.get("variant") and line["variant"] not in seen_variants:
                seen_variants.append(line["variant"])
    used = [v for v in seen_variants if any(line.get("variant") == v for r in reports for line in r.cases)]
    head = "| Engine | " + " | ".join(links.variant(v, md_text(titles.get(v, v))) for v in used) + " | All cases |"
    lines += [head, "|---|" + "---|" * (len(used) + 1)]
    for report in reports:
        by_variant: dict[str, Counter] = defaultdict(Counter)
        total: Counter = Counter()
        for line in report.cases:
            by_variant[line.get("variant", "?")][line.get("outcome", "?")] += 1
            total[line.get("outcome", "?")] += 1
        lines.append(f"| [{md_text(report.name)}](#{report.anchor}) | " + " | ".join(_cell(by_variant[v]) for v in used)
                     + f" | {_cell(total)} |")
    lines += ["", '<span class="es-ok">✓</span> every case run passed · <span class="es-bad">✗</span> some failed · '
              '<span class="es-none">–</span> none run. Outcomes are those of '
              f"[`euchre-spec check`]({links.to('cli.md')}); `expected-fail` counts a failure listed in the engine's skip file."]
    for report in reports:
        lines += render_report(report, links, corpus_version)
    return "\n".join(lines) + "\n"


def render_report(report: Report, links: Links, corpus_version: str | None) -> list[str]:
    engine = report.engine
    suite = report.header.get("suite") or {}
    lines = ["", f"## {md_text(report.name)} {{#{report.anchor}}}", ""]
    facts = []
    if engine.get("language"):
        facts.append(f"language {md_text(str(engine['language']))}")
    if engine.get("url"):
        facts.append(f"<{engine['url']}>")
    if suite:
        protocol = report.header.get("protocol_version") or report.header.get("protocol") or "?"
        facts.append(f"suite {md_text(str(suite.get('version', '?')))}, corpus {md_text(str(suite.get('corpus_version', '?')))}, "
                     f"protocol {md_text(str(protocol))}"
                     + (" (the corpus has changed since: re-run to refresh)" if corpus_version and suite.get("corpus_version")
                        and suite.get("corpus_version") != corpus_version else ""))
    if report.header.get("started"):
        facts.append(f"run {md_text(str(report.header['started']))}")
    declared = engine.get("variants")
    if declared == "*":
        facts.append("declares every rule table")
    elif isinstance(declared, dict):
        facts.append("declares " + ", ".join(f"{code(v)}" for v in declared))
    facts.append(f"report [`{report.path.name}`](reports/{report.path.name})")
    lines += [" · ".join(facts), ""]
    for problem in report.problems:
        lines += ["!!! failure \"This report could not be read in full\"", "", f"    {md_text(problem)}", ""]
    counts = Counter(line.get("outcome", "?") for line in report.cases)
    lines.append("Outcomes: " + ", ".join(f"{o} **{counts[o]}**" for o in OUTCOMES if counts.get(o))
                 + (f" ({report.footer.get('cases')} cases" + (f", {report.footer['duration_s']} s" if 'duration_s' in report.footer else "") + ")"
                    if report.footer else " (the run was cut short: no footer)") + ".")
    failing = [line for line in report.cases if line.get("outcome") in FAILING or line.get("outcome") == "expected-fail"]
    if failing:
        lines += ["", "| Case | Variant | Outcome | What went wrong | Rule |", "|---|---|---|---|---|"]
        for line in sorted(failing, key=lambda l: (l.get("variant", ""), l.get("id", ""))):
            lines.append(f"| {links.case(line.get('id', '?'))} | {md_text(line.get('variant', ''))} | `{line.get('outcome')}` | "
                         f"{_failure_text(line)} | {_rule(line, links)} |")
    else:
        lines += ["", "No failure."]
    reasons = Counter((line.get("outcome"), str(line.get("detail") or "")) for line in report.cases if line.get("outcome") in NOT_RUN)
    if reasons:
        lines += ["", f'??? info "Not run: {sum(reasons.values())} case{"s" if sum(reasons.values()) != 1 else ""}"', "",
                  "    | Outcome | Reason | Cases |", "    |---|---|---|"]
        for (outcome, detail), count in reasons.most_common(MAX_REASONS):
            lines.append(f"    | `{outcome}` | {md_cell(md_text(detail))} | {count} |")
        if len(reasons) > MAX_REASONS:
            lines.append(f"    | | and {len(reasons) - MAX_REASONS} other reasons | |")
    return lines
