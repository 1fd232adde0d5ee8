"""``euchre-spec report``: what engine authors ask of a conformance suite's results, read from
the JSON Lines reports ``check --json`` writes.

- ``report diff OLD NEW``: what regressed, what was fixed and what is new between two runs,
  by case and by the rule clause of the failing step; exit status 1 when something regressed
  (or a new case fails), for CI.
- ``report badge REPORT``: an SVG badge (passed of run), drawn here, offline.
- ``report summary REPORT``: Markdown for a CI job summary (``>> $GITHUB_STEP_SUMMARY``): the
  engine, its version and declared rules, the counts, the failures by clause, the known
  failures with their bug-tracker links.
- ``report history DIR``: an engine's reports kept by version (``DIR/<version>.jsonl``, as
  tools/publish_reports.py keeps them), oldest first, each compared with the one before.

A baseline (skip file) entry may carry a bug-tracker link in its reason
(``case-id  # https://github.com/owner/engine/issues/12``); ``check --skip`` copies the reason
into the report's ``expected-fail`` line, where these commands and the compliance page find
the link.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, Iterable

from conformance.common.console import warn
from reference_impl.errors import Problem, SpecError

from .report import read_jsonl
from conformance.common.shown import md_code, md_inline
from conformance.runner.results import FAILING, OUTCOMES
from conformance.common.usage import UsageError

NOT_RUN = frozenset({"skipped", "unsupported"})
GOOD = frozenset({"pass", "expected-fail"})      # expected-fail: a known failure, listed in the baseline
URL = re.compile(r"https?://[^\s)>\]<\"'`\\|]+")


# -- reading ----------------------------------------------------------------------------------------
@dataclass
class Run:
    """One report: its header, its cases by id, its footer."""

    path: Path
    header: dict[str, Any]
    cases: dict[str, dict[str, Any]]
    footer: dict[str, Any] | None
    problems: list[str] = field(default_factory=list)

    @property
    def engine(self) -> dict[str, Any]:
        return self.header.get("engine") or {}

    @property
    def name(self) -> str:
        return str(self.engine.get("name") or self.path.stem)

    @property
    def version(self) -> str:
        return str(self.engine.get("version") or "?")

    def counts(self) -> Counter:
        return Counter(line.get("outcome", "?") for line in self.cases.values())

    def ran(self) -> int:
        counts = self.counts()
        return sum(counts.values()) - sum(counts[o] for o in NOT_RUN)

    def failing(self) -> list[dict[str, Any]]:
        return [line for line in self.cases.values() if line.get("outcome") in FAILING]


def read_run(path: str | Path) -> Run:
    """A report; a file that is not one is a usage error naming the file and its first problem."""
    path = Path(path)
    try:
        head, lines, foot, problems = read_jsonl(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the report {path}: {exc}") from None
    if not head:
        raise UsageError(f"{path} is not a report of euchre-spec check --json: {problems[0] if problems else 'empty'}")
    last = f"line {_line_count(path)}:"
    odd = [problem for problem in problems if not problem.startswith(last)]
    if odd:             # (a last line cut short is a run killed while writing: its footer says so)
        raise SpecError(Problem(str(path), "$", f"{len(odd)} line(s) are not report lines; the first: {odd[0]}"))
    if problems:
        warn(f"{path}: its last line is not a report line (a run cut short): {problems[0]}")
    return Run(path, head, {line.get("id", f"?{i}"): line for i, line in enumerate(lines)}, foot, problems)


def _line_count(path: Path) -> int:
    """The number of the file's last line (as read_jsonl numbers them)."""
    count, last = 0, b"\n"
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")


def clause_of(line: dict[str, Any]) -> str:
    """The rule clause a failing case's report line cites (the runner traces it), else its first clause."""
    failure = line.get("failure") or {}
    clause = (failure.get("clause") or {}).get("id")
    return clause or (line.get("clauses") or ["(no clause)"])[0]


