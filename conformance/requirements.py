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

import yaml

from reference_impl import cache
from reference_impl.errors import ActionError, SpecError
from reference_impl.yaml_source import load_file
from reference_impl.resolve import ResolvedTable
from reference_impl.rules import Rules
from reference_impl.options import choice_for, meets, values_of, yaml_text

from . import __version__
from .cases import Case, resolved_table
from .engine_process import InProcessEngine
from conformance.common.forked_map import forked_map, usable_cores
from .reference_engine import ReferenceEngine
from conformance.common.json_values import same_set
from .runner import Session, declares_value, same_value
from .seat_views import ReferenceReplay

CACHE_KIND = "case-requirements"
REDERIVED = "legal_sets_rederived"   # the case key: values under which only its legal sets differ
REDERIVED_NOTE = "legal sets re-derived on the reference"   # how a result's detail says so (reports count it)
DROPPED = "steps_dropped"   # the case key: values under which it runs with the steps their table lacks dropped
DROPPED_NOTE = "steps dropped on the reference"   # how a result's detail says so
METHOD = 2               # bump when the computation changes: cached answers are then recomputed
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


def absent_phases(case: Case, other: Case) -> frozenset[str]:
    """The phases of the steps of ``case``'s table (its decisions) that ``other``'s table has no step for."""
    mine = ReferenceReplay(case).rules.steps
    theirs = {step.phase for step in ReferenceReplay(other).rules.steps}
    return frozenset(step.phase for step in mine if step.phase and step.phase not in theirs)


@dataclasses.dataclass
class _Anchor:
    """The last observation the script states before a run of dropped steps: a hand's
    ``after_deal``, or the ``expect`` (and ``view``) of the step kept before them."""

    holder: dict[str, Any]       # the hand (its after_deal) or the step (its expect and view)
    key: str                     # "after_deal" or "expect"
    where: str                   # "hand 1 after the deal", "hand 1 step 3" (numbered as in the case file)


def drop_absent_steps(case: Case, other: Case) -> tuple[Case, list[str], list[str]] | None:
    """``other`` with every scripted step dropped that acts at a phase of ``case``'s table which
    ``other``'s table lacks (while ``other``'s game is not in that phase): returns the derived
    case, the steps dropped ("hand 1 step 5 (seat 2 pass at phase alone)", numbered as in the
    case file) and the observations re-derived; None where nothing is dropped. The observation
    stated just before a dropped run takes the stated fields of the run's last step (the state
    both games reach there, kept and so checked); its other fields that the reference under
    ``other``'s table shows differently are re-derived. Raises ActionError where a kept step
    does not play under ``other``'s table."""
    gone = absent_phases(case, other)
    if not gone:
        return None
    setup, hands, expect = copy.deepcopy((other.setup, other.hands, other.expect))
    mine, theirs = ReferenceReplay(case), ReferenceReplay(other)
    dropped: list[str] = []
    rederived: list[str] = []
    for h, hand in enumerate(hands, 1):
        if "deal_reject" in hand:
            continue
        mine.deal(hand["deal"])
        theirs.deal(hand["deal"])
        anchor = _Anchor(hand, "after_deal", f"hand {h} after the deal")
        run: list[dict[str, Any]] = []
        kept: list[dict[str, Any]] = []
        for s, step in enumerate(hand["steps"], 1):
            phase = mine.state.phase
            if phase in gone and theirs.state.phase != phase:
                shown = "refused" if "reject" in step else f"at phase {phase}"
                dropped.append(f"hand {h} step {s} (seat {step['seat']} {step['action']} {shown})")
                if "reject" not in step:
                    mine.act(step["seat"], step["action"])
                    run.append(step)
                continue
            if run:
                rederived += _meet(anchor, run[-1], theirs)
                run = []
            if "reject" not in step:
                mine.act(step["seat"], step["action"])
                theirs.act(step["seat"], step["action"])
                anchor = _Anchor(step, "expect", f"hand {h} step {s}")
            kept.append(step)
        if run:
            rederived += _meet(anchor, run[-1], theirs)
        hand["steps"] = kept
    if not dropped:
        return None
    return dataclasses.replace(other, setup=setup, hands=hands, expect=expect), dropped, rederived


def _meet(anchor: _Anchor, last: dict[str, Any], theirs: ReferenceReplay) -> list[str]:
    """Make the observation at ``anchor`` the one after ``last`` (the last dropped step):
    ``last``'s stated fields are kept as stated; the anchor's other fields are re-derived
    where the reference shows them differently. Returns where something was re-derived."""
    seen = theirs.state.observation(None)
    stated = dict(anchor.holder.get(anchor.key) or {})
    changed = False
    for field, value in list(stated.items()):
        if field in seen and field != "legal" and field not in (last.get("expect") or {}) and not same_value(field, value, seen[field]):
            stated[field] = seen[field]
            changed = True
    stated.update(last.get("expect") or {})
    if stated:
        anchor.holder[anchor.key] = stated
    where = [anchor.where] if changed else []
    if anchor.key == "expect":
        view = anchor.holder.get("view")
        if view is None and last.get("view") is not None:
            anchor.holder["view"] = copy.deepcopy(last["view"])
        elif view is not None:
            shown = theirs.state.observation(view.get("seat"))
            fields = view.get("expect") or {}
            differ = [f for f in fields if f in shown and f != "legal" and not same_value(f, fields[f], shown[f])]
            for field in differ:
                fields[field] = shown[field]
            if differ:
                where.append(f"{anchor.where} (seat {view.get('seat')}'s view)")
    return where


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


