"""From a variant file to one complete rule table: parents merged, options applied.

A variant may ``extends`` another and override parts of it (``remove`` deletes what it
inherits, ``drop-options`` the options it does not keep); options change the table by
patches (:mod:`reference_impl.options`). The result, the *resolved table*, is what the
interpreter compiles and what the conformance runner sends to an engine, identified by the
SHA-256 of its canonical JSON.

Every problem is located: a problem in a file at its line; a problem in the resolved table
caused by an option, at the line of that option's request (its ``sets`` entry, say), naming
the option and its value.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import AbstractSet, Any, Mapping

from . import cache
from . import options as opts
from . import patches
from .catalog import load_variant_file, variant_path
from .checks import semantic_problems
from .errors import Problem, SpecError
from .schemas import schema_problems, schemas_digest, table_problems
from .yaml_source import Located, format_path

SCHEMA = "variant.schema.json"
MAX_EXTENDS = 16        # parents above a table: presets of presets, never a long chain
RESOLVED_CACHE = "resolved"   # the cache's folder of resolved tables (valid ones only)
TABLE_KEYS = ("extends", "remove", "drop-options", "option-choices", "option-defaults")


@dataclass(frozen=True)
class ResolvedTable:
    """A complete rule table and where it came from."""

    id: str
    table: dict[str, Any]
    sha256: str
    selected: dict[str, Any]
    file: str


def canonical_json(data: Any) -> str:
    """The one JSON text of ``data`` that is hashed: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def table_hash(table: Mapping[str, Any]) -> str:
    return text_hash(canonical_json(table))


def text_hash(canonical: str) -> str:
    """The SHA-256 of a table's canonical JSON (for a caller that needs the text too)."""
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@lru_cache(maxsize=None)
def _checked_located(located: Located) -> Located:
    if not isinstance(located.data, dict):
        raise SpecError(located.problem((), "a variant table must be a mapping"))
    problems = schema_problems(located, SCHEMA, partial="extends" in located.data)
    expected = Path(located.file).stem
    if located.data.get("id") not in (None, expected) and not problems:
        problems.append(located.problem(("id",), f"id {located.data.get('id')!r} does not match the file name {expected!r}"))
    if "selected" in located.data and not problems:
        # Written by resolution (the value chosen for every option); in a file it would be
        # replaced without a word, so a table choosing its options there would play others.
        problems.append(located.problem(("selected",), "selected is written by resolution, never read from a file: "
                                                       "to choose option values use option-defaults"))
    if problems:
        raise SpecError(problems)
    return located


def _chain(path: Path, checked: bool = True) -> tuple[Located, ...]:
    """The checked files from ``path`` up through its ``extends`` parents (unchecked when
    ``checked`` is false: the semantic checks of a table that fails its schema)."""
    chain: list[Located] = []
    seen: list[str] = []
    while True:
        located = _checked_located(load_variant_file(path)) if checked else load_variant_file(path)
        if not isinstance(located.data, dict):
            raise SpecError(located.problem((), "a variant table must be a mapping"))
        data = located.data
        if data["id"] in seen:
            raise SpecError(located.problem(("extends",), "extends loop: " + " -> ".join(seen + [data["id"]])))
        chain.append(located)
        seen.append(data["id"])
        parent_id = data.get("extends")
        if parent_id is None:
            return tuple(chain)
        if len(chain) > MAX_EXTENDS:
            raise SpecError(chain[0].problem(("extends",), f"more than {MAX_EXTENDS} parents above this table "
                                             f"({' -> '.join(seen[:4])} -> ...)"))
        parent_path = path.parent / f"{parent_id}.yaml"
        if not parent_path.is_file():
            try:
                parent_path = variant_path(parent_id)
            except SpecError:
                raise SpecError(located.problem(("extends",), f"unknown parent variant {parent_id!r}")) from None
        path = parent_path


