"""Replaying a script on the engine and the reference, up to their first disagreement.

Seats' views asked for after a step are asked for again. The shrinker rewrites scripts blindly (another move here, another card there), so a
replay may *repair* them: a move the rules no longer allow is replaced by a legal one of
the same kind (another card for a card), a probe the rules now accept becomes a move, and
once the scripted moves of the last hand run out the hand may be *completed* with the
first legal move at each step. What was actually played comes back as a script of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .clauses import ClauseIndex
from conformance.runner.compare import action_kind, signature
from .divergence import Divergence
from .lockstep import Lockstep
from .script import Hand, Position, Script, Step, truncated


@dataclass
class Replay:
    """What a replay played, and where (if anywhere) the engine first disagreed."""

    script: Script
    divergence: Divergence | None = None
    legal: dict[tuple[int, int], list[str]] = field(default_factory=dict)    # (hand, step) -> legal set before it
    hand_starts: list[tuple[int, list[int]]] = field(default_factory=list)   # (dealer, scores) before each deal


def replay(lockstep: Lockstep, script: Script, clauses: ClauseIndex, repair: bool = False,
           complete: bool = False) -> Replay | None:
    """Play ``script``; ``None`` when it cannot be played (without repair: a move the rules
    refuse; with repair: a deal or a game that the rules no longer reach)."""
    lockstep.begin()
    played = Script(dict(script.setup))
    result = Replay(played)

    def diverged(position: Position, phase: str, expected: dict[str, Any], actual: dict[str, Any], differences) -> Replay:
        result.divergence = Divergence(
            script=truncated(played, position), position=position, differences=differences,
            signature=signature(phase, position.kind, differences), phase=phase, expected=expected, actual=actual,
            clause=clauses.cite(phase, [d.field for d in differences], expected.get("state"),
                                actual.get("state") if isinstance(actual, dict) else None))
        return result

    expected, actual, differences = lockstep.send({"type": "new_game", **script.setup})
    if differences:
        return diverged(Position("new_game"), "new_game", expected, actual, differences)
    if not expected.get("ok"):
        return None
    state = expected["state"]
    for h, hand in enumerate(script.hands):
        if state["phase"] != "deal":
            return None if not repair else result
        result.hand_starts.append((state["dealer"], list(state["scores"])))
        out = Hand(hand.deal)
        played.hands.append(out)
        expected, actual, differences = lockstep.send({"type": "deal", **hand.deal})
        if differences:
            return diverged(Position("deal", h), "deal", expected, actual, differences)
        if not expected.get("ok"):
            return None
        state = expected["state"]
        last = h == len(script.hands) - 1
        pending = list(hand.steps)
        while pending or (complete and last and state["to_act"] is not None):
            step = pending.pop(0) if pending else None
            if state["to_act"] is None:
                if repair:
                    break
                return None
            phase, legal = state["phase"], state["legal"]
            if step is not None and step.probe:
                out.steps.append(step)
                index = len(out.steps) - 1
                expected, actual, differences = lockstep.send({"type": "act", "seat": step.seat, "action": step.action})
                if differences:
                    return diverged(Position("probe", h, index), phase, expected, actual, differences)
                if expected.get("ok"):
                    out.steps[index] = Step(step.seat, step.action)
                    result.legal[h, index] = legal
                    state = expected["state"]
                    continue
                out.steps[index] = Step(step.seat, step.action, probe=True, reject=expected["error"]["category"])
                expected, actual, differences = lockstep.send({"type": "state"})
                if differences:
                    return diverged(Position("state", h, index), phase, expected, actual, differences)
                continue
            seat = state["to_act"]
            if step is not None and step.seat == seat and step.action in legal:
                action = step.action
            elif step is None or repair:
                action = _substitute(step.action if step is not None else None, legal)
            else:
                return None
            out.steps.append(Step(seat, action))
            index = len(out.steps) - 1
            result.legal[h, index] = legal
            expected, actual, differences = lockstep.send({"type": "act", "seat": seat, "action": action})
            if differences:
                return diverged(Position("act", h, index), phase, expected, actual, differences)
            state = expected["state"]
            for viewer in step.views if step is not None else ():
                out.steps[index] = replace(out.steps[index], views=out.steps[index].views + (viewer,))
                expected, actual, differences = lockstep.send({"type": "state", "seat": viewer})
                if differences:
                    return diverged(Position("view", h, index), state["phase"], expected, actual, differences)
    return result


def _substitute(wanted: str | None, legal: list[str]) -> str:
    """A legal stand-in for a move the rules no longer allow: one of the same kind if any."""
    if wanted is not None:
        kind = action_kind(wanted)
        for token in legal:
            if action_kind(token) == kind:
                return token
    return legal[0]
