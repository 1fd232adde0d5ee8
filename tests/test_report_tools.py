"""euchre-spec report: diff (regressed, fixed, new by case and clause, exit status), badge
(offline SVG), summary (Markdown for a CI job), history (reports kept by version), on
reports written here line by line."""

import json
import xml.etree.ElementTree as ET

from conformance.cli import main
from conformance.reports.badge import badge_for
from conformance.reports.diff import diff_runs
from conformance.reports.history import history_rows
from conformance.reports.runs import read_run
from conformance.reports.summary import summary_markdown


def write_report(path, version, outcomes, started="2026-12-01T10:00:00Z", variants=None):
    """A report as check --json writes it: header, one line per case, footer."""
    header = {"type": "header", "format": 1, "suite": {"name": "euchre-spec", "version": "0.2.0", "corpus_version": "1.0.0"},
              "protocol_version": "1.1.0", "started": started,
              "engine": {"name": "toy", "version": version, "url": "https://example.org/toy",
                         "variants": variants or {"euchre": {"options": {"stick-the-dealer": [False, True]}}}}}
    lines = [header]
    for case, spec in outcomes.items():
        outcome, clause, detail = (spec + (None, None))[:3] if isinstance(spec, tuple) else (spec, None, None)
        line = {"type": "case", "id": case, "variant": "euchre", "outcome": outcome, "clauses": ["deal"]}
        if outcome == "fail":
            line["failure"] = {"where": "hand 1 step 3", "message": "wrong phase", "field": "phase", "expected": "alone",
                               "actual": "play", "clause": {"id": clause or "going-alone"}}
        if detail:
            line["detail"] = detail
        lines.append(line)
    lines.append({"type": "footer", "counts": {}, "cases": len(outcomes)})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_diff_sorts_every_case_into_regressed_fixed_new_removed(tmp_path):
    old = write_report(tmp_path / "old.jsonl", "1.0", {"a": "pass", "b": "fail", "c": "pass", "d": "pass", "e": ("fail", "march"),
                                                       "f": "unsupported"})
    new = write_report(tmp_path / "new.jsonl", "1.1", {"a": ("fail", "round-2"), "b": "pass", "c": "pass", "e": ("fail", "euchre"),
                                                       "f": "fail", "g": "pass"})
    result = diff_runs(read_run(old), read_run(new))
    assert [(c.case, c.clause) for c in result.regressed] == [("a", "round-2")]
    assert [c.case for c in result.fixed] == ["b"]
    assert sorted(c.case for c in result.new) == ["f", "g"] and [c.case for c in result.new_failing()] == ["f"]
    assert [c.case for c in result.removed] == ["d"]
    assert [(c.case, c.clause) for c in result.changed] == [("e", "euchre")]


def test_diff_exit_status_for_ci(tmp_path, capsys):
    old = write_report(tmp_path / "old.jsonl", "1.0", {"a": "pass", "b": "fail"})
    better = write_report(tmp_path / "better.jsonl", "1.1", {"a": "pass", "b": "pass"})
    worse = write_report(tmp_path / "worse.jsonl", "1.2", {"a": "fail", "b": "pass"})
    assert main(["report", "diff", str(old), str(better)]) == 0
    assert main(["report", "diff", str(better), str(worse), "--markdown", str(tmp_path / "diff.md")]) == 1
    text = (tmp_path / "diff.md").read_text()
    assert "### Regressed" in text and "| `going-alone` | `a` | pass → fail |" in text
    try:                                                  # argparse refuses a missing file: exit 2
        main(["report", "diff", str(old), str(tmp_path / "missing.jsonl")])
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("a missing report was accepted")
    (tmp_path / "not-a-report.jsonl").write_text("hello\n")
    assert main(["report", "diff", str(old), str(tmp_path / "not-a-report.jsonl")]) == 2


def test_a_new_failing_case_fails_ci_unless_allowed(tmp_path):
    old = write_report(tmp_path / "old.jsonl", "1.0", {"a": "pass"})
    new = write_report(tmp_path / "new.jsonl", "1.1", {"a": "pass", "z": "fail"})
    assert main(["report", "diff", str(old), str(new)]) == 1
    assert main(["report", "diff", str(old), str(new), "--allow-new-failures"]) == 0


def test_badge_is_an_svg_with_the_counts(tmp_path):
    report = write_report(tmp_path / "r.jsonl", "1.0", {"a": "pass", "b": "pass", "c": "fail", "d": "unsupported"})
    svg = badge_for(read_run(report))
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and root.get("aria-label") == "euchre-spec: 2/3 passed"
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")        # nothing fetched
    assert main(["report", "badge", str(report), "-o", str(tmp_path / "b.svg")]) == 0
    assert (tmp_path / "b.svg").read_text() == svg


def test_summary_names_the_rules_declared_failures_by_rule_and_bug_links(tmp_path):
    report = write_report(tmp_path / "r.jsonl", "1.0", {
        "a": "pass", "b": ("fail", "round-2"), "c": ("fail", "round-2"),
        "k": ("expected-fail", None, "listed in the skip file: known; tracker https://example.org/toy/issues/7")})
    text = summary_markdown(read_run(report))
    assert "**Declared rules:** euchre (stick-the-dealer=false/true; other options at their defaults)" in text
    assert "| `round-2` | 2 | `b` |" in text
    assert "[bug report](https://example.org/toy/issues/7)" in text
    out = tmp_path / "summary.md"
    out.write_text("before\n")
    assert main(["report", "summary", str(report), "-o", str(out)]) == 0
    assert out.read_text().startswith("before\n## euchre-spec: toy 1.0")      # appended, as a job summary file is


