"""Reports of a run. The JSON Lines report is the primary artifact; JUnit XML, TAP, the
console tables and the site's compliance page are all derived from the same results."""

from __future__ import annotations

import json
import os
import platform
import re
import sys
import time
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.table import Table

from rich.markup import escape

from . import PROTOCOL_SEMVER, PROTOCOL_VERSION, __version__
from .claim import claims_of_results
from conformance.common.clip import xml_safe
from conformance.runner.containment import available as contained
from conformance.runner.results import FAILING, OUTCOMES, CaseResult
from conformance.common.shown import one_line, visible_data
from conformance.common.usage import write_atomically


def portable(argument: str, cwd: str | None = None) -> str:
    """An argument as a report records it, naming no path of this machine: this Python is
    ``python``, a path under the working folder is relative to it (a report published from a
    checkout names ``tools/adapters/x.py``, not where the checkout was)."""
    here = (cwd or os.getcwd()).rstrip(os.sep) + os.sep
    if argument == sys.executable:
        return "python"
    argument = argument.replace(sys.executable + " ", "python ")
    return argument.replace(here, "") if here != os.sep else argument


def header(engine_command: list[str], hello: dict[str, Any] | None, corpus_version: str,
           tables: dict[str, dict[str, Any]], argv: list[str], corpus_digest: str | None = None,
           corpus_cases: int | None = None) -> dict[str, Any]:
    """The first line of a report: what ran, against what (the corpus by its version and the
    digest of the case files it held, see :mod:`conformance.corpus_stamp`), with which rule
    tables."""
    engine = dict(hello.get("engine", {})) if hello else {}
    suite: dict[str, Any] = {"name": "euchre-spec", "version": __version__, "corpus_version": corpus_version}
    if corpus_digest:
        suite.update(corpus_digest=corpus_digest, corpus_cases=corpus_cases)
    return {
        "type": "header", "format": 1,
        "suite": suite,
        "protocol": PROTOCOL_VERSION,
        "protocol_version": PROTOCOL_SEMVER,
        "engine": {"command": [portable(a) for a in engine_command], **engine,
                   "variants": hello.get("variants") if hello else None,
                   "commands": hello.get("commands") if hello else None},
        "tables": tables,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "platform": {"python": platform.python_version(), "system": platform.system(),
                     # how the engine's processes are ended: every descendant (a keeper that is
                     # its subreaper), or its process group only (see docs/cli.md)
                     "containment": "subreaper" if contained() else "process-group"},
        "arguments": [portable(a) for a in argv],
    }


def footer(results: list[CaseResult], duration: float, exit_code: int, stopped: list[str] | None = None,
           left_processes: int | None = None) -> dict[str, Any]:
    """The last line of a report: counts per outcome, why the run stopped early if it did,
    the cases ended by their budget (--case-timeout), and how many processes the engine
    left behind (``None``: not counted, where only its process group is killed)."""
    counts = Counter(r.outcome for r in results)
    data = {"type": "footer", "counts": {o: counts.get(o, 0) for o in OUTCOMES}, "cases": len(results),
            "duration_s": round(duration, 3), "exit_code": exit_code}
    if stopped:
        data["stopped"] = list(stopped)
    budget = sorted(r.case.id for r in results if r.hit_case_timeout)
    if budget:
        data["hit_case_timeout"] = budget
    if left_processes is not None:
        data["left_processes"] = left_processes
    internal = sorted(r.case.id for r in results if r.internal_error)
    if internal:
        data["internal_errors"] = internal
    return data


def run_notes(results: list[CaseResult], left_processes: int | None, case_timeout: float, limit: int = 10) -> list[str]:
    """The console's warnings about the run itself: the cases that hit the case budget, and
    the processes the engine left behind (killed by the runner)."""
    notes = []
    budget = sorted(r.case.id for r in results if r.hit_case_timeout)
    if budget:
        shown = ", ".join(budget[:limit]) + (f" and {len(budget) - limit} more" if len(budget) > limit else "")
        notes.append(f"{len(budget)} case(s) hit the case budget (--case-timeout {case_timeout:g} s): {shown}")
    if left_processes:
        during = sorted(r.case.id for r in results if r.left_processes)
        where = (f"; {sum(r.left_processes for r in results)} of them when the engine ended after "
                 + ", ".join(during[:limit]) + (" ..." if len(during) > limit else "")) if during else ""
        notes.append(left_sentence(left_processes) + where)
    return notes


def left_sentence(left_processes: int) -> str:
    """What the console says of processes an engine left behind (check, fuzz, identify, the
    pytest plugin): the same words everywhere, so that one search finds them."""
    return (f"engine left {left_processes} process(es) behind: still running after the engine had ended, "
            f"outside its process group; all were killed")


class JsonlReport:
    """Writes the report line by line, so a run cut short still leaves its results."""

    def __init__(self, path: str | Path):
        self.handle: IO[str] = open(path, "w", encoding="utf-8")

    def write(self, data: dict[str, Any]) -> None:
        self.handle.write(json.dumps(data, ensure_ascii=False, sort_keys=False) + "\n")
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