def rederive_legal_sets(case: Case) -> tuple[Case, list[str]]:
    """``case`` with each legal set it states replaced by the reference's under the case's own
    table (played along its script), and where one changed ("hand 1 step 6", ...). Raises
    ActionError where the reference refuses a scripted move (the script does not play)."""
    setup, hands, expect = copy.deepcopy((case.setup, case.hands, case.expect))
    replay = ReferenceReplay(case)
    changed: list[str] = []

    def put(part: dict[str, Any] | None, seat: int | None, where: str) -> None:
        if part and "legal" in part:
            seen = replay.state.observation(seat)["legal"]
            if not same_set(part["legal"], seen):
                part["legal"] = list(seen)
                changed.append(where)

    put(setup.get("expect"), None, "new game")
    for h, hand in enumerate(hands, 1):
        if "deal_reject" in hand:
            continue
        replay.deal(hand["deal"])
        put(hand.get("after_deal"), None, f"hand {h} after the deal")
        for s, step in enumerate(hand["steps"], 1):
            if "reject" in step:
                continue
            put(step, None, f"hand {h} step {s}")
            replay.act(step["seat"], step["action"])
            put(step.get("expect"), None, f"hand {h} step {s} (after)")
            view = step.get("view") or {}
            put(view.get("expect"), view.get("seat"), f"hand {h} step {s} (seat {view.get('seat')}'s view)")
        put(hand.get("expect"), None, f"hand {h} end")
    put(expect, None, "end of case")
    return dataclasses.replace(case, setup=setup, hands=hands, expect=expect), changed


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


def stored(case: Case) -> dict[str, Any] | None:
    """The requirements a case file states (``requires:``), or None when it states none."""
    value = case.data.get("requires") if isinstance(case.data, dict) else None
    return dict(value) if isinstance(value, dict) else None


def stored_rederived(case: Case) -> dict[str, Any]:
    """The values a case file states its legal sets may be re-derived under (``legal_sets_rederived:``)."""
    value = case.data.get(REDERIVED) if isinstance(case.data, dict) else None
    return dict(value) if isinstance(value, dict) else {}


def stored_dropped(case: Case) -> dict[str, Any]:
    """The values a case file states it runs under with the steps their table lacks dropped (``steps_dropped:``)."""
    value = case.data.get(DROPPED) if isinstance(case.data, dict) else None
    return dict(value) if isinstance(value, dict) else {}


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


def flow(value: Any) -> str:
    """A value as one line of YAML flow style (how ``requires:`` is written)."""
    return yaml.safe_dump(value, default_flow_style=True, width=1 << 16, sort_keys=False).strip().removesuffix("...").strip()


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
    that the engine plays at no value the requirement allows, nor at a value under which the
    case's legal sets are re-derived (``legal_sets_rederived:``) or its steps dropped
    (``steps_dropped:``)."""
    requires = stored(case)
    rederived = stored_rederived(case) if requires is not None else {}
    dropped = stored_dropped(case) if requires is not None else {}
    needs = []
    options = case.table.table.get("options", {})
    for key, value in case.table.selected.items():
        if requires is not None and key not in requires:
            continue
        requirement = requires[key] if requires is not None else value
        found, _ = engine_value(declared, key, options.get(key, {}), value, requirement)
        if not found and key in rederived:
            found, _ = engine_value(declared, key, options.get(key, {}), value, rederived[key])
        if not found and key in dropped:
            found, _ = engine_value(declared, key, options.get(key, {}), value, dropped[key])
        if not found:
            shown = flow(requirement) if isinstance(requirement, list) else yaml_text(requirement)
            if key in rederived:
                shown += f" (or {flow(rederived[key])}, its legal sets re-derived)"
            if key in dropped:
                shown += f" (or {flow(dropped[key])}, the steps that table lacks dropped)"
            unlisted = "" if key in declared else " (an option not listed is supported at its default only)"
            needs.append((key, f"option {key}={shown} is not declared{unlisted}"))
    return needs


@dataclasses.dataclass(frozen=True)
class _Adapted:
    """A case made ready for an engine's options, once per case and table."""

    case: Case | None            # the case to play, or None where it cannot run
    why: str | None = None       # why it cannot
    note: str | None = None      # which legal sets were re-derived, and why


_ADAPTED: dict[tuple[str, str], _Adapted] = {}
_NOTES: dict[tuple[str, str], str] = {}


