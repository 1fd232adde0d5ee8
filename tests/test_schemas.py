"""The JSON Schemas themselves: valid 2020-12, with an $id and a description on every
property (they become the documentation and the editor hints)."""

import json

import pytest
from jsonschema import Draft202012Validator

from reference_impl.catalog import schema_dir

SCHEMAS = sorted(schema_dir().rglob("*.json"))


def undocumented(node, path="$"):
    """Paths of properties (and definitions) that lack a description."""
    missing = []
    if isinstance(node, dict):
        for key in ("properties", "$defs"):
            for name, sub in node.get(key, {}).items():
                if isinstance(sub, dict) and "description" not in sub:
                    missing.append(f"{path}.{key}.{name}")
        for key, value in node.items():
            if key != "if":      # conditions restate properties documented elsewhere
                missing += undocumented(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            missing += undocumented(item, f"{path}[{i}]")
    return missing


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_valid_and_documented(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].startswith("https://")
    assert undocumented(schema) == []


def test_there_is_a_variant_schema():
    assert any(p.name == "variant.schema.json" for p in SCHEMAS)