MAX_REPORT_BYTES = 256 * 1024 * 1024   # a report larger than this is refused before it is read
MAX_REPORT_LINE = 4 * 1024 * 1024      # a longer line is a problem, not read (a case line is a few KB)
MAX_REPORT_DEPTH = 64                  # nesting deeper than any report line of ours is a problem
# fields of a report line that the readers (report diff/summary/badge, the site) use, with
# the JSON type each must have when present: a line with another type is a problem
_FIELD_TYPES: dict[str, dict[str, tuple[type, ...]]] = {
    "header": {"engine": (dict,), "suite": (dict,), "tables": (dict,), "started": (str,), "platform": (dict,)},
    "case": {"id": (str,), "outcome": (str,), "variant": (str,), "failure": (dict,), "detail": (str,),
             "clauses": (list,), "tags": (list,), "title": (str,), "file": (str,)},
    "footer": {"counts": (dict,), "cases": (int,), "exit_code": (int,), "stopped": (list,)},
}


_NOT_BRACKETS = re.compile(rb"[^\[\]{}]+")


def _too_deep(line: bytes, limit: int) -> bool:
    """Whether brackets in a JSON line nest more than ``limit`` deep (those in strings count
    too: an overestimate that only makes a line of odd strings a problem, never a crash)."""
    depth = 0
    for char in _NOT_BRACKETS.sub(b"", line):
        depth += 1 if char in (0x5B, 0x7B) else -1
        if depth > limit:
            return True
    return False


def read_jsonl(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None, list[str]]:
    """Header, case lines, footer (None for a run cut short) and problems (lines that are not
    JSON or not a report line) of a report. Bounded whatever the file holds: its size, each
    line's length and nesting are capped before a line is decoded, a field of an unexpected
    type makes the line a problem, and every string is made safe to show (see
    :mod:`conformance.shown`: a report holds what an engine said)."""
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_REPORT_BYTES:
        raise OSError(f"{size} bytes, more than a report can be ({MAX_REPORT_BYTES})")
    head: dict[str, Any] = {}
    cases: list[dict[str, Any]] = []
    foot = None
    problems = []
    with open(path, "rb") as handle:
        number = 0
        while True:
            raw = handle.readline(MAX_REPORT_LINE + 1)
            if not raw:
                break
            number += 1
            if len(raw) > MAX_REPORT_LINE:
                problems.append(f"line {number}: longer than {MAX_REPORT_LINE} bytes")
                while raw and not raw.endswith(b"\n"):       # skip the rest of it
                    raw = handle.readline(MAX_REPORT_LINE + 1)
                continue
            if not raw.strip():
                continue
            if _too_deep(raw, MAX_REPORT_DEPTH):
                problems.append(f"line {number}: nested more than {MAX_REPORT_DEPTH} deep")
                continue
            try:
                data = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError as exc:
                problems.append(f"line {number}: not UTF-8 ({exc.reason} at byte {exc.start})")
                continue
            except (ValueError, RecursionError) as exc:
                problems.append(f"line {number}: not JSON ({exc})")
                continue
            kind = data.get("type") if isinstance(data, dict) else None
            if kind not in _FIELD_TYPES:
                problems.append(f"line {number}: neither a header, a case nor a footer")
                continue
            odd = next((name for name, types in _FIELD_TYPES[kind].items()
                        if name in data and data[name] is not None and not isinstance(data[name], types)), None)
            if odd is not None:
                shown = {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array",
                         dict: "an object"}.get(type(data[odd]), "not JSON")
                problems.append(f"line {number}: the {kind}'s {odd} is {shown}")
                continue
            data = visible_data(data)
            if kind == "header":
                head = data
            elif kind == "case":
                cases.append(data)
            else:
                foot = data
    if not head:
        problems.append("no header line")
    return head, cases, foot, problems


def _failure_text(result: CaseResult) -> str:
    if result.failure is not None:
        return result.failure.describe()
    return result.detail or result.outcome


