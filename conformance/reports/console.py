"""A run told on the console at its end: the counts by variant and outcome, the failures, and the
notes (processes left behind, cases near their time budget)."""

from __future__ import annotations

from collections import Counter, defaultdict

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from conformance.reports.junit import _failure_text
from conformance.runner.results import CaseResult, FAILING, OUTCOMES


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