def difference(line: dict[str, Any]) -> str:
    """A failing line's first difference, in one short line."""
    failure = line.get("failure") or {}
    where = failure.get("where") or ""
    expected, actual = failure.get("expected"), failure.get("actual")
    if failure.get("field") == "legal" and isinstance(expected, list) and isinstance(actual, list):
        missing, extra = sorted(set(expected) - set(actual)), sorted(set(actual) - set(expected))
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + ([f"extra {', '.join(extra)}"] if extra else [])
        return f"{where}: legal actions {'; '.join(parts) or 'in another order'}"
    if failure.get("field"):
        return f"{where}: {failure['field']} expected {_short(failure.get('expected'))}, got {_short(failure.get('actual'))}"
    return f"{where}: {failure.get('message') or line.get('detail') or line.get('outcome')}".strip(": ")


def _short(value: Any, limit: int = 60) -> str:
    text = str(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def links_of(line: dict[str, Any]) -> list[str]:
    """Bug-tracker links a report line carries (from its baseline entry's reason)."""
    return URL.findall(str(line.get("detail") or ""))


def declared_rules(run: Run) -> str:
    """What the engine declared in its hello: every table, or each variant with its options."""
    return declared_text(run.engine.get("variants"))


def declared_text(declared: Any, titles: dict[str, str] | None = None) -> str:
    """A hello's ``variants`` in words: each variant (by its title where given) with the
    option values declared (an option not listed is played at its default only)."""
    titles = titles or {}
    if declared == "*":
        return "every rule table (an interpreter)"
    if not isinstance(declared, dict) or not declared:
        return "nothing"
    parts = []
    for variant, spec in declared.items():
        options = (spec or {}).get("options") if isinstance(spec, dict) else None
        name = titles.get(variant, variant)
        if options == "*":
            parts.append(f"{name} (every option)")
        elif isinstance(options, dict) and options:
            shown = ", ".join(f"{k}={'/'.join(_value(v) for v in values)}" for k, values in options.items()
                              if isinstance(values, list))
            parts.append(f"{name} ({shown}; other options at their defaults)")
        else:
            parts.append(f"{name} (default options)")
    return "; ".join(parts)


def _value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# -- diff -------------------------------------------------------------------------------------------
@dataclass
class Change:
    case: str
    before: str | None          # outcome in OLD (None: not in OLD)
    after: str | None           # outcome in NEW (None: not in NEW)
    clause: str                 # the clause of the failing side (NEW's if it fails, else OLD's)
    words: str


@dataclass
class Diff:
    regressed: list[Change]
    fixed: list[Change]
    new: list[Change]
    removed: list[Change]
    changed: list[Change]       # failing in both, at another rule or difference

    def new_failing(self) -> list[Change]:
        return [c for c in self.new if c.after in FAILING]

    def failed_ci(self) -> bool:
        return bool(self.regressed or self.new_failing())


def diff_runs(old: Run, new: Run) -> Diff:
    """Case by case: regressed (passed or known, now failing), fixed (failing, now passing or
    known), new and removed cases, and failures that moved to another rule or difference.
    Cases not run on one side (unsupported, skipped) count as absent there."""
    def ran(run: Run) -> dict[str, dict[str, Any]]:
        return {k: v for k, v in run.cases.items() if v.get("outcome") not in NOT_RUN}
    before, after = ran(old), ran(new)
    out = Diff([], [], [], [], [])
    for case in sorted(set(before) | set(after)):
        b, a = before.get(case), after.get(case)
        if b is None:
            out.new.append(Change(case, None, a["outcome"], clause_of(a) if a["outcome"] in FAILING else "",
                                  difference(a) if a["outcome"] in FAILING else a["outcome"]))
        elif a is None:
            out.removed.append(Change(case, b["outcome"], None, "", "not run any more"))
        elif b["outcome"] not in FAILING and a["outcome"] in FAILING:
            out.regressed.append(Change(case, b["outcome"], a["outcome"], clause_of(a), difference(a)))
        elif b["outcome"] in FAILING and a["outcome"] not in FAILING:
            out.fixed.append(Change(case, b["outcome"], a["outcome"], clause_of(b), difference(b)))
        elif b["outcome"] in FAILING and a["outcome"] in FAILING:
            if (clause_of(b), difference(b)) != (clause_of(a), difference(a)):
                out.changed.append(Change(case, b["outcome"], a["outcome"], clause_of(a),
                                          f"{difference(b)} → {difference(a)}"))
    return out


def by_clause(changes: Iterable[Change]) -> list[tuple[str, list[Change]]]:
    groups: dict[str, list[Change]] = defaultdict(list)
    for change in changes:
        groups[change.clause or "(none)"].append(change)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))


