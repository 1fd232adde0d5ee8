"""Validating data against the project's JSON Schemas, with located messages."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from . import cache
from .catalog import load_schema, schema_dir
from .errors import Problem
from .yaml_source import Located

try:                               # the Rust validator, where its wheel installed (see _surely_valid)
    import jsonschema_rs
except ImportError:                # pragma: no cover - the wheel exists for every platform we test
    jsonschema_rs = None  # type: ignore[assignment]

if TYPE_CHECKING:                 # imported when first needed: most runs never build a Python validator
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry


def _without_required(schema: Any) -> Any:
    """A copy of an object schema in which nothing reached through ``properties`` is
    required: what a table that ``extends`` another may leave out. Lists and referenced
    definitions (a clause, an option, a scoring row) stay whole, because a child that gives
    one replaces the parent's entirely."""
    if not isinstance(schema, dict):
        return schema
    relaxed = {k: v for k, v in schema.items() if k not in ("required", "if", "then", "allOf")}
    if "properties" in relaxed:
        relaxed["properties"] = {k: _without_required(v) for k, v in relaxed["properties"].items()}
    return relaxed


def _is_integer(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


@lru_cache(maxsize=None)
def strict_validator_class() -> type:
    """Draft 2020-12 with one change: JSON Schema counts 4.0 as an integer; the interpreter,
    the cases and the protocol do not (a seat, a count or a score given as 4.0 is refused
    where it is written). Built on first use: importing the Python validator costs a
    tenth of a second that an engine process or a warm run never needs."""
    from jsonschema import Draft202012Validator, validators
    return validators.extend(Draft202012Validator,
                             type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))


CASE_SCHEMA = "case.schema.json"
ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default"})   # change no result


def inline_local_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with every ``#/$defs/...`` reference replaced by its definition, where no
    definition refers back to itself (the case schema). Validation is then the same, without
    a registry lookup at each of the corpus's hundreds of thousands of ``$ref``s, which
    were a third of the time of loading it without a cache. A recursive schema is returned
    as it is."""
    definitions = schema.get("$defs", {})

    def expand(node: Any, trail: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [expand(item, trail) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and "/" not in ref[len("#/$defs/"):]:
            name = ref[len("#/$defs/"):]
            if name in trail:
                raise RecursionError(name)
            target = expand(definitions[name], trail + (name,))
            rest = {k: expand(v, trail) for k, v in node.items() if k != "$ref"}
            clash = (set(rest) & set(target)) - ANNOTATIONS
            return {**target, **rest} if not clash else {"allOf": [target], **rest}
        return {k: (v if k == "$defs" else expand(v, trail)) for k, v in node.items()}

    try:
        return expand(schema, ())
    except RecursionError:
        return schema


@lru_cache(maxsize=None)
def prepared_schema(name: str, partial: bool = False) -> dict[str, Any]:
    """``spec/schema/<name>`` as the validators use it: local references inlined and, with
    ``partial``, the rule sections need not be complete (for a table that extends another;
    the resolved table is then checked in full)."""
    schema = inline_local_refs(load_schema(name))
    if partial:
        top = {k: v for k, v in schema.items() if k not in ("if", "then")}
        top["properties"] = {k: (_without_required(v) if "$ref" not in v else v)
                             for k, v in schema["properties"].items()}
        schema = top
    return schema


@lru_cache(maxsize=None)
def validator(name: str, partial: bool = False) -> Draft202012Validator:
    """A validator for ``spec/schema/<name>`` (see :func:`prepared_schema`), resolving
    ``$ref`` to sibling schemas."""
    from jsonschema import Draft202012Validator
    Draft202012Validator.check_schema(load_schema(name))
    return strict_validator_class()(prepared_schema(name, partial), registry=_registry())


@lru_cache(maxsize=None)
def _schemas_by_id() -> tuple[tuple[str, Any], ...]:
    """Every schema with an ``$id``, so that a ``$ref`` to a sibling schema resolves."""
    found = []
    for path in sorted(schema_dir().rglob("*.json")):
        schema = load_schema(str(path.relative_to(schema_dir())))
        if "$id" in schema:
            found.append((schema["$id"], schema))
    return tuple(found)


@lru_cache(maxsize=None)
def _registry() -> Registry:
    """The Python validators' registry of :func:`_schemas_by_id`."""
    from referencing import Registry, Resource
    return Registry().with_resources((uri, Resource.from_contents(schema)) for uri, schema in _schemas_by_id())