def write_junit(path: str | Path, results: list[CaseResult], engine_name: str, interrupted: str | None = None) -> None:
    """JUnit XML: a test suite per variant, a test case per case; a run cut short
    (``interrupted``: why) adds a suite ``euchre-spec`` whose one test case is that error,
    so that no CI reads the cases that did run as the whole run. Written whole or not at all."""
    root = ET.Element("testsuites", name=xml_safe(f"euchre-spec {__version__} on {engine_name}"))
    by_variant: dict[str, list[CaseResult]] = defaultdict(list)
    for result in results:
        by_variant[result.case.variant].append(result)
    for variant, group in sorted(by_variant.items()):
        counts = Counter(r.outcome for r in group)
        suite = ET.SubElement(root, "testsuite", name=xml_safe(variant), tests=str(len(group)),
                              failures=str(counts["fail"] + counts["unexpected-pass"]),
                              errors=str(counts["error"] + counts["crash"] + counts["timeout"]),
                              skipped=str(counts["skipped"] + counts["unsupported"] + counts["expected-fail"]),
                              time=f"{sum(r.duration for r in group):.3f}")
        # how much of the variant ran: a CI's test view shows it beside the counts
        properties = ET.SubElement(suite, "properties")
        for claim in claims_of_results(group):
            for name, value in (("euchre-spec.cases", claim.cases), ("euchre-spec.ran", claim.ran),
                                ("euchre-spec.percent-run", claim.percent), ("euchre-spec.claim", claim.sentence())):
                ET.SubElement(properties, "property", name=name, value=xml_safe(str(value)))
        for result in sorted(group, key=lambda r: r.case.id):
            case = ET.SubElement(suite, "testcase", classname=xml_safe(f"euchre-spec.{variant}"),
                                 name=xml_safe(result.case.id), file=xml_safe(result.case.file),
                                 time=f"{result.duration:.3f}")
            if result.outcome in ("fail", "unexpected-pass"):
                ET.SubElement(case, "failure", message=result.outcome, type=result.outcome).text = xml_safe(_failure_text(result))
            elif result.outcome in ("error", "crash", "timeout"):
                ET.SubElement(case, "error", message=result.outcome, type=result.outcome).text = xml_safe(_failure_text(result))
            elif result.outcome in ("skipped", "unsupported", "expected-fail"):
                ET.SubElement(case, "skipped", message=xml_safe(f"{result.outcome}: {result.detail or ''}".strip()))
            if result.stderr:
                ET.SubElement(case, "system-err").text = xml_safe(result.stderr)
    if interrupted:
        suite = ET.SubElement(root, "testsuite", name="euchre-spec", tests="1", failures="0", errors="1", skipped="0",
                              time="0.000")
        case = ET.SubElement(suite, "testcase", classname="euchre-spec.run", name="the run ended", time="0.000")
        ET.SubElement(case, "error", message="interrupted", type="interrupted").text = xml_safe(interrupted)
    write_atomically(path, "<?xml version='1.0' encoding='utf-8'?>\n" + ET.tostring(root, encoding="unicode"))


def write_tap(path: str | Path, results: list[CaseResult], interrupted: str | None = None) -> None:
    """TAP version 13, one test point per case, failures with a YAML diagnostic block; a run
    cut short ends with ``Bail out!`` and why. Written whole or not at all."""
    ordered = sorted(results, key=lambda r: r.case.id)
    lines = ["TAP version 13", f"1..{len(ordered)}"]
    for number, result in enumerate(ordered, 1):
        ok = result.outcome not in FAILING
        directive = ""
        if result.outcome in ("skipped", "unsupported"):
            directive = f" # SKIP {result.outcome}: {result.detail or ''}".rstrip()
        elif result.outcome == "expected-fail":
            directive = f" # TODO expected failure: {result.detail or ''}".rstrip()
        lines.append(f"{'ok' if ok else 'not ok'} {number} - {result.case.id}{directive}")
        if not ok or result.outcome == "expected-fail":
            lines.append("  ---")
            lines.append(f"  outcome: {result.outcome}")
            if result.failure is not None:
                for key, value in result.failure.to_json().items():
                    lines.append(f"  {key}: {json.dumps(value, ensure_ascii=False)}")
            lines.append("  ...")
    if interrupted:
        lines.append(f"Bail out! {one_line(interrupted)}")
    write_atomically(path, "\n".join(lines) + "\n")


def summary_tables(results: list[CaseResult]) -> list[Table]:
    """Outcome counts per variant and per feature tag, for the console."""
    shown = [o for o in OUTCOMES if any(r.outcome == o for r in results)]
    tables = []
    for title, key in (("by variant", lambda r: [r.case.variant]), ("by feature", lambda r: r.case.tags or ["(none)"])):
        table = Table(title=f"Results {title}")
        table.add_column(title.split()[-1])
        for outcome in shown:
            table.add_column(outcome, justify="right")
        rows: dict[str, Counter] = defaultdict(Counter)
        for result in results:
            for name in key(result):
                rows[name][result.outcome] += 1
        for name in sorted(rows):
            table.add_row(escape(name), *[str(rows[name].get(o, 0) or "") for o in shown])
        tables.append(table)
    return tables


def print_failures(console: Console, results: list[CaseResult], limit: int = 20) -> None:
    bad = sorted((r for r in results if r.outcome in FAILING), key=lambda r: r.case.id)
    for result in bad[:limit]:
        console.print(f"[bold red]{result.outcome.upper()}[/] {escape(result.case.id)}  [dim]{escape(result.case.file)}[/]",
                      soft_wrap=True)
        console.print("  " + _failure_text(result).replace("\n", "\n  "), soft_wrap=True, markup=False)
        if result.stderr:
            tail = result.stderr.strip().split("\n")[-5:]     # (not at a carriage return: one of the engine's lines)
            console.print("  engine stderr (last lines):\n    " + "\n    ".join(tail), soft_wrap=True, markup=False)
    if len(bad) > limit:
        console.print(f"... and {len(bad) - limit} more; see the JSON Lines report")