def adapted(hello: Mapping[str, Any], case: Case) -> tuple[Case, str | None]:
    """The case as the engine is sent it: under the values the engine declares for the
    options the case does not require (or that its requirement allows, or under which its
    legal sets are re-derived), replayed on the reference first. Returns (the case to play,
    None), or (case, why it cannot run)."""
    variants = hello.get("variants")
    if not isinstance(variants, dict) or stored(case) is None:
        return case, None
    declared = (variants.get(case.variant) or {}).get("options", {})
    if declared == "*" or not isinstance(declared, dict):
        return case, None
    requires = stored(case) or {}
    rederived = stored_rederived(case)
    dropped = stored_dropped(case)
    options = case.table.table.get("options", {})
    selection = dict(case.table.selected)
    derived_under: list[str] = []
    dropped_under: list[str] = []
    for key, current in case.table.selected.items():
        found, value = engine_value(declared, key, options.get(key, {}), current, requires.get(key), key in requires)
        if not found and key in rederived:
            found, value = engine_value(declared, key, options.get(key, {}), current, rederived[key])
            if found:
                derived_under.append(f"{key}={yaml_text(value)}")
        if not found and key in dropped:
            found, value = engine_value(declared, key, options.get(key, {}), current, dropped[key])
            if found:
                dropped_under.append(f"{key}={yaml_text(value)}")
        if found:
            selection[key] = value
    if selection == case.table.selected:
        return case, None
    changed = ", ".join(f"{k}={yaml_text(v)}" for k, v in selection.items() if case.table.selected.get(k) != v)
    other = under(case, selection)
    if other is None:
        return case, f"the options it declares ({changed}) cannot be chosen with the case's others"
    key = (case.id, other.table.sha256)
    if key not in _ADAPTED:
        _ADAPTED[key] = _adapt_dropping(case, other, dropped_under, derived_under, changed) if dropped_under \
            else _adapt(other, derived_under, changed, case)
    made = _ADAPTED[key]
    if made.case is None:
        return case, made.why
    if made.note:
        _NOTES[(made.case.id, made.case.table.sha256)] = made.note
    return made.case, None


def _adapt(other: Case, derived_under: list[str], changed: str, case: Case | None = None) -> _Adapted:
    """Vouch for a case under the engine's values: replayed on the reference as it stands, or,
    where some values change only its legal sets, with those sets re-derived and replayed."""
    differently = _Adapted(None, f"under the options it declares ({changed}) the case's script plays differently on the reference")
    if not derived_under:
        if replays(other):
            return _Adapted(other)
        # The requirements were found one option at a time: an option whose other values
        # cannot be chosen with the case's own (no lone hands with the Canadian loner rule)
        # was never replayed under them. Where the engine's values together take out a step
        # the script takes, the case may still play the same game with that step dropped.
        return _adapt_dropping(case, other, [changed], [], changed) if case is not None else differently
    try:
        derived, where = rederive_legal_sets(other)
    except (ActionError, SpecError):
        return differently
    if not replays(derived):
        return differently
    if not where:
        return _Adapted(derived)
    note = (f"{REDERIVED_NOTE} at {_listed(where)}: under {', '.join(derived_under)} the case's moves, "
            f"observations and results stay the same and only those sets differ")
    return _Adapted(derived, note=note)


def _adapt_dropping(case: Case, other: Case, dropped_under: list[str], derived_under: list[str], changed: str) -> _Adapted:
    """Vouch for a case under values whose table lacks steps its script takes: those steps
    dropped, the observation before each dropped run and the legal sets re-derived by the
    reference under the engine's options, the derived case replayed whole on the reference."""
    differently = _Adapted(None, f"under the options it declares ({changed}) the case's script, with the steps "
                                 f"that table lacks dropped, plays differently on the reference")
    try:
        made = drop_absent_steps(case, other)
        if made is None:
            return _Adapted(None, f"under the options it declares ({changed}) the case's script plays differently on "
                                  f"the reference")
        derived, legal_where = rederive_legal_sets(made[0])
    except (ActionError, SpecError):
        return differently
    if not replays(derived):
        return differently
    _, dropped, observed = made
    note = (f"{DROPPED_NOTE}: {_listed(dropped)} (numbered as in the case file) are not played: under "
            f"{', '.join(dropped_under)} the table has no such step, and the case plays the same game without them")
    if observed:
        note += f"; observations re-derived at {_listed(observed)}"
    if legal_where:
        under_too = f" (under {', '.join(derived_under)} only those sets differ)" if derived_under else ""
        note += f"; {REDERIVED_NOTE} at {_listed(legal_where)} (numbered as played){under_too}"
    return _Adapted(derived, note=note)


def _listed(where: list[str]) -> str:
    return ", ".join(where[:6]) + (f" and {len(where) - 6} more" if len(where) > 6 else "")


def rederived_note(played: Case) -> str | None:
    """Which legal sets of a case adapted by :func:`adapted` were re-derived, and why (or None)."""
    if played.table is None:
        return None
    return _NOTES.get((played.id, played.table.sha256))