_PLAIN_SCALARS = frozenset({str, int, bool, type(None)})


def _has_float(document: Any) -> bool:
    """Whether a float appears anywhere in ``document`` (walked without recursion; text and
    whole numbers, most of a document, are passed over on their exact type)."""
    pending = [document]
    pop, extend = pending.pop, pending.extend
    while pending:
        value = pop()
        if type(value) in _PLAIN_SCALARS:
            continue
        if isinstance(value, dict):
            extend(value.values())
        elif isinstance(value, list):
            extend(value)
        elif isinstance(value, float):
            return True
    return False


@lru_cache(maxsize=None)
def _rust_validator(name: str, partial: bool) -> Any:
    """jsonschema-rs's validator for the same schema as :func:`validator` (None without it,
    or where it cannot compile the schema)."""
    if jsonschema_rs is None:
        return None
    schema = load_schema(name) if name == CASE_SCHEMA and not partial else prepared_schema(name, partial)
    try:
        return jsonschema_rs.validator_for(schema, registry=jsonschema_rs.Registry(list(_schemas_by_id())),
                                           validate_formats=False)
    except Exception:              # noqa: BLE001 - any refusal only means the slow path is taken
        return None


def _surely_valid(name: str, document: Any, partial: bool = False, may_hold_floats: bool = True) -> bool:
    """True when ``document`` is certainly valid: jsonschema-rs (compiled) accepts it and it
    holds no float. Validating a corpus with the pure-Python library costs seconds; this
    answers in milliseconds. It only ever says "valid": any other answer (invalid, a float,
    a value Rust cannot take, no Rust validator) goes to the Python validator, which remains
    the authority and words every message. Floats are excluded because JSON Schema counts
    4.0 as an integer and this project does not (see strict_validator_class); the regular
    expressions of the schemas mean the same in both, or are stricter in Rust (``$`` before
    a final newline), which again only sends a document to the slow path."""
    fast = _rust_validator(name, partial)
    if fast is None or (may_hold_floats and _has_float(document)):
        return False
    try:
        return bool(fast.is_valid(document))
    except Exception:              # noqa: BLE001 - a value Rust cannot convert: let Python judge it
        return False


def surely_valid(name: str, document: Any) -> bool:
    """Whether ``document`` is certainly valid against ``spec/schema/<name>`` by the quick
    (compiled) validator; False means "ask :func:`validator`", which words the errors. The
    runner checks every reply of an engine this way (--strict-replies, the default)."""
    return _surely_valid(name, document)


def document_errors(name: str, document: Any) -> list[ValidationError]:
    """Every error of ``document`` (parsed JSON) against ``spec/schema/<name>``, by path: none
    where the quick validator finds it surely valid, else the Python validator's words. The
    quick one reads a tuple as an array, so it is for parsed JSON only."""
    if surely_valid(name, document):
        return []
    return sorted(validator(name).iter_errors(document), key=lambda e: list(e.absolute_path))


def first_error(name: str, document: Any) -> str | None:
    """The first error of :func:`document_errors` as a reply check says it, ``$path: message``
    (``$.state.hands[2]``), or None when ``document`` is valid."""
    errors = document_errors(name, document)
    if not errors:
        return None
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in errors[0].absolute_path)
    return f"${path}: {errors[0].message}"


def shown(value: Any) -> str:
    """A value as a table's author wrote it: YAML's ``true``/``null``, text in quotes, short."""
    if isinstance(value, str):
        text = repr(value)
    elif isinstance(value, (bool, type(None), list, dict)):
        text = json.dumps(value, ensure_ascii=False, default=str)
    else:
        text = str(value)
    return text if len(text) <= 80 else text[:77] + "..."


YAML_BOOLEAN_HINT = " (YAML reads an unquoted yes, no, on, off, true or false as a boolean: quote it)"


