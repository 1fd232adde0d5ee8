"""tools/build_differential.py: the gate between the compiled wheel and the pure source
(.ci/check-wheel runs it). Here: its atom list covers the condition language, and a
difference between the sides is found and fails the run."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from reference_impl import load_rules
from reference_impl.catalog import load_schema
from reference_impl.conditions import compile_condition

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("build_differential", ROOT / "tools" / "build_differential.py")
build_differential = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_differential)

# atoms whose evaluation needs a table part the condition variant lacks (a counter's id)
NEEDS_OTHER_TABLES = {"counter"}


def test_every_atom_of_the_condition_language_is_evaluated():
    registry = set(load_schema("variant.schema.json")["$defs"]["condition"]["properties"])
    listed = {key for atom in build_differential.CONDITION_ATOMS for key in atom}
    assert registry - NEEDS_OTHER_TABLES <= listed, sorted(registry - NEEDS_OTHER_TABLES - listed)


def test_each_optional_bound_is_left_out_somewhere():
    """The trap the compiled build fell into: a bound absent (None) where another is an int."""
    for key in ("score", "holds"):
        shapes = [atom[key] for atom in build_differential.CONDITION_ATOMS if key in atom]
        assert any("at-least" not in s for s in shapes) and any("at-most" not in s for s in shapes)


def test_every_listed_atom_compiles_on_the_condition_variant():
    rules = load_rules(build_differential.CONDITION_VARIANT)
    for atom in build_differential.CONDITION_ATOMS:
        compile_condition(rules, atom)


def test_a_difference_fails_and_is_shown():
    same = [["build", "", "pure"], ["games", "euchre {}", "abc"], ["cited", "m case", ["fail", "legal", "x", None]]]
    other = [["build", "", "compiled"], ["games", "euchre {}", "abc"], ["cited", "m case", ["fail", "legal", "y", None]]]
    assert build_differential.compare(same, same) == []
    found = build_differential.compare(other, same)
    assert len(found) == 1 and "cited m case" in found[0] and "'y'" in found[0]
    assert build_differential.compare(other[:2], same) and json.dumps(found)
