"""What an engine's ``hello`` declares, and what a case needs of it.

A case runs on an engine when the engine declares its variant, the commands it uses and, for
every option the case requires (``requires:``, see :mod:`conformance.corpus_tools.requirements`),
a value the requirement allows. Read from the case file and the hello alone: nothing here plays
a case (that is :mod:`conformance.runner.adapt`).
"""

from __future__ import annotations

from typing import Any, Mapping

import yaml

from reference_impl.options import yaml_text

from conformance.cases import Case
from conformance.common.shown import one_line

REDERIVED = "legal_sets_rederived"   # the case key: values under which only its legal sets differ
DROPPED = "steps_dropped"   # the case key: values under which it runs with the steps their table lacks dropped


def unsupported_reason(hello: dict[str, Any], case: Case) -> str | None:
    """Why the engine's declared capabilities exclude this case, or None."""
    needs = unsupported_needs(hello, case)
    return needs[0][1] if needs else None


def unsupported_needs(hello: dict[str, Any], case: Case) -> list[tuple[str, str]]:
    """Every declaration of ``hello`` this case lacks, as (what to declare, why): what to
    declare is ``command perft``, ``variant six-hand`` or an option key such as
    ``stick-the-dealer`` (a run sums them up: "declare ... to run N more")."""
    variants = hello.get("variants")
    commands = hello.get("commands") or []
    needs = []
    if any("deck" in hand["deal"] for hand in case.hands) and "deal-deck" not in commands:
        needs.append(("command deal-deck", "deals given as a pack order (command deal-deck) are not declared"))
    if any(hand.get("perft") for hand in case.hands) and "perft" not in commands:
        needs.append(("command perft", "perft counts (command perft) are not declared"))
    declines = hello.get("declines") if isinstance(hello.get("declines"), dict) else {}
    if "first_dealer" in case.setup and "first-dealer" in declines:
        needs.append(("first-dealer (not declined)", f"a first dealer chosen from cards (new_game with first_dealer) "
                                                     f"is declined in hello: {one_line(str(declines['first-dealer']))}"))
    if variants == "*":
        return needs
    if not isinstance(variants, dict) or case.variant not in variants:
        return needs + [(f"variant {case.variant}", f"variant {case.variant} is not declared")]
    declared = (variants[case.variant] or {}).get("options", {})
    if declared == "*":
        return needs
    from conformance.runner.declared import option_needs      # it replays cases on this module's Session
    return needs + option_needs(declared, case)


def declares_value(declared: Any, value: Any) -> bool:
    """Whether an option's declaration in ``hello`` covers ``value``: a list of values, in
    which an item may be a range ``{"minimum": a, "maximum": b}`` of whole numbers (a range
    may also stand alone), or ``"*"`` for every value."""
    if declared == "*":
        return True
    for item in declared if isinstance(declared, list) else [declared]:
        if isinstance(item, dict):
            if isinstance(value, int) and not isinstance(value, bool) \
                    and item.get("minimum", value) <= value <= item.get("maximum", value):
                return True
        elif item == value and type(item) is type(value):
            return True
    return False


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def allows(requirement: Any, value: Any) -> bool:
    """Whether a stored requirement (one value, or a list of values and ranges) allows ``value``."""
    return declares_value(requirement if isinstance(requirement, list) else [requirement], value)


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


def flow(value: Any) -> str:
    """A value as one line of YAML flow style (how ``requires:`` is written)."""
    return yaml.safe_dump(value, default_flow_style=True, width=1 << 16, sort_keys=False).strip().removesuffix("...").strip()


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