def message(error: ValidationError) -> str:
    """The error in the author's terms: values as YAML writes them (``true``, not ``True``),
    with a hint for YAML's most common surprise."""
    kind, instance, expected = error.validator, error.instance, error.validator_value
    if kind == "type":
        types = expected if isinstance(expected, list) else [expected]
        text = f"{shown(instance)} is not of type {' or '.join(repr(t) for t in types)}"
        return text + (YAML_BOOLEAN_HINT if isinstance(instance, bool) and "string" in types else "")
    if kind == "enum":
        text = f"{shown(instance)} is not one of {', '.join(shown(v) for v in expected)}"
        return text + (YAML_BOOLEAN_HINT if isinstance(instance, bool) and any(isinstance(v, str) for v in expected) else "")
    if kind == "const":
        return f"{shown(instance)} should be {shown(expected)}"
    if error.message.startswith(repr(instance)):
        return shown(instance) + error.message[len(repr(instance)):]
    return error.message


def _describe(error: ValidationError) -> ValidationError:
    """For a failed ``oneOf``/``anyOf``, the sub-error that explains it best."""
    if error.context:
        from jsonschema.exceptions import best_match
        return _describe(best_match(error.context))
    return error


# Bumped whenever how a document is validated changes (not only the schemas): a cached
# "valid" answer is then asked again. 2: integers strict in the opened case validators.
VALIDATION_RULES = 2


