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

Some values change nothing but the legal sets: under "the upcard never buried" the dealer
who picks up is offered one discard fewer, and a script whose dealer buries another card
plays the same moves to the same observations, scores and winners. Such values are stored
beside the requirement (``legal_sets_rederived:``, found by replaying the case with its legal
sets left out, checked by lint like ``requires:``). An engine declaring one runs the case with
the legal sets it states re-derived by the reference under the engine's options: every step
is still checked, against the reference's sets, and the result says which expectations were
re-derived and why.

Some values take a step out of the table: with no lone hands the maker is never asked to go
alone, and a script that has him decline plays the same game without that step. Such values
are stored too (``steps_dropped:``, checked by lint like ``requires:``): a case qualifies when,
replayed on the reference under the value, the scripted steps acting at a phase of its own
table that the other table does not have (where the other table's game is elsewhere) are
dropped, every other step still plays, and every other expectation the case states holds:
the end of every hand and of the case (points, scores, winners) unchanged, only the legal
sets and the fields of the one observation just before each dropped run re-derived (that
observation now meets the dropped step's stated one, which is kept). A maker who really goes
alone never qualifies: his partner's scripted plays or the points break the replay. An engine
declaring such a value runs the case so derived, replayed whole on the reference first, and
the result names the dropped steps and the value. The same derivation vouches for the
combination of an engine's values where the one-at-a-time replays could not: a value that
cannot be chosen with the case's own options (no lone hands beside the Canadian loner rule)
is never replayed, so never required, and where the engine's values together take out a step
the script takes, the case runs with that step dropped, or not at all.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Iterable, Mapping


from reference_impl import cache
from reference_impl.errors import ActionError, SpecError
from reference_impl.yaml_source import load_file
from reference_impl.options import choice_for, meets, values_of

from conformance import __version__
from conformance.cases import Case
from conformance.common.forked_map import forked_map, usable_cores
from conformance.runner.adapt import drop_absent_steps, rederive_legal_sets, replays, under
from conformance.runner.declared import (DROPPED, REDERIVED, _is_number, allows, flow, stored, stored_dropped,
                                         stored_rederived)

CACHE_KIND = "case-requirements"
METHOD = 2               # bump when the computation changes: cached answers are then recomputed
NEAR_SPAN = 8            # a range this narrow is tried value by value
REPLAY_DEADLINE = 1800.0


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


def compute(case: Case) -> dict[str, dict[str, Any]]:
    """What ``case`` requires: ``{"requires": ..., "legal_sets_rederived": ..., "steps_dropped": ...}``.
    The first maps each option its script reaches to the values under which it plays the same;
    the second, for some of those options, the other values under which it plays the same moves
    to the same observations and results, only the legal sets it states differing; the third,
    the other values under which it plays the same game once the steps their table lacks are
    dropped (:func:`steps_dropped_values`)."""
    with _alternatives_not_cached():
        found = _compute(case)
        return {**found, DROPPED: steps_dropped_values(case, found["requires"], found[REDERIVED])}


def _compute(case: Case) -> dict[str, dict[str, Any]]:
    required: dict[str, Any] = {}
    rederived: dict[str, Any] = {}
    selected = case.table.selected
    if any(hand.get("perft") for hand in case.hands):
        # A perft count reaches every line of its hand: every option is taken as reached
        # (replaying the counts under each value would cost minutes a case).
        every = {key: selected.get(key, option.get("default")) for key, option in case.table.table.get("options", {}).items()}
        return {"requires": every, REDERIVED: {}}
    strippable = states_legal_sets(case) and not case.data.get("expected_failure")
    for key, option in case.table.table.get("options", {}).items():
        current = selected.get(key, option.get("default"))
        tried: list[tuple[Any, bool]] = [(current, True)]
        legal_only: list[Any] = []
        for value in candidates(case, key):
            if value == current and type(value) is type(current):
                continue
            if not _allowed(case, key, value):
                continue
            other = under(case, {**selected, key: value})
            if other is None:
                continue
            same = replays(other)
            tried.append((value, same))
            if not same and strippable and replays(without_legal_sets(other)):
                legal_only.append(value)
        if not all(agrees for _, agrees in tried):
            required[key] = as_requirement(option, tried, current)
            if legal_only:
                marked = [(value, any(value == v and type(value) is type(v) for v in legal_only)) for value, _ in tried]
                rederived[key] = as_requirement(option, marked, legal_only[0])
    return {"requires": required, REDERIVED: rederived}


# -- the steps another table lacks: dropped from the script, the game it plays compared ---------------
def steps_dropped_values(case: Case, required: Mapping[str, Any], rederived: Mapping[str, Any]) -> dict[str, Any]:
    """For each option the case requires, its other values (neither allowed by the requirement
    nor changing only legal sets) under which the case plays the same game with the steps
    their table lacks dropped (:func:`plays_with_steps_dropped`), in the shape of ``requires``."""
    if case.data.get("expected_failure") or any(hand.get("perft") for hand in case.hands):
        return {}
    found: dict[str, Any] = {}
    selected = case.table.selected
    for key, requirement in required.items():
        option = case.table.table["options"][key]
        tried: list[tuple[Any, bool]] = []
        for value in candidates(case, key):
            if allows(requirement, value) or (key in rederived and allows(rederived[key], value)):
                continue
            if not _allowed(case, key, value):
                continue
            other = under(case, {**selected, key: value})
            if other is not None:
                tried.append((value, plays_with_steps_dropped(case, other)))
        agreeing = [value for value, agrees in tried if agrees]
        if agreeing:
            found[key] = as_requirement(option, tried, agreeing[0])
    return found


def plays_with_steps_dropped(case: Case, other: Case) -> bool:
    """Whether ``other`` (the case under another table) plays the case's game once the steps
    its table lacks are dropped: its legal sets re-derived, every other expectation kept."""
    try:
        made = drop_absent_steps(case, other)
        if made is None:
            return False
        derived, _ = rederive_legal_sets(made[0])
    except (ActionError, SpecError):
        return False
    return replays(derived)


# -- the legal sets a case states: left out (to find the values that change only them), re-derived --
def _legal_containers(case_parts: tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]) -> Iterable[dict[str, Any]]:
    """Every mapping of a case that may state ``legal``: the setup's and every hand's, step's
    and view's expectations, the steps themselves, the case's end."""
    setup, hands, expect = case_parts
    yield setup.get("expect") or {}
    for hand in hands:
        yield hand.get("after_deal") or {}
        for step in hand["steps"]:
            yield step
            yield step.get("expect") or {}
            yield (step.get("view") or {}).get("expect") or {}
        yield hand.get("expect") or {}
    yield expect


def states_legal_sets(case: Case) -> bool:
    """Whether the case states any legal set."""
    return any("legal" in part for part in _legal_containers((case.setup, case.hands, case.expect)))


def without_legal_sets(case: Case) -> Case:
    """``case`` with every legal set it states left out (its moves, observations and results kept)."""
    setup, hands, expect = copy.deepcopy((case.setup, case.hands, case.expect))
    for part in _legal_containers((setup, hands, expect)):
        part.pop("legal", None)
    return dataclasses.replace(case, setup=setup, hands=hands, expect=expect)


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


# -- the corpus's requirements: computed (cached), stored, compared ----------------------------------
def _cache_key(case: Case) -> str:
    data = {k: v for k, v in case.data.items() if k not in ("requires", DROPPED)}
    text = json.dumps([METHOD, __version__, case.table.sha256, data], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


_EARLIER: dict[str, dict[str, Any]] = {}


def _compute_job(case: Case) -> dict[str, Any]:
    earlier = _EARLIER.get(case.id)
    if earlier is None:
        return compute(case)
    with _alternatives_not_cached():
        return {**earlier, DROPPED: steps_dropped_values(case, earlier["requires"], earlier[REDERIVED])}


def requirements_of(cases: list[Case], jobs: int | None = None) -> dict[str, dict[str, dict[str, Any]]]:
    """Every case's requirements by case id (as :func:`compute` gives them): from the on-disk cache where it knows the case
    (its data and table unchanged), else replayed, on up to ``jobs`` cores."""
    found: dict[str, dict[str, Any]] = {}
    todo: list[Case] = []
    for case in cases:
        cached = cache.read(CACHE_KIND, _cache_key(case))
        if isinstance(cached, dict) and set(cached) == {"requires", REDERIVED, DROPPED}:
            found[case.id] = cached
        else:
            todo.append(case)
            if isinstance(cached, dict) and set(cached) == {"requires", REDERIVED}:
                _EARLIER[case.id] = cached        # worked out before steps_dropped: only that is replayed
    cores = min(jobs or usable_cores(), usable_cores())
    done = forked_map(_compute_job, todo, [max(1, case.steps) for case in todo], cores, REPLAY_DEADLINE) \
        if cores > 1 and len(todo) > 8 else {}
    for index, case in enumerate(todo):
        answer = done[index] if index in done else _compute_job(case)
        found[case.id] = answer
        cache.write(CACHE_KIND, _cache_key(case), answer)
    return found


def _same_requirement(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def stale(case: Case, computed: Mapping[str, Mapping[str, Any]]) -> str | None:
    """How a case's stored requirements (``requires:`` and ``legal_sets_rederived:``) differ
    from the computed ones, or None."""
    given = stored(case)
    if given is None:
        return "states no requires: (euchre-spec corpus requirements --write adds it)"
    problems = []
    wanted = computed["requires"]
    for key in sorted(set(given) | set(wanted)):
        if key not in wanted:
            problems.append(f"requires {key} but its script plays the same under every value")
        elif key not in given:
            problems.append(f"does not state that it requires {key}={flow(wanted[key])}")
        elif not _same_requirement(given[key], wanted[key]):
            problems.append(f"requires {key}={flow(given[key])}, but the values its script allows are {flow(wanted[key])}")
    problems += _stated_values_problems(REDERIVED, stored_rederived(case), computed[REDERIVED],
                                        "no other value of {key} changes only its legal sets",
                                        "only its legal sets differ", "the values that change only its legal sets")
    problems += _stated_values_problems(DROPPED, stored_dropped(case), computed.get(DROPPED, {}),
                                        "under no other value of {key} does it play the same game with the steps "
                                        "that value's table lacks dropped",
                                        "it plays the same game with the steps that table lacks dropped",
                                        "the values under which it plays the same game with steps dropped")
    return ("stale requires: " + "; ".join(problems) + " (euchre-spec corpus requirements --write)") if problems else None


def _stated_values_problems(name: str, given: Mapping[str, Any], wanted: Mapping[str, Any], none: str, holds: str,
                            values: str) -> list[str]:
    """How the values a case states under ``name`` (``legal_sets_rederived``, ``steps_dropped``)
    differ from those computed: ``none`` says that no other value qualifies (``{key}`` is the
    option), ``holds`` what holds under a value, ``values`` what the qualifying values are."""
    problems = []
    for key in sorted(set(given) | set(wanted)):
        if key not in wanted:
            problems.append(f"states {name} {key}={flow(given[key])}, but " + none.format(key=key))
        elif key not in given:
            problems.append(f"does not state that under {key}={flow(wanted[key])} {holds} ({name})")
        elif not _same_requirement(given[key], wanted[key]):
            problems.append(f"states {name} {key}={flow(given[key])}, but {values} are {flow(wanted[key])}")
    return problems


def write_requirements(cases: Iterable[Case], computed: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> list[str]:
    """Write each case's ``requires:`` line (and its ``legal_sets_rederived:`` line, where it
    has one) into its file: after its ``id:`` line, or in place of the lines it has; returns
    the files changed. Comments and layout stay as they are."""
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
        edits: list[tuple[int, str, bool]] = []        # (line index, new text, whether it replaces that line)
        for case in todo:
            path = where.get(case.id)
            if path is None:
                continue
            id_line = located.lines.get(path + ("id",))
            if id_line is None:
                continue
            indent = " " * lines[id_line - 1].index("id:")
            answer = computed[case.id]
            text = indent + f"requires: {flow(dict(answer['requires']))}\n"
            for key in (REDERIVED, DROPPED):
                if answer.get(key):
                    text += indent + f"{key}: {flow(dict(answer[key]))}\n"
            old = [located.lines.get(path + (key,)) for key in ("requires", REDERIVED, DROPPED)]
            old = [line for line in old if line is not None]
            if old:
                edits.append((old[0] - 1, text, True))
                edits += [(line - 1, "", True) for line in old[1:]]
            else:
                edits.append((id_line, text, False))
        for index, text, replace in sorted(edits, reverse=True):
            if replace:
                lines[index] = text
            else:
                lines.insert(index, text)
        Path(file).write_text("".join(lines), encoding="utf-8")
        changed.append(file)
    return changed


# -- running a case on an engine that declares some options ------------------------------------------