def diff_markdown(old: Run, new: Run, result: Diff) -> str:
    lines = [f"## {md_inline(new.name)}: {md_inline(old.version)} → {md_inline(new.version)}", "",
             f"{len(result.regressed)} regressed, {len(result.fixed)} fixed, {len(result.new)} new "
             f"({len(result.new_failing())} failing), {len(result.removed)} no longer run, "
             f"{len(result.changed)} failing differently.", ""]
    for title, changes in (("Regressed", result.regressed), ("Fixed", result.fixed), ("New, failing", result.new_failing()),
                           ("Failing differently", result.changed)):
        if not changes:
            continue
        lines += [f"### {title}", "", "| rule | case | outcome | first difference |", "|---|---|---|---|"]
        for clause, members in by_clause(changes):
            for change in members:
                outcome = f"{change.before or '—'} → {change.after or '—'}"
                lines.append(f"| {md_code(clause)} | {md_code(change.case)} | {md_inline(outcome)} | {md_inline(change.words)} |")
        lines.append("")
    new_passing = [c for c in result.new if c.after not in FAILING]
    if new_passing:
        lines += [f"New, passing: {len(new_passing)} case(s).", ""]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# -- badge ------------------------------------------------------------------------------------------
def _text_width(text: str) -> int:
    """Width in pixels of text in 11 px Verdana, close enough for a badge (no font file needed)."""
    wide, narrow = set("mwMW@%"), set("il.,:;|!'() I1")
    return sum(9 if c in wide else 4 if c in narrow else 7 for c in text) + 10


def badge_svg(label: str, message: str, colour: str) -> str:
    """A flat badge in the common two-part shape, self-contained (no fonts or images fetched)."""
    left, right = _text_width(label), _text_width(message)
    total = left + right
    label_e, message_e = escape(label), escape(message)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" '
            f'aria-label="{label_e}: {message_e}"><title>{label_e}: {message_e}</title>'
            f'<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>'
            f'<stop offset="1" stop-opacity=".1"/></linearGradient>'
            f'<clipPath id="r"><rect width="{total}" height="20" rx="3" fill="#fff"/></clipPath>'
            f'<g clip-path="url(#r)"><rect width="{left}" height="20" fill="#555"/>'
            f'<rect x="{left}" width="{right}" height="20" fill="{colour}"/>'
            f'<rect width="{total}" height="20" fill="url(#s)"/></g>'
            f'<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">'
            f'<text x="{left / 2:.1f}" y="15" fill="#010101" fill-opacity=".3">{label_e}</text>'
            f'<text x="{left / 2:.1f}" y="14">{label_e}</text>'
            f'<text x="{left + right / 2:.1f}" y="15" fill="#010101" fill-opacity=".3">{message_e}</text>'
            f'<text x="{left + right / 2:.1f}" y="14">{message_e}</text></g></svg>\n')


def interruption(run: Run) -> str | None:
    """Why a report's run did not end as a whole run ends, or None: it has no footer (killed
    outright, or still running), or its footer says it was interrupted (exit 130)."""
    if run.footer is None:
        return "the report has no footer: the run was killed or has not ended"
    if run.footer.get("exit_code") == 130:
        stopped = [str(reason) for reason in run.footer.get("stopped") or [] if "interrupted" in str(reason)]
        return stopped[0] if stopped else "the run was interrupted"
    return None


