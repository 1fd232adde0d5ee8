"""Comparing an engine's reply with the reference's reply to the same request.

The fuzzer compares every field the reference's observation has, whatever fields the
protocol grows, the way the runner compares a case's expectations: ``legal`` and
``sitting_out`` as sets, ``hands`` as one set per seat, everything else exactly (with
``true`` and ``1`` told apart). A field the protocol marks optional is compared only when
the engine reports it; a required field it leaves out is a difference.

Most steps agree byte for byte, so the common case is one dictionary comparison in C;
the careful field-by-field walk runs only when that fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.runner.fields import OBSERVATION_REQUIRED_SET as REQUIRED
from conformance.runner.fields import SEAT_SET_FIELDS, SET_FIELDS
from conformance.common.json_values import as_set as _as_set
from conformance.common.json_values import same_set, strict_equal  # noqa: F401 - strict_equal is used from here too

MISSING = "<missing>"


@dataclass(frozen=True)
class Difference:
    """One field on which the engine disagrees with the reference."""

    field: str
    expected: Any
    actual: Any


def same_field(key: str, expected: Any, actual: Any) -> bool:
    """Whether the engine's value of observation field ``key`` matches the reference's."""
    if key in SET_FIELDS:
        return same_set(expected, actual)
    if key in SEAT_SET_FIELDS and isinstance(expected, list):
        # A seat's view hides the other hands: null, compared as null.
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(a is None if e is None else same_set(e, a) for a, e in zip(actual, expected)))
    return strict_equal(expected, actual)


def diff_states(expected: dict[str, Any], actual: Any) -> list[Difference]:
    """The fields of the reference's observation ``expected`` that the engine's ``actual`` gets wrong."""
    if not isinstance(actual, dict):
        return [Difference("state", "an observation object", actual)]
    if actual == expected and all(type(actual[k]) is type(v) for k, v in expected.items()):
        return []
    found = []
    for key, value in expected.items():
        if key not in actual:
            if key in REQUIRED:
                found.append(Difference(key, value, MISSING))
            continue
        if not same_field(key, value, actual[key]):
            found.append(Difference(key, value, actual[key]))
    return found


def diff_replies(reference: dict[str, Any], engine: dict[str, Any]) -> list[Difference]:
    """How the engine's reply differs from the reference's: a transport failure (the
    engine crashed, hung or answered garbage), acceptance, error category, then the
    observed state (or the ``legal`` reply's fields)."""
    if "transport" in engine:
        return [Difference("transport", "a reply", f"{engine['transport']}: {engine.get('message', '')}")]
    if reference.get("ok") != engine.get("ok"):
        return [Difference("ok", _verdict(reference), _verdict(engine))]
    if not reference.get("ok"):
        expected, actual = _category(reference), _category(engine)
        return [] if expected == actual else [Difference("error.category", expected, actual)]
    if "state" in reference:
        return diff_states(reference["state"], engine.get("state"))
    return [Difference(key, value, engine.get(key, MISSING)) for key, value in reference.items()
            if key not in ("id", "ok") and not same_field(key, value, engine.get(key, MISSING))]


def _category(reply: dict[str, Any]) -> Any:
    error = reply.get("error")
    return error.get("category") if isinstance(error, dict) else None


def _verdict(reply: dict[str, Any]) -> str:
    return "accepted" if reply.get("ok") else f"refused ({_category(reply)})"


def action_kind(token: Any) -> str:
    """The kind of an action token: ``call:H`` -> ``call``, ``pass`` -> ``pass``."""
    return str(token).partition(":")[0]


def signature(phase: Any, request: str, differences: list[Difference]) -> tuple:
    """What makes two divergences "the same" while shrinking: the phase and request they
    happen at, the fields that differ and, for a legal set, which kinds of action are
    missing or extra (so a smaller case must show the same kind of disagreement, not any)."""
    parts: list[Any] = [str(phase), request]
    for difference in sorted(differences, key=lambda d: d.field):
        part: Any = difference.field
        if difference.field in SET_FIELDS:
            expected = _as_set(difference.expected) or set()
            actual = _as_set(difference.actual)
            if actual is not None:
                missing = sorted({action_kind(a) for a in expected - actual})
                extra = sorted({action_kind(a) for a in actual - expected})
                part = (difference.field, tuple(missing), tuple(extra))
        elif difference.field in ("ok", "error.category"):
            part = (difference.field, str(difference.expected), str(difference.actual))
        parts.append(part)
    return tuple(parts)
