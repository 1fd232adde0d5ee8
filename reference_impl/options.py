"""Options: the values a table offers, what each value changes, and how values combine.

An option has named ``choices`` (each with a patch: ``sets``, ``insert``, ``move``,
``remove``, ``clauses``, ``requires``), or a whole-number ``range`` whose ``sets`` use
``$value``, or both (named values, and the range for any other number). Applying a
selection: every option's patch is applied in the table's option order, all removals last
(so an option may move what another removes); a choice whose ``requires`` other options do
not meet, and two options setting the same path, are refused, naming both.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from . import patches
from .patches import Origin, PatchError, split


@dataclass(frozen=True)
class Choice:
    """The value picked for one option, and the part of the option that gives its effect."""

    key: str
    value: Any
    patch: dict[str, Any]
    where: tuple[Any, ...]          # the JSON path of that patch within the option


def values_of(option: Mapping[str, Any]) -> list[Any]:
    """The named values of an option, then its range's examples (for listing and testing)."""
    named = [choice["value"] for choice in option.get("choices", [])]
    extra = [v for v in option.get("range", {}).get("examples", []) if v not in named]
    return named + extra


def describe_values(option: Mapping[str, Any]) -> str:
    named = [yaml_text(c["value"]) for c in option.get("choices", [])]
    if "range" in option:
        named.append(f"any whole number from {option['range']['minimum']} to {option['range']['maximum']}")
    return ", ".join(named)


def yaml_text(value: Any) -> str:
    """A value as YAML writes it: ``true``, ``null``, ``7``, ``joker``."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return str(value)


def coerce(option: Mapping[str, Any], raw: Any) -> Any:
    """Match ``raw`` (possibly text from a command line) to one of the option's values."""
    named = [choice["value"] for choice in option.get("choices", [])]
    for value in named:
        if raw == value and type(raw) is type(value):
            return value
    text = str(raw).strip().lower() if not isinstance(raw, bool) else yaml_text(raw)
    for value in named:
        if yaml_text(value).lower() == text:
            return value
    span = option.get("range")
    if span is not None:
        number = raw if isinstance(raw, int) and not isinstance(raw, bool) else None
        if number is None and isinstance(raw, str) and text.lstrip("-").isdigit():
            number = int(text)
        if number is not None and span["minimum"] <= number <= span["maximum"]:
            return number
    raise ValueError(f"{yaml_text(raw)!r} is not one of its values ({describe_values(option)})")


def choice_for(key: str, option: Mapping[str, Any], value: Any) -> Choice:
    for index, choice in enumerate(option.get("choices", [])):
        if choice["value"] == value and type(choice["value"]) is type(value):
            return Choice(key, value, choice, ("choices", index))
    span = option["range"]
    patch = {"sets": {path: patches.substitute(v, value) for path, v in span["sets"].items()}}
    if span.get("clauses"):
        patch["clauses"] = span["clauses"]
    return Choice(key, value, patch, ("range",))


def restrict(option: dict[str, Any], allowed: list[Any]) -> list[Any]:
    """Keep only the ``allowed`` values (a preset's ``option-choices``); a range becomes the
    named values picked from it. Returns the values that are not the option's."""
    kept, missing = [], []
    for value in allowed:
        try:
            value = coerce(option, value)
        except ValueError:
            missing.append(value)
            continue
        choice = choice_for("", option, value).patch
        kept.append({"value": value, "summary": _summary(option, value), **{k: v for k, v in choice.items() if k != "value"}})
    option["choices"] = kept
    option.pop("range", None)
    mapping = option.get("trickster")
    if mapping and not all(any(c["value"] == v and type(c["value"]) is type(v) for c in kept)
                           for v in (mapping["value-on"], mapping["value-off"])):
        del option["trickster"]     # the restricted option can no longer stand for both settings
    if option["default"] not in [c["value"] for c in kept] and kept:
        option["default"] = kept[0]["value"]
    return missing


def _summary(option: Mapping[str, Any], value: Any) -> str:
    for choice in option.get("choices", []):
        if choice["value"] == value:
            return choice["summary"]
    return f"{option['title']}: {value}."


@dataclass
class Applied:
    """What applying a selection did: the touched paths, for blaming problems on options."""

    ledger: patches.Ledger


def _origin(choice: Choice, where: tuple[Any, ...], locate) -> Origin:
    path = ("options", choice.key) + choice.where + where
    file, line = locate(choice.key, path)
    return Origin(f"option {choice.key}={yaml_text(choice.value)}", file, path, line)


def meets(requirement: Any, value: Any) -> bool:
    """Whether ``value`` meets a ``requires`` entry (a list of values, or ``{not: [...]}``)."""
    if isinstance(requirement, dict):
        return value not in requirement["not"]
    return value in requirement


def satisfying(option: Mapping[str, Any], requirement: Any) -> Any:
    """A value of ``option`` meeting ``requirement`` (for trying a choice that needs it)."""
    return next(v for v in values_of(option) if meets(requirement, v))


def reachable(options: Mapping[str, Mapping[str, Any]], key: str, value: Any) -> bool:
    """Whether ``key=value`` can be chosen in a table with these ``options``: not when its
    ``requires`` asks of another option a value that option no longer has (a preset that
    restricts ``lone-lead`` to one value makes every choice that needs another unreachable)."""
    for other, wanted in (choice_for(key, options[key], value).patch.get("requires") or {}).items():
        if other in options and not any(meets(wanted, v) for v in values_of(options[other])):
            return False
    return True


