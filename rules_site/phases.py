"""Which step of a table's hand a phase of the observable state belongs to, and the clause
that states that step: the link between what an engine reports (``phase: alone``) and the
rule on the variant's page (the step ``going-alone``, its clause ``going-alone``).

Phase names follow the interpreter's: a step's ``phase``, else its kind's default
(:mod:`reference_impl.steps`); an exchange also has ``discard``, a give step ``take-best``
and the play ``master-suit``.
"""

from __future__ import annotations

from typing import Any, Mapping

from reference_impl.steps import EFFECTS, NAME_PHASES

EXTRA_PHASES = {"exchange": ("discard",), "give": ("take-best", "discard"), "play": ("master-suit",)}


def step_phases(table: Mapping[str, Any]) -> list[tuple[dict[str, Any], tuple[str, ...]]]:
    """Each step of the hand with the phase names it shows, in order."""
    out = []
    rounds = 0
    for step in table.get("hand") or []:
        kind = step.get("kind")
        phase = step.get("phase")
        if kind == "name":
            default = NAME_PHASES.get(EFFECTS.get(step.get("effect"), -1), "name-trumps")
        elif kind == "make-trumps":
            rounds += 1
            default = f"bid-round-{rounds}"
        elif kind == "auction":
            default = "auction"
        elif kind == "offer":
            default = step.get("id")
        elif kind == "exchange":
            default = "take-offer"
        elif kind == "give":
            default = "partners-best"
        elif kind == "play":
            default = "play"
        else:
            default = None
        names = tuple(p for p in (phase or default,) if p) + EXTRA_PHASES.get(kind, ())
        out.append((step, names))
    return out


def step_of_phase(table: Mapping[str, Any], phase: str | None) -> dict[str, Any] | None:
    """The step that shows ``phase`` (its first such step)."""
    if not phase:
        return None
    for step, names in step_phases(table):
        if names and names[0] == phase:
            return step
    for step, names in step_phases(table):
        if phase in names:
            return step
    return None


def step_clause(table: Mapping[str, Any], step: Mapping[str, Any] | None) -> str | None:
    """The clause that states a step: its ``clause``, else the clause of its id."""
    if not step:
        return None
    if step.get("clause"):
        return str(step["clause"])
    ids = {c["id"] for c in table.get("clauses") or []}
    return str(step["id"]) if step.get("id") in ids else None


def phase_clause(table: Mapping[str, Any], phase: str | None) -> str | None:
    return step_clause(table, step_of_phase(table, phase))
