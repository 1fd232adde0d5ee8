"""The compliance page tells what was not run beside what passed (never a green tick beside
a count that leaves most of the corpus out), a cause does not repeat its only detail, and
the summary and case scripts read on a phone (no token broken inside, rows as blocks)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from reference_impl.resolve import resolve
from rules_site.compliance import Attribution, read_report, render_compliance
from rules_site.links import Links
from rules_site.tables import variant_view

CSS = Path(__file__).resolve().parent.parent / "docs" / "stylesheets" / "euchre.css"
HEAD = {"type": "header", "format": 1, "suite": {"name": "euchre-spec", "version": "0.1.0", "corpus_version": "0.0.1"},
        "engine": {"name": "partial-engine", "version": "1", "variants": {"euchre": {}}}}


def report(path: Path, lines: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in [HEAD, *lines]) + "\n", encoding="utf-8")
    return path


def page_of(path: Path) -> str:
    view = variant_view("euchre")
    links = Links("compliance/index.md", {"euchre": view.clause_ids()}, set(), {}, {"euchre": view.clause_titles()})
    return render_compliance([read_report(path)], [("euchre", "Euchre"), ("two-hand", "Two-handed Euchre")], links,
                             "0.0.1", Attribution({}, {}, lambda v: resolve(v).table))


def summary_row(page: str) -> str:
    table = page[page.index('class="es-summary"'):]
    return re.findall(r"<tr>(.*?)</tr>", table[table.index("<tbody>"):table.index("</table>")], re.S)[0]


def test_not_run_is_told_beside_the_pass_count(tmp_path):
    lines = [{"type": "case", "id": f"p{i}", "variant": "euchre", "outcome": "pass"} for i in range(41)]
    lines += [{"type": "case", "id": f"u{i}", "variant": "two-hand", "outcome": "unsupported", "detail": "variant not declared"}
              for i in range(171)]
    row = summary_row(page_of(report(tmp_path / "partial.jsonl", lines)))
    passed = re.search(r'<td data-label="Passed">(.*?)</td>', row).group(1)
    assert "41 of 41 run" in passed and "171 not run" in passed
    assert "es-ok" not in row and "all passed" not in row          # no green tick beside 171 cases left out


def test_all_run_and_passed_gets_the_tick(tmp_path):
    lines = [{"type": "case", "id": f"p{i}", "variant": "euchre", "outcome": "pass"} for i in range(5)]
    row = summary_row(page_of(report(tmp_path / "all.jsonl", lines)))
    assert "es-ok" in row and "not run" not in row


def test_a_cause_does_not_repeat_its_only_detail(tmp_path):
    fail = {"where": "hand 1 step 9", "message": "wrong trick_winner", "field": "tricks_won", "expected": [1, 0, 0, 0],
            "actual": [0, 1, 0, 0], "hand": 1, "step": 9, "clause": {"id": "made", "title": "x"}}
    lines = [{"type": "case", "id": f"f{i}", "variant": "euchre", "clauses": ["made"], "outcome": "fail", "failure": fail}
             for i in range(3)]
    page = page_of(report(tmp_path / "fails.jsonl", lines))
    row = next(line for line in page.splitlines() if line.startswith("| [") and "| 3 |" in line)
    cause = re.search(r"\*\*(.*?)\.\*\*", row).group(1)
    detail = cause[:1].lower() + cause[1:]
    assert row.count(detail[:25]) + row.count(cause[:25]) == 1, row


def test_the_summary_and_the_scripts_read_on_a_phone():
    css = CSS.read_text(encoding="utf-8")
    narrow = css[css.index("table.es-summary, .md-typeset table.es-summary tbody"):]
    assert "display: block" in narrow[:400] and "attr(data-label)" in narrow
    assert re.search(r"table\.es-script code[^{]*\{[^}]*white-space: nowrap", css)
