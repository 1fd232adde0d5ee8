"""The faulty engines and the small robustness corpus that the runner's own tests drive."""

from __future__ import annotations

from pathlib import Path

from conformance.cases import load_cases, load_corpus_meta

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ROOT / "tests" / "faulty_engines"
FIXTURES = ROOT / "tests" / "fixtures" / "robustness"
TAGS = load_corpus_meta().tags
FIXTURE_CASES = {c.id: c for c in load_cases([FIXTURES], TAGS)[0]}
FULL, SHORT = FIXTURE_CASES["robust-full-hand"], FIXTURE_CASES["robust-short-bid"]
