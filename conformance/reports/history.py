"""An engine's reports kept by version (``report history``, the compliance pages): each run against the one before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance.reports.diff import diff_runs
from conformance.reports.runs import Run, read_run


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
