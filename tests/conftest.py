"""Run-wide reporting for the project's own tests.

One line at the end of every run, even with ``-q``, when the EGN schema tests were skipped:
they compare our EGN checks with EGN's own JSON Schema, which the project does not ship, so a
fresh clone without the workspace's shared/ folder beside it skips about a hundred of them.
The short summary alone buried that reason among the others.
"""

from __future__ import annotations

EGN_SCHEMA_SKIP = "EGN's JSON Schema is not at"   # the start of test_egn_record.egn_validator's skip reason


def _reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr or "")


def pytest_terminal_summary(terminalreporter) -> None:
    skipped = [report for report in terminalreporter.stats.get("skipped", []) if EGN_SCHEMA_SKIP in _reason(report)]
    if skipped:
        where = _reason(skipped[0]).split(EGN_SCHEMA_SKIP, 1)[1].split(":")[0].strip()
        terminalreporter.write_line(
            f"EGN schema tests: {len(skipped)} skipped, because EGN's JSON Schema is not at {where}; "
            "set EGN_SCHEMA=/path/to/egn-schema-v1.json to run them (README: The EGN schema tests)", yellow=True)