def badge_for(run: Run, label: str = "euchre-spec") -> str:
    counts = run.counts()
    ran = run.ran()
    if interruption(run):
        return badge_svg(label, f"interrupted, {counts['pass']}/{ran} passed", "#9f9f9f")
    passed = counts["pass"] + counts["expected-fail"]
    if not ran:
        return badge_svg(label, "no case run", "#9f9f9f")
    share = passed / ran
    colour = "#2e7d32" if counts["pass"] == ran else "#97a00f" if share >= 0.9 else "#b45309" if share >= 0.5 else "#c62828"
    known = f", {counts['expected-fail']} known" if counts["expected-fail"] else ""
    return badge_svg(label, f"{counts['pass']}/{ran} passed{known}", colour)


# -- summary ----------------------------------------------------------------------------------------
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


# -- history ----------------------------------------------------------------------------------------
def history(folder: str | Path) -> list[Run]:
    """An engine's reports kept by version, oldest run first."""
    runs = [read_run(path) for path in sorted(Path(folder).glob("*.jsonl"))]
    return sorted(runs, key=lambda run: (str(run.header.get("started") or ""), run.path.name))


def history_rows(folder: str | Path) -> list[dict[str, Any]]:
    """One row per kept version: when it ran, passed of run, failing, and against the version
    before it what regressed and what was fixed (the compliance page shows these)."""
    rows = []
    previous: Run | None = None
    for run in history(folder):
        counts = run.counts()
        row = {"version": run.version, "started": run.header.get("started"), "file": run.path.name,
               "passed": counts["pass"], "ran": run.ran(), "failing": len(run.failing()),
               "known": counts["expected-fail"], "corpus": (run.header.get("suite") or {}).get("corpus_version")}
        if previous is not None:
            result = diff_runs(previous, run)
            row.update(regressed=len(result.regressed), fixed=len(result.fixed), new=len(result.new))
        rows.append(row)
        previous = run
    return rows


def history_markdown(report_path: str | Path) -> list[str]:
    """The compliance page's history of an engine: the reports kept by version beside its
    report (``../history/<report name>/``), one row per version, each against the one before."""
    report_path = Path(report_path)
    folder = report_path.parent.parent / "history" / report_path.stem
    if not folder.is_dir() or not any(folder.glob("*.jsonl")):
        return []
    rows = history_rows(folder)
    out = ["", f"History ({len(rows)} version{'s' if len(rows) != 1 else ''} kept):", "",
           "| version | run | passed | failing | known | against the version before |", "|---|---|---|---|---|---|"]
    for row in rows:
        change = (f"{row['regressed']} regressed, {row['fixed']} fixed, {row['new']} new" if "regressed" in row else "first kept")
        version = f"[`{row['version'][:12]}`](history/{report_path.stem}/{row['file']})"
        out.append(f"| {version} | {row['started'] or '?'} | {row['passed']} of {row['ran']} | {row['failing']} | "
                   f"{row['known']} | {change} |")
    return out


def _chosen(variant: Any, options: Any) -> dict[str, Any]:
    """The options of a run that differ from the table's defaults."""
    from reference_impl.resolve import resolve
    try:
        table_options = resolve(str(variant)).table.get("options") or {}
    except Exception:          # noqa: BLE001 - a table this version no longer has: show every option
        return dict(options or {})
    return {k: v for k, v in (options or {}).items() if (table_options.get(k) or {}).get("default") != v}