def _merge_by_id(parent: list[dict], child: list[dict]) -> list[dict]:
    merged = [copy.deepcopy(c) for c in parent]
    index = {c["id"]: i for i, c in enumerate(merged)}
    for item in child:
        if item["id"] in index:
            merged[index[item["id"]]] = copy.deepcopy(item)
        else:
            index[item["id"]] = len(merged)
            merged.append(copy.deepcopy(item))
    return merged


def _merge(parent: Any, child: Any, key: str | None = None) -> Any:
    if key == "clauses":
        return _merge_by_id(parent, child)
    if key in ("options", "sources"):
        return {**copy.deepcopy(parent), **copy.deepcopy(child)}
    if isinstance(parent, dict) and isinstance(child, dict):
        merged = copy.deepcopy(parent)
        for k, v in child.items():
            merged[k] = _merge(parent[k], v, k) if k in parent else copy.deepcopy(v)
        return merged
    return copy.deepcopy(child)


@lru_cache(maxsize=256)
def _merged_text(chain: tuple[Located, ...]) -> str:
    """The merged table of a chain (child first), as JSON text: cached, and copied cheaply."""
    merged = {k: v for k, v in copy.deepcopy(chain[-1].data).items() if k not in TABLE_KEYS}
    restrictions: dict[str, Any] = {"option-choices": {}, "option-defaults": {}}
    for located in reversed(chain[:-1]):
        child = located.data
        problems = []
        for index, dotted in enumerate(child.get("remove", [])):
            try:
                patches.remove(merged, patches.split(dotted))
            except patches.PatchError as exc:
                problems.append(located.problem(("remove", index), f"cannot remove {dotted}: {exc}"))
        for index, key in enumerate(child.get("drop-options", [])):
            if key not in merged.get("options", {}):
                problems.append(located.problem(("drop-options", index), f"no option {key!r} to drop"))
            else:
                del merged["options"][key]
                restrictions["option-choices"].pop(key, None)
                restrictions["option-defaults"].pop(key, None)
        if problems:
            raise SpecError(problems)
        merged = _merge(merged, {k: v for k, v in child.items() if k not in TABLE_KEYS})
        for kind in restrictions:
            for key, value in child.get(kind, {}).items():
                restrictions[kind][key] = (value, located.file)
    return json.dumps({"table": merged, "restrictions": restrictions})


@lru_cache(maxsize=None)
def _code_digest() -> str:
    """The digest of the interpreter's own code, subpackages included (cache.source_digest)."""
    return cache.source_digest(Path(__file__).resolve().parent)


