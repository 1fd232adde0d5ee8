"""The TAP report of a run (``check --tap``): a line per case, for TAP consumers."""

from __future__ import annotations

import json
from pathlib import Path

from conformance.common.shown import one_line
from conformance.common.usage import write_atomically
from conformance.runner.results import CaseResult, FAILING


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
