"""What a case needs of an engine: the options its script reaches, not every option of its table.

A case is made under one value of every option, but its script may never reach most of
them: no one goes alone, so ``defending-alone`` is never asked; no score comes near the
target, so ``game-target=11`` plays it the same. An option is **not needed** by a case
when every other value the case's options allow gives the same legal sets, observations
and results along its script on the reference interpreter: the case is replayed under each
alternative value, one option at a time, and it must still pass. Otherwise the case
``requires`` the option, and the requirement lists the values under which it still passes
(a single value, or a list of values and whole-number ranges, in the shape a ``hello``
declares options).

The requirements are stored in the corpus (``requires:`` of each case, written by
``euchre-spec corpus requirements --write``) and checked by ``corpus lint``: a stale or
missing requirement is a problem. The runner then runs a case when the engine declares,
for every required option, a value the requirement allows; the other options take values
the engine declares, and the case so adapted is replayed on the reference first (the
requirements were found one option at a time; the replay vouches for the combination).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml

from reference_impl import cache
from reference_impl.errors import SpecError
from reference_impl.yaml_source import load_file
from reference_impl.resolve import ResolvedTable
from reference_impl.rules import Rules
from reference_impl.options import choice_for, meets, values_of, yaml_text

from . import __version__
from .cases import Case, resolved_table
from .engine_process import InProcessEngine
from .forked_map import forked_map, usable_cores
from .reference_engine import ReferenceEngine
from .runner import Session, declares_value

CACHE_KIND = "case-requirements"
METHOD = 1               # bump when the computation changes: cached answers are then recomputed
NEAR_SPAN = 8            # a range this narrow is tried value by value
REPLAY_DEADLINE = 1800.0


class _TrustingEngine(ReferenceEngine):
    """The reference engine for tables this process resolved itself (valid by construction):
    it compiles them without validating them again, and keeps a bounded number."""

    KEEP = 256

    def handle(self, message: Any) -> dict[str, Any]:
        if isinstance(message, dict) and message.get("type") == "rules":
            return {"id": message["id"], "ok": True, **self.trusted_rules(message)}
        return super().handle(message)

    def trusted_rules(self, message: dict[str, Any]) -> dict[str, Any]:
        table, sha = message["table"], message["sha256"]
        if sha not in self._compiled:
            if len(self._compiled) >= self.KEEP:
                self._compiled.clear()
            self._compiled[sha] = Rules(ResolvedTable(table["id"], table, sha, dict(table.get("selected", {})), "<replay>"))
        self.rules = self._compiled[sha]
        self.state = None
        return {}


class _Replayer(Session):
    """The runner's own session on the in-process reference engine: a replay judges the
    script exactly as a run judges an engine. No clause is cited for a failing replay."""

    def __init__(self) -> None:
        super().__init__(["<in-process reference engine>"])
        self.engine = InProcessEngine(factory=_TrustingEngine)

    def _cite(self, case: Case, failure: Any) -> None:
        pass


_REPLAYER: _Replayer | None = None


def _replayer() -> _Replayer:
    global _REPLAYER
    if _REPLAYER is None:
        _REPLAYER = _Replayer()
    return _REPLAYER


def under(case: Case, selection: Mapping[str, Any]) -> Case | None:
    """``case`` with its options replaced by ``selection`` (every option's value), or None
    where these values cannot be chosen together (a ``requires`` of an option not met)."""
    options = case.table.table.get("options", {})
    chosen = {k: v for k, v in selection.items() if k in options and options[k].get("default") != v}
    try:
        table = resolved_table(case.variant, chosen)
    except SpecError:
        return None
    return dataclasses.replace(case, options=chosen, table=table)


def replays(case: Case) -> bool:
    """Whether ``case`` passes on the reference engine."""
    return _replayer().run(case).outcome == "pass"


def _case_integers(case: Case) -> set[int]:
    """Scores and points the script shows: where a target or a points option could matter."""
    found: set[int] = set(case.setup.get("scores") or [])
    expects = [case.expect, case.setup.get("expect") or {}]
    for hand in case.hands:
        expects += [hand.get("expect") or {}, hand.get("after_deal") or {}]
        expects += [step.get("expect") or {} for step in hand["steps"]]
    for expect in expects:
        for key in ("scores", "hand_points"):
            value = expect.get(key)
            if isinstance(value, list):
                found |= {v for v in value if isinstance(v, int) and not isinstance(v, bool)}
    return found


def candidates(case: Case, key: str) -> list[Any]:
    """The values of option ``key`` to replay the case under: its named values, and of a
    range every value when it is narrow, else its bounds, its examples and the values next
    to every score and point total the script shows (where a target starts to matter)."""
    option = case.table.table["options"][key]
    values = list(values_of(option))
    span = option.get("range")
    if span is not None:
        low, high = span["minimum"], span["maximum"]
        if high - low < NEAR_SPAN:
            extra = set(range(low, high + 1))
        else:
            extra = {low, low + 1, high}
            current = case.table.selected.get(key)
            near = _case_integers(case) | ({current} if isinstance(current, int) and not isinstance(current, bool) else set())
            for number in near:
                extra |= {number - 1, number, number + 1}
        values += sorted(v for v in extra if low <= v <= high and v not in values)
    return values


def _allowed(case: Case, key: str, value: Any) -> bool:
    """Whether the case's other options allow ``key=value`` (its ``requires`` are met)."""
    wanted = (choice_for(key, case.table.table["options"][key], value).patch.get("requires") or {})
    selected = case.table.selected
    return all(other not in selected or meets(need, selected[other]) for other, need in wanted.items())


@contextlib.contextmanager
def _alternatives_not_cached():
    """The tables of the alternative values are resolved once and thrown away: kept in the
    on-disk cache (shared, bounded), thousands of them would push out what is worth keeping."""
    before = os.environ.get("EUCHRE_SPEC_CACHE")
    os.environ["EUCHRE_SPEC_CACHE"] = "off"
    try:
        yield
    finally:
        if before is None:
            del os.environ["EUCHRE_SPEC_CACHE"]
        else:
            os.environ["EUCHRE_SPEC_CACHE"] = before


def compute(case: Case) -> dict[str, Any]:
    """The options ``case`` requires, each with the values under which its script plays the same."""
    with _alternatives_not_cached():
        return _compute(case)


def _compute(case: Case) -> dict[str, Any]:
    required: dict[str, Any] = {}
    selected = case.table.selected
    if any(hand.get("perft") for hand in case.hands):
        # A perft count reaches every line of its hand: every option is taken as reached
        # (replaying the counts under each value would cost minutes a case).
        return {key: selected.get(key, option.get("default")) for key, option in case.table.table.get("options", {}).items()}
    for key, option in case.table.table.get("options", {}).items():
        current = selected.get(key, option.get("default"))
        tried: list[tuple[Any, bool]] = [(current, True)]
        for value in candidates(case, key):
            if value == current and type(value) is type(current):
                continue
            if not _allowed(case, key, value):
                continue
            other = under(case, {**selected, key: value})
            if other is not None:
                tried.append((value, replays(other)))
        if not all(agrees for _, agrees in tried):
            required[key] = as_requirement(option, tried, current)
    return required


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def as_requirement(option: Mapping[str, Any], tried: list[tuple[Any, bool]], current: Any) -> Any:
    """One value, or a list of the agreeing values with runs of a range's whole numbers as
    ``{minimum, maximum}``: a run of neighbouring values tried that all agree is taken to
    agree in between (the runner's replay of the adapted case vouches for the value it picks)."""
    agreeing = [value for value, agrees in tried if agrees]
    if len(agreeing) == 1:
        return current
    span = option.get("range")
    in_range = (lambda v: _is_number(v) and span["minimum"] <= v <= span["maximum"]) if span else (lambda v: False)
    named = [c["value"] for c in option.get("choices", [])]
    plain = sorted((v for v in agreeing if not in_range(v)),
                   key=lambda v: named.index(v) if v in named else len(named))
    runs: list[Any] = []
    run: list[int] = []
    for value, agrees in sorted((t for t in tried if in_range(t[0])), key=lambda t: t[0]):
        if agrees:
            run.append(value)
            continue
        if run:
            runs.append(run[0] if len(run) == 1 else {"minimum": run[0], "maximum": run[-1]})
        run = []
    if run:
        runs.append(run[0] if len(run) == 1 else {"minimum": run[0], "maximum": run[-1]})
    return plain + runs


def allows(requirement: Any, value: Any) -> bool:
    """Whether a stored requirement (one value, or a list of values and ranges) allows ``value``."""
    return declares_value(requirement if isinstance(requirement, list) else [requirement], value)


# -- the corpus's requirements: computed (cached), stored, compared ----------------------------------
def _cache_key(case: Case) -> str:
    data = {k: v for k, v in case.data.items() if k != "requires"}
    text = json.dumps([METHOD, __version__, case.table.sha256, data], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _compute_job(case: Case) -> dict[str, Any]:
    return compute(case)


def requirements_of(cases: list[Case], jobs: int | None = None) -> dict[str, dict[str, Any]]:
    """Every case's requirements by case id: from the on-disk cache where it knows the case
    (its data and table unchanged), else replayed, on up to ``jobs`` cores."""
    found: dict[str, dict[str, Any]] = {}
    todo: list[Case] = []
    for case in cases:
        cached = cache.read(CACHE_KIND, _cache_key(case))
        if isinstance(cached, dict):
            found[case.id] = cached
        else:
            todo.append(case)
    cores = min(jobs or usable_cores(), usable_cores())
    done = forked_map(_compute_job, todo, [max(1, case.steps) for case in todo], cores, REPLAY_DEADLINE) \
        if cores > 1 and len(todo) > 8 else {}
    for index, case in enumerate(todo):
        answer = done[index] if index in done else compute(case)
        found[case.id] = answer
        cache.write(CACHE_KIND, _cache_key(case), answer)
    return found


def stored(case: Case) -> dict[str, Any] | None:
    """The requirements a case file states (``requires:``), or None when it states none."""
    value = case.data.get("requires") if isinstance(case.data, dict) else None
    return dict(value) if isinstance(value, dict) else None


def _same_requirement(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def stale(case: Case, computed: Mapping[str, Any]) -> str | None:
    """How a case's stored requirements differ from the computed ones, or None."""
    given = stored(case)
    if given is None:
        return "states no requires: (euchre-spec corpus requirements --write adds it)"
    problems = []
    for key in sorted(set(given) | set(computed)):
        if key not in computed:
            problems.append(f"requires {key} but its script plays the same under every value")
        elif key not in given:
            problems.append(f"does not state that it requires {key}={flow(computed[key])}")
        elif not _same_requirement(given[key], computed[key]):
            problems.append(f"requires {key}={flow(given[key])}, but the values its script allows are {flow(computed[key])}")
    return ("stale requires: " + "; ".join(problems) + " (euchre-spec corpus requirements --write)") if problems else None


def flow(value: Any) -> str:
    """A value as one line of YAML flow style (how ``requires:`` is written)."""
    return yaml.safe_dump(value, default_flow_style=True, width=1 << 16, sort_keys=False).strip().removesuffix("...").strip()


def write_requirements(cases: Iterable[Case], computed: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Write each case's ``requires:`` line into its file (after its ``id:`` line, or in
    place of the one it has); returns the files changed. Comments and layout stay as they are."""
    by_file: dict[str, list[Case]] = {}
    for case in cases:
        if case.id in computed and stale(case, computed[case.id]) is not None:
            by_file.setdefault(case.file, []).append(case)
    changed = []
    for file, todo in sorted(by_file.items()):
        located = load_file(Path(file))
        listed = isinstance(located.data.get("cases"), list)
        entries = located.data["cases"] if listed else [located.data]
        where = {entry.get("id"): (("cases", i) if listed else ()) for i, entry in enumerate(entries) if isinstance(entry, dict)}
        lines = Path(file).read_text(encoding="utf-8").splitlines(keepends=True)
        edits = []
        for case in todo:
            path = where.get(case.id)
            if path is None:
                continue
            id_line = located.lines.get(path + ("id",))
            if id_line is None:
                continue
            indent = lines[id_line - 1].index("id:")
            text = " " * indent + f"requires: {flow(dict(computed[case.id]))}\n"
            old = located.lines.get(path + ("requires",))
            edits.append((old - 1 if old is not None else id_line, text, old is not None))
        for index, text, replace in sorted(edits, reverse=True):
            if replace:
                lines[index] = text
            else:
                lines.insert(index, text)
        Path(file).write_text("".join(lines), encoding="utf-8")
        changed.append(file)
    return changed


# -- running a case on an engine that declares some options ------------------------------------------
def _concrete(declared: Any, near: Any) -> list[Any]:
    """Values a declaration names: its values, and of each range the value nearest ``near``."""
    found = []
    for item in declared if isinstance(declared, list) else [declared]:
        if isinstance(item, dict):
            low, high = item.get("minimum"), item.get("maximum")
            if _is_number(near):
                found.append(max(low if low is not None else near, min(high if high is not None else near, near)))
            else:
                found += [v for v in (low, high) if v is not None]
        elif item != "*":
            found.append(item)
    return found


def engine_value(declared: Mapping[str, Any], key: str, option: Mapping[str, Any], current: Any,
                 requirement: Any = None, required: bool = True) -> tuple[bool, Any]:
    """The value of option ``key`` to run a case under, for an engine declaring ``declared``:
    the case's own value where the engine plays it, else the default, else a declared value,
    each only where the case's requirement (if it has one for ``key``) allows it.
    Returns (found, value)."""
    default = option.get("default")
    said = declared.get(key, [default])
    allowed = (lambda v: allows(requirement, v)) if required else (lambda v: True)
    if said == "*":
        return True, current
    for value in [current, default] + _concrete(said, current):
        if declares_value(said, value) and allowed(value):
            return True, value
    return False, None


def option_needs(declared: Mapping[str, Any], case: Case) -> list[tuple[str, str]]:
    """The options an engine declaring ``declared`` lacks for ``case``: every option the case
    requires (``requires:``; a case stating none requires all its options at their values)
    that the engine plays at no value the requirement allows."""
    requires = stored(case)
    needs = []
    options = case.table.table.get("options", {})
    for key, value in case.table.selected.items():
        if requires is not None and key not in requires:
            continue
        requirement = requires[key] if requires is not None else value
        found, _ = engine_value(declared, key, options.get(key, {}), value, requirement)
        if not found:
            shown = flow(requirement) if isinstance(requirement, list) else yaml_text(requirement)
            unlisted = "" if key in declared else " (an option not listed is supported at its default only)"
            needs.append((key, f"option {key}={shown} is not declared{unlisted}"))
    return needs


_VOUCHED: dict[tuple[str, str], bool] = {}


def adapted(hello: Mapping[str, Any], case: Case) -> tuple[Case, str | None]:
    """The case as the engine is sent it: under the values the engine declares for the
    options the case does not require (or that its requirement allows), replayed on the
    reference first. Returns (the case to play, None), or (case, why it cannot run)."""
    variants = hello.get("variants")
    if not isinstance(variants, dict) or stored(case) is None:
        return case, None
    declared = (variants.get(case.variant) or {}).get("options", {})
    if declared == "*" or not isinstance(declared, dict):
        return case, None
    requires = stored(case) or {}
    options = case.table.table.get("options", {})
    selection = dict(case.table.selected)
    for key, current in case.table.selected.items():
        found, value = engine_value(declared, key, options.get(key, {}), current, requires.get(key), key in requires)
        if found:
            selection[key] = value
    if selection == case.table.selected:
        return case, None
    changed = ", ".join(f"{k}={yaml_text(v)}" for k, v in selection.items() if case.table.selected.get(k) != v)
    other = under(case, selection)
    if other is None:
        return case, f"the options it declares ({changed}) cannot be chosen with the case's others"
    key = (case.id, other.table.sha256)
    if key not in _VOUCHED:
        _VOUCHED[key] = replays(other)
    if not _VOUCHED[key]:
        return case, f"under the options it declares ({changed}) the case's script plays differently on the reference"
    return other, None