def _resolution_key(merged_text: str, options: Mapping[str, Any]) -> str | None:
    try:
        chosen = json.dumps(dict(options), sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None
    text = f"{_code_digest()}|{schemas_digest()}|{chosen}|{merged_text}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _locator(chain: tuple[Located, ...]):
    """``locate(key, path)``: the file and line of a path inside the declaration of option
    ``key`` (in the nearest table of the chain that declares it)."""
    def locate(key: str, path: tuple[Any, ...]) -> tuple[str, int | None]:
        for located in chain:
            if key in located.data.get("options", {}):
                return located.file, located.line_of(path)
        return chain[0].file, chain[0].line_of(("options", key))
    return locate


def _restrict(table: dict[str, Any], restrictions: dict[str, Any], chain: tuple[Located, ...]) -> None:
    declared = table.get("options", {})
    problems = []
    by_file = {located.file: located for located in chain}
    for key, (values, file) in restrictions["option-choices"].items():
        located = by_file[file]
        if key not in declared:
            problems.append(located.problem(("option-choices", key), f"no option {key!r} to restrict"))
            continue
        missing = opts.restrict(declared[key], values)
        if missing:
            problems.append(located.problem(("option-choices", key), f"option {key!r} has no value {opts.yaml_text(missing[0])}"))
    for key, (value, file) in restrictions["option-defaults"].items():
        located = by_file[file]
        if key not in declared:
            problems.append(located.problem(("option-defaults", key), f"no option {key!r} to set a default for"))
            continue
        try:
            declared[key]["default"] = opts.coerce(declared[key], value)
        except ValueError as exc:
            problems.append(located.problem(("option-defaults", key), f"option {key}: {exc}"))
    if problems:
        raise SpecError(problems)


def _default_blame(choice: opts.Choice, chosen: list[opts.Choice], wanted: Mapping[str, Any],
                   defaults: Mapping[str, tuple[Any, str]], chain: tuple[Located, ...], message: str) -> Problem | None:
    """A conflict between option values that nobody asked for, where a table's
    ``option-defaults`` chose one of them: the problem is that table's, at that line (the
    parent declaring the option wrote nothing wrong). A default set by a table further up
    the chain is reported at the author's ``extends``, saying where."""
    selected = {c.key: c.value for c in chosen}
    involved = [choice.key] + [other for other, need in (choice.patch.get("requires") or {}).items()
                               if other in selected and not opts.meets(need, selected[other])]
    by_file = {located.file: located for located in chain}
    culprits = [(key, defaults[key][1]) for key in involved if key in defaults and key not in wanted]
    if not culprits:
        return None
    key, file = min(culprits, key=lambda kf: [located.file for located in chain].index(kf[1]))
    located = by_file[file]
    path = ("option-defaults", key)
    mine = [k for k, f in culprits if f == file]
    said = " and ".join(f"{k}={opts.yaml_text(selected[k])}" for k in mine)
    text = f"{message} (option-defaults of this table: {said})"
    if file == chain[0].file:
        return located.problem(path, text)
    line = located.line_of(path)
    where = file + (f" line {line}" if line else "")
    return chain[0].problem(("extends",), f"{message}: the default {key}={opts.yaml_text(selected[key])} "
                                          f"is inherited from {where}, {format_path(path)}")


def _choose(table: dict[str, Any], wanted: Mapping[str, Any], chain: tuple[Located, ...],
            defaults: Mapping[str, tuple[Any, str]] | None = None) -> list[opts.Choice]:
    declared = table.get("options", {})
    locate = _locator(chain)
    problems = []
    for key in wanted:
        if key not in declared:
            problems.append(Problem(chain[0].file, f"options.{key}", f"unknown option {key!r} (known: {', '.join(declared) or 'none'})"))
    chosen = []
    for key, option in declared.items():
        raw = wanted.get(key, option["default"])
        try:
            value = opts.coerce(option, raw)
        except ValueError as exc:
            if key in wanted:
                problems.append(Problem(chain[0].file, f"options.{key}", f"option {key}: {exc}"))
            else:
                file, line = locate(key, ("options", key, "default"))
                problems.append(Problem(file, format_path(("options", key, "default")), f"option {key}: default {exc}", line))
            continue
        chosen.append(opts.choice_for(key, option, value))
    if not problems:
        for choice, message in opts.requirement_problems(table, chosen):
            if choice.key in wanted:
                problems.append(Problem(chain[0].file, f"options.{choice.key}", message))
                continue
            blamed = _default_blame(choice, chosen, wanted, defaults or {}, chain, message)
            if blamed is not None:
                problems.append(blamed)
            else:
                file, line = locate(choice.key, ("options", choice.key) + choice.where + ("requires",))
                problems.append(Problem(file, format_path(("options", choice.key) + choice.where + ("requires",)),
                                        message, line))
    if problems:
        raise SpecError(problems)
    return chosen


def _overridden_by_defaults(chosen: list[opts.Choice], wanted: Mapping[str, Any],
                            chain: tuple[Located, ...]) -> list[Problem]:
    """A value the author's table spells, at a path that an option it inherits writes with
    the value nobody chose (its default): the option's patch is applied after the merge, so
    the author's value would be replaced without a word (a child's ``game.target: 15`` under
    the parent's option ``game-target``, default 10). The problem is at the author's line,
    naming the option and the two cures: choose the option's default, or drop the option."""
    author = chain[0]
    if len(chain) < 2 or not isinstance(author.data, dict):
        return []
    own = author.data.get("options") or {}
    locate = _locator(chain)
    problems = []
    for choice in chosen:
        if choice.key in wanted or choice.key in own:
            continue
        written = [(dotted, True, value) for dotted, value in (choice.patch.get("sets") or {}).items()]
        written += [(dotted, False, None) for dotted in (choice.patch.get("remove") or [])]
        for dotted, sets, value in written:
            ids = patches.split(dotted)
            at = _index_path(author.data, ids)
            if len(at) != len(ids) or at not in author.lines:
                continue
            mine = patches.get(author.data, ids) if patches.exists(author.data, ids) else None
            if sets and mine == value:
                continue                    # the option writes what the table says: nothing is lost
            file, line = locate(choice.key, ("options", choice.key))
            where = file + (f" line {line}" if line else "")
            span = choice.where == ("range",) and value == choice.value
            default = mine if span and isinstance(mine, int) and not isinstance(mine, bool) else "<value>"
            what = f"sets it to {opts.yaml_text(value)}" if sets else "removes it"
            problems.append(author.problem(at, (
                f"this value is replaced: the inherited option {choice.key} (declared in {where}) {what} "
                f"with its default {choice.key}={opts.yaml_text(choice.value)}, after the tables are merged; "
                f"choose the value through the option (option-defaults: {{{choice.key}: {default}}}) or "
                f"drop the option to keep this one (drop-options: [{choice.key}])")))
    return problems


def _id_path(table: Any, path: tuple[Any, ...]) -> tuple[str, ...]:
    """``path`` with list indices replaced by the ids of the elements they point at."""
    out = []
    node = table
    for part in path:
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            element = node[part]
            out.append(str(element["id"]) if isinstance(element, dict) and "id" in element else str(part))
            node = element
        elif isinstance(node, dict) and part in node:
            out.append(str(part))
            node = node[part]
        else:
            out.append(str(part))
            node = None
    return tuple(out)


def _drop_hint(table: Mapping[str, Any], label: str) -> str:
    """For an inherited option that cannot apply to a child (the step or row it changes is
    gone): the ``drop-options`` that takes it out, with the options whose values require it
    (dropped alone, it would leave them requiring an option that is not there)."""
    if not label.startswith("option "):
        return ""
    key = label[len("option "):].split("=", 1)[0]
    declared = table.get("options") or {}
    needing = [other for other, option in declared.items() if other != key and any(
        key in (choice.get("requires") or {}) for choice in option.get("choices", []))]
    return f"; if {key} cannot apply to this table, drop it: drop-options: [{', '.join([key] + needing)}]"


def _at_origin(origin: patches.Origin, message: str, located: Located, hint: str = "") -> Problem:
    """A problem caused by a change, at the line that asks for it; when that line is in a
    parent table (an inherited option that no longer fits what this table changed), the
    problem is this table's, at its ``extends``, and says where the parent asks for it: the
    author of a table is never sent to fix a file that is not theirs."""
    if origin.file == located.file or not isinstance(located.data, dict) or "extends" not in located.data:
        return Problem(origin.file, format_path(origin.path), message, origin.line)
    where = f"{origin.file}" + (f" line {origin.line}" if origin.line else "") + f", {format_path(origin.path)}"
    return Problem(located.file, "$.extends", f"{message}: inherited from {where}{hint}", located.line_of(("extends",)))


def _spelled_depth(located: Located, path: tuple[Any, ...]) -> int:
    """How much of ``path`` the file spells out (0: none of it)."""
    return next((n for n in range(len(path), 0, -1) if path[:n] in located.lines), 0)


def _index_path(data: Any, id_path: tuple[str, ...]) -> tuple[Any, ...]:
    """An id path (from :func:`_id_path`) as the index path of ``data``, as far as it goes."""
    out: list[Any] = []
    node = data
    for part in id_path:
        if isinstance(node, list):
            found = next((i for i, e in enumerate(node) if isinstance(e, dict) and str(e.get("id")) == part), None)
            if found is None and part.isdigit() and int(part) < len(node):
                found = int(part)
            if found is None:
                break
            out.append(found)
            node = node[found]
        elif isinstance(node, dict) and part in node:
            out.append(part)
            node = node[part]
        else:
            break
    return tuple(out)


def _inherited(path: tuple[Any, ...], message: str, chain: tuple[Located, ...],
               table: dict[str, Any]) -> Problem | None:
    """A problem at a path the author's file does not spell, in a table that extends another:
    it is the author's (what they changed or removed broke what the parent says), reported at
    their ``remove`` or ``extends`` line and naming the parent's line it shows at."""
    author = chain[0]
    if len(chain) < 2 or _spelled_depth(author, path) > 0:
        return None
    ids = _id_path(table, path)
    parents = [(located, _index_path(located.data, ids)) for located in chain[1:]]
    spelled, at = max(parents, key=lambda pair: _spelled_depth(pair[0], pair[1]))
    line = spelled.line_of(at)
    where = f"{spelled.file}" + (f":{line}" if line else "")
    anchor: tuple[Any, ...] = ("remove",) if "remove" in author.data else ("extends",)
    return author.problem(anchor, f"{message} (at {format_path(path)}, inherited from {where})")


def _own_problems(merged_text: str) -> set[tuple[tuple[Any, ...], str]]:
    """The semantic problems of the merged table before any option is applied: a problem the
    resolved table shares with it is the table's own, whatever option touched that part."""
    try:
        return {(tuple(path), message) for path, message in semantic_problems(json.loads(merged_text)["table"])}
    except Exception:                   # an incomplete table: nothing to compare with
        return set()


def _blamed(problems: list[tuple[tuple[Any, ...], str]], table: dict[str, Any], ledger: patches.Ledger,
            chain: tuple[Located, ...], own: AbstractSet[tuple[tuple[Any, ...], str]] = frozenset()) -> list[Problem]:
    """Each problem of the resolved table, at the option request behind it if there is one
    (and the table without options is free of it), else where the table's own file spells it
    (or, for what only a parent spells, at the author's ``remove`` or ``extends``)."""
    located = chain[0]
    out = []
    for path, message in problems:
        origin = None if (tuple(path), message) in own else ledger.blame(_id_path(table, path))
        if origin is not None:
            out.append(_at_origin(origin, f"{message} (at {format_path(path)}, set by {origin.label})", located))
        else:
            out.append(_inherited(tuple(path), message, chain, table) or _spelled(located, table, tuple(path), message))
    return out


def _spelled(located: Located, table: Any, path: tuple[Any, ...], message: str) -> Problem:
    """A problem at the line the author's file spells it: the resolved table's index (a
    child's clause merged into the parent's list by id) is followed by ids into the file."""
    ids = _id_path(table, path)
    at = _index_path(located.data, ids)
    line = located.lines.get(at) if len(at) == len(ids) else None
    return Problem(located.file, format_path(path), message, line or located.line_of(path))


def resolve_file(path: str | Path, options: Mapping[str, Any] | None = None) -> ResolvedTable:
    """Resolve the variant table at ``path`` with the given option values."""
    path = Path(path)
    chain = _chain(path)
    merged_text = _merged_text(chain)
    key = _resolution_key(merged_text, options or {})
    cached = cache.read(RESOLVED_CACHE, key) if key is not None else None
    if isinstance(cached, dict) and cached.keys() == {"table", "sha256"}:
        table = cached["table"]
        return ResolvedTable(table["id"], table, cached["sha256"], dict(table["selected"]), str(path))
    data = json.loads(merged_text)
    table, restrictions = data["table"], data["restrictions"]
    _restrict(table, restrictions, chain)
    chosen = _choose(table, dict(options or {}), chain, restrictions["option-defaults"])
    overridden = _overridden_by_defaults(chosen, dict(options or {}), chain)
    ledger = patches.Ledger()
    located_problems = opts.apply(table, chosen, _locator(chain), ledger)
    if located_problems:
        # A change that could not be made leaves the table half changed (a failed move puts
        # its element last): the semantic problems are those of the merged table before any
        # option, which are the author's whatever the options do (one run, every problem).
        merged = json.loads(merged_text)["table"]
        own = _blamed(semantic_problems(merged, partial=True), merged, patches.Ledger(), chain)
        raise SpecError([_at_origin(origin, f"{message} ({origin.label})", chain[0], _drop_hint(table, origin.label))
                         for origin, message in located_problems] + overridden + own)
    table["selected"] = {c.key: c.value for c in chosen}
    problems = table_problems(table, SCHEMA)
    problems += [p for p in semantic_problems(table, partial=bool(problems)) if p not in problems]
    if problems or overridden:
        label = ", ".join(f"{k}={opts.yaml_text(v)}" for k, v in table["selected"].items() if options and k in options)
        found = _blamed(problems, table, ledger, chain, _own_problems(merged_text))
        if label:
            found = [Problem(p.file, p.path, f"{p.message} (with options {label})", p.line) for p in found]
        raise SpecError(found + overridden)
    text = canonical_json(table)
    resolved = ResolvedTable(table["id"], table, text_hash(text), dict(table["selected"]), str(path))
    if key is not None and json.loads(text) == table:      # JSON keeps it exactly
        cache.write(RESOLVED_CACHE, key, {"table": table, "sha256": resolved.sha256})
    return resolved


def problems_beyond_the_schema(path: str | Path) -> list[Problem]:
    """The semantic problems of a table whose files fail their schema, as far as the checks
    can read it (``validate`` reports them with the schema's, so that one run shows every
    problem); empty where the table cannot be merged or its options applied at all."""
    try:
        chain = _chain(Path(path), checked=False)
        data = json.loads(_merged_text(chain))
        table, restrictions = data["table"], data["restrictions"]
        _restrict(table, restrictions, chain)
        chosen = _choose(table, {}, chain, restrictions["option-defaults"])
        ledger = patches.Ledger()
        if opts.apply(table, chosen, _locator(chain), ledger):
            return []
    except Exception:                   # a table too broken to merge: the schema's problems say why
        return []
    return _blamed(semantic_problems(table, partial=True), table, ledger, chain)


def table_problem(resolved: ResolvedTable, path: tuple[Any, ...], message: str) -> Problem:
    """A problem met while playing a resolved table, at the table's file and at the line of
    ``path`` in the nearest file of its chain that spells it (a child's rows may be its
    parent's): a run-time error names the table an author wrote, never ``<input>``."""
    try:
        chain = _chain(Path(resolved.file), checked=False)
    except (SpecError, OSError):
        return Problem(resolved.file, format_path(path), message)
    ids = _id_path(resolved.table, path)
    for located in chain:
        at = _index_path(located.data, ids)
        if len(at) == len(ids) and at in located.lines:
            return Problem(located.file, format_path(path), message, located.lines[at])
    return chain[0].problem((), message) if not path else Problem(chain[0].file, format_path(path), message)


def declared_options(path: str | Path) -> dict[str, Any] | None:
    """The merged table of ``path`` before any option is applied (its ``options`` as this
    table restricts them), for trying each option value of a table whose defaults fail; None
    where its files fail their schema or cannot be merged."""
    try:
        chain = _chain(Path(path))
        data = json.loads(_merged_text(chain))
        table = data["table"]
        _restrict(table, data["restrictions"], chain)
    except (SpecError, KeyError, TypeError, ValueError):
        return None
    return table


def resolve(variant: str, options: Mapping[str, Any] | None = None) -> ResolvedTable:
    """Resolve a variant by id (``euchre``) or by path to a YAML file."""
    if variant.endswith((".yaml", ".yml")) or "/" in variant:
        return resolve_file(Path(variant), options)
    return resolve_file(variant_path(variant), options)


coerce_option_value = opts.coerce

__all__ = ["ResolvedTable", "resolve", "resolve_file", "declared_options", "table_problem", "coerce_option_value", "canonical_json", "table_hash", "text_hash",
           "format_path"]