def test_history_orders_versions_by_run_and_compares_each_with_the_one_before(tmp_path):
    folder = tmp_path / "history"
    folder.mkdir()
    write_report(folder / "b.jsonl", "2.0", {"a": "fail", "b": "pass"}, started="2026-12-02T10:00:00Z")
    write_report(folder / "a.jsonl", "1.0", {"a": "pass", "b": "fail"}, started="2026-12-01T10:00:00Z")
    rows = history_rows(folder)
    assert [r["version"] for r in rows] == ["1.0", "2.0"]
    assert (rows[1]["regressed"], rows[1]["fixed"], rows[1]["passed"]) == (1, 1, 1) and "regressed" not in rows[0]
    assert main(["report", "history", str(folder)]) == 0
    assert main(["report", "history", str(tmp_path / "none")]) == 2


def test_the_compliance_page_shows_declared_options_history_and_bug_links(tmp_path):
    from rules_site.compliance import read_report, render_compliance
    from rules_site.links import Links

    reports = tmp_path / "compliance" / "reports"
    history = tmp_path / "compliance" / "history" / "toy"
    reports.mkdir(parents=True)
    history.mkdir(parents=True)
    write_report(history / "1.0.jsonl", "1.0", {"a": "pass", "b": "fail"}, started="2026-12-01T10:00:00Z")
    write_report(history / "2.0.jsonl", "2.0", {"a": "fail", "b": "pass"}, started="2026-12-02T10:00:00Z")
    write_report(reports / "toy.jsonl", "2.0", {
        "a": "fail", "b": "pass",
        "k": ("expected-fail", None, "listed in the skip file: same dealer; tracker https://example.org/toy/issues")},
        started="2026-12-02T10:00:00Z")
    page = render_compliance([read_report(reports / "toy.jsonl")], [("euchre", "Euchre")], Links("compliance/index.md"))
    assert "declares Euchre (stick-the-dealer=false/true; other options at their defaults)" in page
    assert "History (2 versions kept):" in page and "| 1 regressed, 1 fixed, 0 new |" in page
    assert "[`2.0`](history/toy/2.0.jsonl)" in page
    assert "(known, [bug tracker](https://example.org/toy/issues))" in page


def test_the_compliance_page_shows_identify_and_fuzz_runs_with_their_shrunk_cases(tmp_path):
    from conformance.reports.fuzz_pages import fuzz_markdown

    reports = tmp_path / "compliance" / "reports"
    runs = tmp_path / "compliance" / "fuzz" / "toy"
    reports.mkdir(parents=True)
    runs.mkdir(parents=True)
    report = write_report(reports / "toy.jsonl", "1.0", {"a": "pass"})
    (runs / "identify.json").write_text(json.dumps({"type": "identify", "results": [
        {"variant": "euchre", "hands": 40, "check_hands": 100, "house_rules": {"lone-lead": "eldest"}, "deviations": [{}, {}]}]}))
    (runs / "fuzz.json").write_text(json.dumps({"type": "fuzz", "variant": "euchre", "seed": 1, "hands": 0,
                                                "options": {"stick-the-dealer": True, "game-target": 10}, "divergences": [
        {"found": {"clause": "round-1", "where": "hand 1, the deal", "phase": "deal", "count": 300,
                   "differences": [{"field": "legal", "reference": ["order", "pass"], "engine": ["call:C", "order", "pass"]}]},
         "case": "docs/compliance/fuzz/toy/cases/fuzz-euchre-legal-s1-g0.yaml", "hands": 1, "steps": 0}]}))
    text = "\n".join(fuzz_markdown(report))
    assert "house rules `lone-lead=eldest`; 2 kind(s) of deviation remain" in text
    assert "(euchre, stick-the-dealer=true; seed 1, 0 hands played, every game diverging" in text   # defaults not shown
    assert "[`fuzz-euchre-legal-s1-g0`](fuzz/toy/cases/fuzz-euchre-legal-s1-g0.yaml) (1 hand, 0 steps)" in text
    assert "| `round-1` | hand 1, the deal (deal) |" in text and "300 game(s)" in text
    assert fuzz_markdown(reports / "other.jsonl") == []


def test_each_engine_has_a_page_of_its_own_linked_from_the_compliance_page(tmp_path):
    from rules_site.compliance import read_report, render_compliance, render_engine_pages
    from rules_site.links import Links

    reports = tmp_path / "compliance" / "reports"
    reports.mkdir(parents=True)
    write_report(reports / "toy.jsonl", "2.0", {"a": ("fail", "round-2"), "b": "pass"})
    loaded = [read_report(reports / "toy.jsonl")]
    pages = render_engine_pages(loaded, [("euchre", "Euchre")], Links)
    assert list(pages) == ["compliance/toy.md"]
    page = pages["compliance/toy.md"]
    assert page.startswith("# toy 2.0\n") and "[All engines on the compliance page](index.md#report-toy)" in page
    assert "declares Euchre (stick-the-dealer=false/true" in page and "**1 failing case" in page
    assert "## toy 2.0" not in page                                      # its own title, not the section's
    index = render_compliance(loaded, [("euchre", "Euchre")], Links("compliance/index.md"), engine_pages=True)
    assert "[its own page](toy.md)" in index
    assert "[its own page]" not in render_compliance(loaded, [("euchre", "Euchre")], Links("compliance/index.md"))
