"""What an engine's section of the compliance page opens with (conformance/checked_summary.py):
how much of what it plays was checked, and each rule it breaks with its shortest case."""

from __future__ import annotations

import json
from pathlib import Path

from conformance.checked_summary import checked_line, defects_markdown

CASE = """- id: {id}
  title: t
  variant: euchre
  hands:
  - deal: {{}}
    steps: [{steps}]
"""


def layout(tmp_path: Path) -> tuple[Path, list[dict]]:
    reports = tmp_path / "docs" / "compliance" / "reports"
    reports.mkdir(parents=True)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for case_id, steps in (("long", 9), ("short", 2), ("gen-euchre-1", 4)):
        (corpus / f"{case_id}.yaml").write_text(CASE.format(id=case_id, steps=", ".join(["{seat: 0}"] * steps)))
    failure = {"clause": {"id": "round-2"}, "field": "legal", "expected": ["pass", "call:H"], "actual": ["call:H"]}
    cases = [
        {"id": "long", "file": "corpus/long.yaml", "outcome": "fail", "failure": failure},
        {"id": "short", "file": "corpus/short.yaml", "outcome": "fail", "failure": failure},
        {"id": "gen-euchre-1", "file": "corpus/gen-euchre-1.yaml", "outcome": "pass"},
        {"id": "other", "file": "corpus/other.yaml", "outcome": "unsupported"},
    ]
    fuzz = reports.parent / "fuzz" / "engine"
    fuzz.mkdir(parents=True)
    divergence = {"found": {"clause": "euchre", "count": 7, "differences": [{"field": "hand_points", "reference": [0, 2],
                                                                            "engine": [0, 1]}]},
                  "shrunk": {"clause": "euchre", "differences": [{"field": "hand_points", "reference": [0, 2],
                                                                 "engine": [0, 1]}]},
                  "case": "somewhere/fuzz-euchre-hand-points.yaml", "steps": 22, "hands": 1}
    (fuzz / "fuzz.json").write_text(json.dumps({"hands": 400, "seed": 1, "went_past": {"line": "reference"},
                                                "divergences": [divergence]}))
    deviation = {"found": {"clause": "round-2", "count": 3, "differences": [{"field": "dealer", "reference": 1,
                                                                            "engine": 0}]}, "steps": 1}
    (fuzz / "identify.json").write_text(json.dumps({"results": [{"hands": 120, "check_hands": 300,
                                                                 "deviations": [deviation]}]}))
    return reports / "engine.jsonl", cases


def test_the_checked_line_counts_cases_generated_cases_and_hands(tmp_path):
    report, cases = layout(tmp_path)
    line = checked_line(report, cases)
    assert "**3** of 4 cases run (75%)" in line and "**1** of them generated" in line
    assert "fuzz **400** hands (seed 1, past each divergence" in line
    assert "identify **120** hands of evidence and 300 checked" in line


def test_each_rule_is_one_row_with_its_tools_and_shortest_kept_case(tmp_path):
    report, cases = layout(tmp_path)
    rows = [r for r in defects_markdown(report, cases, tmp_path) if r.startswith("| `")]
    assert len(rows) == 2
    euchre, round_two = rows
    assert euchre.startswith("| `euchre` | fuzz | 7 games | hand_points: reference [0, 2], engine [0, 1] |")
    assert "(fuzz/engine/cases/fuzz-euchre-hand-points.yaml) (22 steps)" in euchre
    # two failing corpus cases and an identify deviation: the shortest kept case is the 2-step one,
    # not identify's 1-step deviation, whose case is not kept
    assert round_two.startswith("| `round-2` | check, identify | 2 cases, 3 games | legal: engine lacks pass |")
    assert round_two.endswith("`short` (2 steps) |")


def test_a_clean_engine_has_no_defect_table(tmp_path):
    report, cases = layout(tmp_path)
    for name in ("fuzz.json", "identify.json"):
        (report.parent.parent / "fuzz" / "engine" / name).unlink()
    passing = [{**c, "outcome": "pass"} if c["outcome"] == "fail" else c for c in cases]
    assert defects_markdown(report, passing, tmp_path) == []
    assert checked_line(report, passing).endswith("not fuzzed.")


def test_a_hands_difference_names_the_seat_and_the_cards():
    from conformance.checked_summary import difference_words
    words = difference_words("hands", [["9C", "TC"], ["AC", "JS"]], [["TC", "9C"], ["AC"]])
    assert words == "hands: seat 1: engine lacks JS"
