"""Markdown for a CI job summary (``report summary``): engine, declared rules, counts, failures by rule."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from conformance.common.shown import md_code, md_inline
from conformance.reports.badge import interruption
from conformance.reports.runs import Run, clause_of, declared_rules, difference, links_of
from conformance.runner.results import OUTCOMES


def summary_markdown(run: Run, limit: int = 15) -> str:
    """The Markdown a CI job summary shows for one report."""
    counts = run.counts()
    engine = run.engine
    suite = run.header.get("suite") or {}
    lines = [f"## euchre-spec: {md_inline(run.name)} {md_inline(run.version)}", ""]
    facts = [f"**Declared rules:** {md_inline(declared_rules(run))}"]
    if engine.get("url"):
        facts.append(f"**Engine:** {md_inline(engine['url'])}")
    facts.append(f"**Suite:** {md_inline(suite.get('version', '?'))}, corpus {md_inline(suite.get('corpus_version', '?'))}, "
                 f"protocol {md_inline(run.header.get('protocol_version', run.header.get('protocol', '?')))}")
    lines += [fact + "  " for fact in facts] + [""]
    lines += ["| outcome | cases |", "|---|---|"] + [f"| {o} | {counts[o]} |" for o in OUTCOMES if counts.get(o)]
    lines += [f"| **run** | **{run.ran()}** |", ""]
    stopped = interruption(run)
    if stopped:
        lines += [f"**Not a whole run:** {md_inline(stopped)}", ""]
    failing = run.failing()
    if failing:
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for line in failing:
            groups[clause_of(line)].append(line)
        lines += [f"### Failing: {len(failing)}, by rule", "", "| rule | cases | first case | first difference |", "|---|---|---|---|"]
        for clause, members in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))[:limit]:
            first = sorted(members, key=lambda line: line.get("id", ""))[0]
            lines.append(f"| {md_code(clause)} | {len(members)} | {md_code(first.get('id'))} | {md_inline(difference(first))} |")
        if len(groups) > limit:
            lines.append(f"| … | {sum(len(m) for c, m in groups.items()) - sum(len(m) for c, m in sorted(groups.items(), key=lambda i: (-len(i[1]), i[0]))[:limit])} more in {len(groups) - limit} rules | | |")
        lines.append("")
    known = [line for line in run.cases.values() if line.get("outcome") == "expected-fail"]
    if known:
        lines += [f"### Known failures (baseline): {len(known)}", ""]
        for line in sorted(known, key=lambda line: line.get("id", "")):
            tracker = ", ".join(f"[bug report]({url})" for url in links_of(line)) or "no link"
            lines.append(f"- {md_code(line.get('id'))} ({md_inline(clause_of(line))}): {tracker}")
        lines.append("")
    return "\n".join(lines)
