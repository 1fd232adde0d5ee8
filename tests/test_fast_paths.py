"""The shortcuts of loading: the quick YAML loader and the Rust validator.

A cold run reads the whole corpus; two shortcuts make that cheap. The quick loader reads a
plain file without working out the line of every value (found again only when a message
needs one); the Rust validator (jsonschema-rs) answers "valid" in microseconds, and only
"valid": anything else goes to the Python validator, which words every message. Both must
be invisible: the same data, lines and problems as the careful paths, on the corpus and
on damaged files.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
import yaml

from conformance import CORPUS_DIR
from reference_impl import schemas, yaml_source
from reference_impl.catalog import variants_dir
from reference_impl.errors import SpecError
from reference_impl.schemas import CASE_SCHEMA, case_schema_problems

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools" / "fuzz"))
from mutate import mutate_yaml  # noqa: E402
from targets import InvariantBroken, check_fast_paths  # noqa: E402

CASE_FILES = sorted(p for p in CORPUS_DIR.rglob("*.yaml") if p.name != "corpus.yaml")
TABLES = sorted(variants_dir().glob("*.yaml"))
HAND_WRITTEN = [p for p in CASE_FILES if "generated" not in p.parts]


def test_the_rust_validator_is_there():
    """The wheel of jsonschema-rs is a dependency: without it every shortcut is off and a
    cold run is several times slower (still correct)."""
    assert schemas.jsonschema_rs is not None
    assert schemas._rust_validator(CASE_SCHEMA, False) is not None
    assert schemas._rust_validator("variant.schema.json", True) is not None


def test_every_corpus_file_and_table_takes_the_quick_path_and_agrees():
    """Every file but those with an ``&`` or ``*`` (perhaps YAML anchors: the careful path
    weighs what they expand to; a few perft cases share a list that way). The careful
    paths are run beside on the hand-written files (the generated ones are alike)."""
    careful = 0
    for path in CASE_FILES + TABLES:
        text = path.read_text(encoding="utf-8")
        if "&" in text or "*" in text:
            careful += 1
            continue
        quick = yaml_source._parse_quickly(text, str(path))
        assert quick is not None, f"{path} is not read by the quick loader"
        schema = "variant.schema.json" if path in TABLES else CASE_SCHEMA
        if "generated" not in path.parts:
            check_fast_paths(text, schema)
        partial = path in TABLES and "extends" in quick.data
        assert schemas._surely_valid(schema, quick.data, partial, quick.has_float), f"{path} is not found valid quickly"
    assert careful < len(CASE_FILES) // 50, careful


@pytest.mark.parametrize("seed", range(2))
def test_damaged_files_get_the_same_answers_on_both_paths(seed):
    """Mutated case files and tables: wherever a shortcut answers, the careful path agrees.
    The campaign must reach both answers of the Rust validator, or it proves nothing."""
    rng = random.Random(seed)
    answers = {"valid": 0, "slow": 0}
    for _ in range(150):
        path = rng.choice(HAND_WRITTEN[:60] + TABLES)
        text = mutate_yaml(rng, path.read_text(encoding="utf-8"))
        schema = "variant.schema.json" if path in TABLES else CASE_SCHEMA
        try:
            check_fast_paths(text, schema)
        except InvariantBroken as exc:
            pytest.fail(f"{path.name} mutated (seed {seed}):\n{text}\n{exc}")
        quick = yaml_source._parse_quickly(text, "f.yaml")
        if quick is not None and isinstance(quick.data, dict):
            partial = schema != CASE_SCHEMA and "extends" in quick.data
            answers["valid" if schemas._surely_valid(schema, quick.data, partial, quick.has_float) else "slow"] += 1
    assert answers["valid"] and answers["slow"], answers


CASE = """\
# a comment first: the case starts on line 2
id: quick-case
title: A case read by the quick loader
variant: euchre
clauses: [round-1]
tags: [bidding]
setup: {dealer: 0}
hands:
  - deal:
      hands: ["9C TC QS KS AS", "JH JD AH 9S TS", "9D TD QD KD AD", "JC QC KC AC JS"]
      upcard: 9H
      kitty: TH QH KH
    steps:
      - {seat: 1, action: pass}
