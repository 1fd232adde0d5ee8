"""A case made ready for an engine that declares other values of the options the case does not need.

The case is run under the values the engine declares where its requirement allows them
(``requires:``), with its legal sets re-derived (``legal_sets_rederived:``) or the steps the
engine's table lacks dropped (``steps_dropped:``) where those values call for it, and it is
replayed on the in-process reference first: the replay vouches for the combination (see
:mod:`conformance.corpus_tools.requirements`, which derives those keys). A replay is played by
:class:`~conformance.runner.play.CasePlayer`, the same judge a run uses; :class:`~conformance.runner.session.Session`
calls :func:`adapted` before it plays a case, so this module sits between the two.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, Mapping

from reference_impl.errors import ActionError, SpecError
from reference_impl.options import yaml_text
from reference_impl.resolve import ResolvedTable
from reference_impl.rules import Rules

from conformance.cases import Case, resolved_table
from conformance.common.json_values import same_set
from conformance.reference_engine import ReferenceEngine
from conformance.runner.declared import engine_value, stored, stored_dropped, stored_rederived
from conformance.runner.engine_process import InProcessEngine
from conformance.runner.play import CasePlayer, same_value
from conformance.runner.seat_views import ReferenceReplay

REDERIVED_NOTE = "legal sets re-derived on the reference"   # how a result's detail says so (reports count it)

DROPPED_NOTE = "steps dropped on the reference"   # how a result's detail says so



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



class _Replayer(CasePlayer):
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