@lru_cache(maxsize=None)
def schemas_digest() -> str:
    digest = hashlib.sha256(f"validation {VALIDATION_RULES}".encode())
    for path in sorted(schema_dir().rglob("*.json")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _validity_key(schema_name: str, document: Any, partial: bool) -> str | None:
    """The cache key of a document's validity, or None for a document JSON cannot state
    exactly (a YAML date, a key that is not text): such a document is always validated."""
    try:
        text = json.dumps(document, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(f"{schemas_digest()}|{schema_name}|{partial}|{text}".encode("utf-8", "surrogatepass")).hexdigest()


def schema_problems(located: Located, schema_name: str, data: Any = None, partial: bool = False) -> list[Problem]:
    """Every schema violation in ``located`` (or in ``data``, reported against its file).

    A document found valid before, under the same schemas, is not validated again (see
    :mod:`reference_impl.cache`); only valid documents are remembered, so every problem is
    always reported afresh."""
    document = located.data if data is None else data
    if _surely_valid(schema_name, document, partial, may_hold_floats=data is not None or located.has_float):
        return []
    key = _validity_key(schema_name, document, partial)
    if key is not None and cache.read("valid", key):
        return []
    problems = []
    for error in validator(schema_name, partial).iter_errors(document):
        best = _describe(error)
        path = list(best.absolute_path)
        problems.append(located.problem(path, message(best)))
    problems.sort(key=lambda p: (p.line or 0, p.path))
    if not problems and key is not None:
        cache.write("valid", key, True)
    return problems



@lru_cache(maxsize=None)
def _case_validators() -> tuple[Draft202012Validator, Draft202012Validator]:
    """The case schema with its steps left open, and the schema of one step: a corpus holds
    tens of thousands of steps and half of them are the same as another (a pass, a lead),
    so each distinct step is validated once."""
    schema = load_schema(CASE_SCHEMA)
    opened = inline_local_refs({**schema, "$defs": {**schema["$defs"], "step": {"type": "object"}}})
    step = inline_local_refs({**schema, **{"$ref": "#/$defs/step"}, "if": True, "then": True, "else": True})
    # Built with the strict class, not with ``evolve``: evolve picks the class again from the
    # schema's ``$schema`` and would lose the strict integer type.
    strict = strict_validator_class()
    return strict(opened, registry=_registry()), strict(step, registry=_registry())


@lru_cache(maxsize=1 << 16)
def _step_errors(canonical: str) -> tuple[tuple[tuple[Any, ...], str], ...]:
    _, step = _case_validators()
    return tuple((tuple(best.absolute_path), message(best))
                 for best in (_describe(error) for error in step.iter_errors(json.loads(canonical))))


def _steps(document: Any) -> list[tuple[tuple[Any, ...], Any]]:
    """Every step of a case document, with its path."""
    found: list[tuple[tuple[Any, ...], Any]] = []
    entries = document.get("cases") if isinstance(document, dict) and "cases" in document else [document]
    prefix: tuple[Any, ...] = ("cases",) if isinstance(document, dict) and "cases" in document else ()
    for index, case in enumerate(entries if isinstance(entries, list) else []):
        where = prefix + (index,) if prefix else ()
        hands = case.get("hands") if isinstance(case, dict) else None
        for h, hand in enumerate(hands if isinstance(hands, list) else []):
            steps = hand.get("steps") if isinstance(hand, dict) else None
            for k, step in enumerate(steps if isinstance(steps, list) else []):
                found.append((where + ("hands", h, "steps", k), step))
    return found


def case_schema_problems(located: Located) -> list[Problem]:
    """Every violation of the case schema in a case file: :func:`schema_problems`, with each
    distinct step validated once per process."""
    document = located.data
    if _surely_valid(CASE_SCHEMA, document, may_hold_floats=located.has_float):
        return []
    key = _validity_key(CASE_SCHEMA, document, False)
    if key is None:
        return schema_problems(located, CASE_SCHEMA)
    if cache.read("valid", key):
        return []
    opened, _ = _case_validators()
    problems = [located.problem(list(best.absolute_path), message(best))
                for best in (_describe(error) for error in opened.iter_errors(document))]
    for path, step in _steps(document):
        for inner, text in _step_errors(json.dumps(step, sort_keys=True, separators=(",", ":"))):
            problems.append(located.problem(list(path + inner), text))
    problems.sort(key=lambda p: (p.line or 0, p.path))
    if not problems:
        cache.write("valid", key, True)
    return problems


@lru_cache(maxsize=8192)
def _errors_against(schema_name: str, pointer: tuple[str, ...], canonical: str) -> tuple[tuple[tuple[Any, ...], str], ...]:
    """Errors of one JSON value against the sub-schema at ``pointer`` (memoised on its text,
    and valid answers cached on disk)."""
    key = hashlib.sha256(f"{schemas_digest()}|{schema_name}|{'/'.join(pointer)}|{canonical}".encode()).hexdigest()
    if cache.read("valid", key):
        return ()
    root = validator(schema_name)
    schema = root.schema
    for part in pointer:
        schema = schema[part]
    found = []
    for error in root.evolve(schema=schema).iter_errors(json.loads(canonical)):   # no $schema: stays strict
        best = _describe(error)
        found.append((tuple(best.absolute_path), message(best)))
    if not found:
        cache.write("valid", key, True)
    return tuple(found)


def _section_errors(schema_name: str, key: str, value: Any) -> list[tuple[tuple[Any, ...], str]]:
    schema = validator(schema_name).schema["properties"][key]
    items = schema.get("items")
    if schema.get("type") == "array" and isinstance(value, list) and isinstance(items, dict) and set(schema) <= {"type", "items", "description"}:
        # A list of independent entries (the clauses): each is checked, and memoised, alone.
        found = []
        for index, item in enumerate(value):
            text = json.dumps(item, sort_keys=True, separators=(",", ":"))
            found += [((key, index, *path), message)
                      for path, message in _errors_against(schema_name, ("properties", key, "items"), text)]
        return found
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return [((key, *path), message) for path, message in _errors_against(schema_name, ("properties", key), text)]


def table_problems(table: dict[str, Any], schema_name: str = "variant.schema.json") -> list[tuple[tuple[Any, ...], str]]:
    """Schema violations of a complete (resolved) table, as (path, message) pairs.

    Each top-level section is checked against its own sub-schema and the answer memoised
    on the section's canonical JSON: resolutions of one variant under many option values
    share most sections, so checking a thousand combinations costs little more than one.
    """
    if _surely_valid(schema_name, table):
        return []
    schema = validator(schema_name).schema
    problems: list[tuple[tuple[Any, ...], str]] = []
    for key in schema.get("required", []) + schema.get("then", {}).get("required", []):
        if key not in table:
            problems.append(((), f"{key!r} is a required property"))
    for key, value in table.items():
        if key not in schema["properties"]:
            problems.append(((), f"Additional properties are not allowed ({key!r} was unexpected)"))
            continue
        problems += _section_errors(schema_name, key, value)
    return problems