"""


def test_a_problem_of_a_quickly_read_file_is_at_its_line():
    located = yaml_source.load_text(CASE.replace("{seat: 1, action: pass}", "{seat: one, action: pass}"), "c.yaml")
    problems = case_schema_problems(located)
    assert [(p.path, p.line) for p in problems] == [("$.hands[0].steps[0].seat", 14)]
    assert located.root_line == 2


@pytest.mark.parametrize("change, into, refused", [
    ("setup: {dealer: 0}", "setup: {dealer: 0.0}", True),                 # JSON Schema's integer, not ours
    ("variant: euchre", "variant: euchre\nvariant: euchre", True),       # a repeated key
    ("tags: [bidding]", "tags: [bidding]\n1: one", True),                # a key that is not text
    ("variant: euchre", "variant: &v euchre", False),                     # an anchor
    ("setup: {dealer: 0}", "setup: {<<: {dealer: 0}}", False),            # a merge key
])
def test_what_the_shortcuts_leave_to_the_careful_path(change, into, refused):
    text = CASE.replace(change, into)
    quick = yaml_source._parse_quickly(text, "c.yaml")
    if quick is not None:            # only the float gets this far, and the validator sends it on
        assert quick.has_float and not schemas._surely_valid(CASE_SCHEMA, quick.data, False, quick.has_float)
    try:
        located = yaml_source.load_text(text, "c.yaml")
        problems = case_schema_problems(located)
    except SpecError as exc:
        problems = exc.problems
    assert bool(problems) == refused, problems
    assert all(problem.line for problem in problems)
    if not refused:
        assert located.data["variant"] == "euchre" and located.data["setup"] == {"dealer": 0}


def test_deep_nesting_is_refused_at_its_line():
    text = "a:\n" + "".join("  " * (depth + 1) + "- \n" for depth in range(80))
    assert yaml_source._parse_quickly(text, "deep.yaml") is None
    with pytest.raises(SpecError) as refused:
        yaml_source.load_text(text, "deep.yaml")
    assert "nested more than" in str(refused.value) and refused.value.problems[0].line


SCALARS = """\
plain: text
quoted: "12"
numbers: [0, 7, 12, 010, 0o17, 0x1f, 0b101, 1_000, -3, +5, 1:30, 123456789012345678901234567890]
floats: [1.5, .inf, -.Inf, .nan, 1e3, 6.02e+23]
truths: [yes, No, on, OFF, true, False, y, n]
nothing: [~, null, Null, ""]
dates: [2001-01-01, 2001-12-14t21:59:43.10-05:00]
tagged: [!!int "12", !!str 12, !!float "3", !!bool "yes", !!null "", !!binary aGk=]
nested: {a: [1, {b: [true, ~]}]}
"""


@pytest.mark.parametrize("part", SCALARS.splitlines())
def test_the_quick_constructor_reads_every_scalar_as_the_safe_loader_does(part):
    """The quick loader builds text, whole numbers, booleans and nulls itself; a spelling it
    gets wrong (an octal 010, a sexagesimal 1:30, an explicit tag) would change a case's
    meaning without any error. It must agree with ``yaml.safe_load`` value for value, type
    for type, and claim "surely JSON" only where JSON keeps the data exactly."""
    quick = yaml_source._parse_quickly(part, "scalars.yaml")
    assert quick is not None
    expected = yaml.safe_load(part)
    assert repr(quick.data) == repr(expected)
    assert quick.has_float == schemas._has_float(expected)
    if quick.surely_json:
        assert json.loads(json.dumps(quick.data)) == quick.data
    assert quick.surely_json == (part.split(":")[0] in {"plain", "quoted", "truths", "nothing", "nested"})