def fuzz_markdown(report_path: str | Path) -> list[str]:
    """The compliance page's lines for an engine's identify and fuzz runs kept beside its
    report (``../fuzz/<report name>/identify.json`` and ``fuzz.json``, as tools/publish_reports.py
    --fuzz writes them): the house rules identified, and each divergence with its shrunk case."""
    import json
    report_path = Path(report_path)
    folder = report_path.parent.parent / "fuzz" / report_path.stem
    out: list[str] = []
    identify, fuzz = folder / "identify.json", folder / "fuzz.json"
    if identify.is_file():
        data = json.loads(identify.read_text(encoding="utf-8"))
        adapters = set(data.get("adapter_plays") or ())
        for result in data.get("results", []):
            rules = result.get("house_rules") or {}
            shown = ", ".join(f"`{k}={_value(v)}`" for k, v in rules.items() if k not in adapters) \
                or "none (it plays the options sent)"
            loop = {k: v for k, v in rules.items() if k in adapters}
            if loop:
                shown += ("; " + ", ".join(f"`{k}={_value(v)}`" for k, v in loop.items())
                          + " found too, but the game around the engine's hand is the adapter's loop: not credited to the engine")
            out += ["", f"**Identify** ({result.get('variant')}, {result.get('hands', '?')} hands, then "
                        f"{result.get('check_hands', '?')} checked): house rules {shown}; "
                        f"{len(result.get('deviations') or [])} kind(s) of deviation remain under them "
                        f"([identify.json](fuzz/{report_path.stem}/identify.json))."]
    if fuzz.is_file():
        data = json.loads(fuzz.read_text(encoding="utf-8"))
        divergences = data.get("divergences") or []
        options = ", ".join(f"{k}={_value(v)}" for k, v in sorted(_chosen(data.get("variant"), data.get("options")).items()))
        out += ["", f"**Fuzz** ({data.get('variant')}{', ' + options if options else ''}; seed {data.get('seed')}, "
                    f"{data.get('hands', '?')} hands played"
                    + (", every game diverging before its first hand ended" if data.get("hands") == 0 and divergences else "")
                    + f"): {len(divergences)} kind(s) of divergence, each shrunk to a case "
                    f"([fuzz.json](fuzz/{report_path.stem}/fuzz.json)).", ""]
        if divergences:
            out += ["| rule | where | first difference | met in | shrunk case |", "|---|---|---|---|---|"]
        for item in divergences:
            found = item.get("found") or {}
            diffs = found.get("differences") or []
            first = diffs[0] if diffs else {}
            words = (f"`{first.get('field')}`: reference `{_short(first.get('reference'), 40)}`, engine "
                     f"`{_short(first.get('engine'), 40)}`") if first else ""
            case = Path(str(item.get("case") or ""))
            link = (f"[`{case.stem}`](fuzz/{report_path.stem}/cases/{case.name}) ({item.get('hands')} hand, "
                    f"{item.get('steps')} steps)") if case.name else "not shrunk"
            out.append(f"| `{found.get('clause')}` | {found.get('where')} ({found.get('phase')}) | {_cell(words)} | "
                       f"{found.get('count', 1)} game(s) | {link} |")
    out += views_markdown(folder, report_path.stem)
    return out


def views_markdown(folder: Path, name: str) -> list[str]:
    """The lines for an engine's ``fuzz --views`` run (``views.json`` beside its fuzz runs):
    each seat view that leaked, forgot or hid something, with its case."""
    import json
    views = folder / "views.json"
    if not views.is_file():
        return []
    data = json.loads(views.read_text(encoding="utf-8"))
    findings = data.get("findings") or []
    out = ["", f"**Seat views** (fuzz --views, {data.get('variant')}; seed {data.get('seed')}, {data.get('hands', '?')} hands, "
               f"{data.get('leak_tests', '?')} worlds resampled, {data.get('forgotten_tests', '?')} changed): "
               + (f"{len(findings)} finding(s) ([views.json](fuzz/{name}/views.json))." if findings
                  else f"no leak, nothing forgotten ([views.json](fuzz/{name}/views.json))."), ""]
    if findings:
        out += ["| test | what | case |", "|---|---|---|"]
    for item in findings:
        case = Path(str(item.get("case") or ""))
        link = f"[`{case.stem}`](fuzz/{name}/views-cases/{case.name})" if case.name else ""
        out.append(f"| {item.get('kind')} | {_cell(str(item.get('message', '')))} (seat {item.get('seat')}, after "
                   f"{item.get('point')} actions) | {link} |")
    return out