def requirement_problems(table: Mapping[str, Any], chosen: list[Choice]) -> Iterator[tuple[Choice, str]]:
    selected = {c.key: c.value for c in chosen}
    for choice in chosen:
        for other, wanted in (choice.patch.get("requires") or {}).items():
            if other in selected and not meets(wanted, selected[other]):
                said = (f"not {' or '.join(yaml_text(v) for v in wanted['not'])}" if isinstance(wanted, dict)
                        else " or ".join(yaml_text(v) for v in wanted))
                yield choice, f"{choice.key}={yaml_text(choice.value)} needs {other} to be {said}, not {yaml_text(selected[other])}"


def apply(table: dict[str, Any], chosen: list[Choice], locate, ledger: patches.Ledger) -> list[tuple[Origin, str]]:
    """Apply every chosen value's patch to ``table`` (in place); return located problems.

    ``locate(key, path)`` gives the (file, line) of a path within an option's declaration."""
    problems: list[tuple[Origin, str]] = []
    owners: dict[tuple[str, ...], Choice] = {}
    removals: list[tuple[Choice, int, str]] = []
    replaced: list[tuple[Choice, int, dict[str, Any]]] = []
    for choice in chosen:
        patch = choice.patch
        for dotted, value in (patch.get("sets") or {}).items():
            path = split(dotted)
            origin = _origin(choice, ("sets", dotted), locate)
            clash = next((owner for owned, owner in owners.items()
                          if owner.key != choice.key and (owned[:len(path)] == path or path[:len(owned)] == owned)), None)
            if clash is not None:
                problems.append((origin, f"{dotted} is also set by option {clash.key}={yaml_text(clash.value)}: "
                                         "two options may not set one value"))
                continue
            try:
                patches.set_value(table, path, value)
            except PatchError as exc:
                problems.append((origin, f"cannot set {dotted}: {exc}"))
                continue
            owners[path] = choice
            ledger.record(path, origin)
        for index, entry in enumerate(patch.get("insert") or []):
            origin = _origin(choice, ("insert", index), locate)
            try:
                patches.insert(table, split(entry["into"]), entry["items"], entry.get("before"), entry.get("after"))
            except PatchError as exc:
                problems.append((origin, f"cannot insert into {entry['into']}: {exc}"))
                continue
            for item in entry["items"]:
                if isinstance(item, dict) and "id" in item:
                    ledger.record(split(entry["into"]) + (item["id"],), origin)
        for index, entry in enumerate(patch.get("move") or []):
            origin = _origin(choice, ("move", index), locate)
            try:
                patches.move(table, split(entry["item"]), entry.get("before"), entry.get("after"))
            except PatchError as exc:
                problems.append((origin, f"cannot move {entry['item']}: {exc}"))
                continue
            ledger.record(split(entry["item"]), origin)
        removals += [(choice, index, dotted) for index, dotted in enumerate(patch.get("remove") or [])]
        for index, clause in enumerate(patch.get("clauses") or []):
            try:
                add_clause(table.setdefault("clauses", []), clause)
            except PatchError as exc:
                problems.append((_origin(choice, ("clauses", index), locate), f"clause {clause['id']}: {exc}"))
                continue
            if clause.get("replaces"):
                replaced.append((choice, index, clause))
    for choice, index, dotted in removals:
        origin = _origin(choice, ("remove", index), locate)
        try:
            patches.remove(table, split(dotted))
        except PatchError as exc:
            problems.append((origin, f"cannot remove {dotted}: {exc}"))
            continue
        ledger.record(split(dotted), origin)
    problems += _citing_replaced(table, replaced, locate)
    return problems


def _citing_replaced(table: dict[str, Any], replaced: list[tuple[Choice, int, dict[str, Any]]],
                     locate) -> list[tuple[Origin, str]]:
    """A step still citing a clause an option replaced would cite nothing: the option that
    replaces it re-points the step (``sets: {hand.<step>.clause: <new id>}``)."""
    found = []
    ids = {c["id"] for c in table.get("clauses", [])}
    for choice, index, clause in replaced:
        old = clause["replaces"]
        if old in ids:
            continue
        for step in table.get("hand", []):
            if isinstance(step, dict) and step.get("clause") == old:
                found.append((_origin(choice, ("clauses", index, "replaces"), locate),
                              f"step {step['id']} cites clause {old!r}, which this clause replaces: re-point it in the "
                              f"same value (sets: {{hand.{step['id']}.clause: {clause['id']}}})"))
    return found


def add_clause(clauses: list[dict], clause: dict) -> None:
    """Add an option's clause, or put it in the place of the clause it ``replaces`` (the
    ``replaces`` key is kept: the site and the generator show what it replaced)."""
    clause = copy.deepcopy(clause)
    target = clause.get("replaces")
    if target is not None:
        for i, existing in enumerate(clauses):
            if existing["id"] == target:
                clauses[i] = clause
                return
        raise PatchError(f"replaces unknown clause {target!r}")
    if any(existing == clause for existing in clauses):
        return                                  # the same clause, offered by two options
    if any(existing["id"] == clause["id"] for existing in clauses):
        raise PatchError(f"the table already has a clause {clause['id']!r}: an option's clause takes an id of its own, "
                         f"with `replaces: {clause['id']}` to stand in the place of the one it changes")
    last_of_topic = max((i for i, c in enumerate(clauses) if c["topic"] == clause["topic"]), default=len(clauses) - 1)
    clauses.insert(last_of_topic + 1, clause)
