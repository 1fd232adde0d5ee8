"""Validating data against the project's JSON Schemas, with located messages."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from .catalog import load_schema, schema_dir
from .errors import Problem
from .yaml_source import Located


@lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    """A validator for ``spec/schema/<name>``, resolving ``$ref`` to sibling schemas."""
    resources = []
    for path in sorted(schema_dir().rglob("*.json")):
        schema = load_schema(str(path.relative_to(schema_dir())))
        if "$id" in schema:
            resources.append((schema["$id"], Resource.from_contents(schema)))
    registry = Registry().with_resources(resources)
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=registry)


def _describe(error: ValidationError) -> ValidationError:
    """For a failed ``oneOf``/``anyOf``, the sub-error that explains it best."""
    if error.context:
        return _describe(best_match(error.context))
    return error


def schema_problems(located: Located, schema_name: str, data: Any = None) -> list[Problem]:
    """Every schema violation in ``located`` (or in ``data``, reported against its file)."""
    document = located.data if data is None else data
    problems = []
    for error in validator(schema_name).iter_errors(document):
        best = _describe(error)
        path = list(best.absolute_path)
        problems.append(located.problem(path, best.message))
    problems.sort(key=lambda p: (p.line or 0, p.path))
    return problems
