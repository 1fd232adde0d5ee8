"""Reports of a run. The JSON Lines report is the primary artifact; JUnit XML, TAP, the
console tables and the site's compliance page are all derived from the same results."""

from __future__ import annotations

import json
import os
import platform
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import IO, Any



from conformance import PROTOCOL_SEMVER, PROTOCOL_VERSION, __version__
from conformance.runner.containment import available as contained
from conformance.runner.results import OUTCOMES, CaseResult
from conformance.common.shown import visible_data


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
    digest of the case files it held, see :mod:`conformance.corpus_tools.stamp`), with which rule
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
    :mod:`conformance.common.shown`: a report holds what an engine said)."""
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


