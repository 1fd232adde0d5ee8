"""JSON values compared as JSON values: by type at every depth, sets without repetitions.

Python's ``==`` says ``True == 1 == 1.0`` and ``set(["pass", "pass"]) == {"pass"}``: an
engine that answered a seat number as ``true`` or ``2.0``, or listed a legal action twice,
would pass a comparison made with it. The runner and the fuzzer compare with these instead.
"""

from __future__ import annotations

from typing import Any


def strict_equal(expected: Any, actual: Any) -> bool:
    """Equal values of equal JSON types, at every depth (``True`` is not ``1``, ``2.0`` is not ``2``)."""
    if type(expected) is not type(actual):
        return False
    if isinstance(expected, dict):
        return expected.keys() == actual.keys() and all(strict_equal(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return len(expected) == len(actual) and all(strict_equal(e, a) for e, a in zip(expected, actual))
    return expected == actual


def as_set(value: Any) -> set | None:
    """A list of strings or integers (not booleans) without repetitions, as a set; None for
    anything else (a repeated item, a list of lists, a number where a token belongs...)."""
    if not isinstance(value, list) or not all(type(item) in (str, int) for item in value):
        return None
    found = set(value)
    return found if len(found) == len(value) else None


def same_set(expected: list[Any], actual: Any) -> bool:
    """Whether ``actual`` holds exactly the items of ``expected``, each once, of the same types."""
    found = as_set(actual)           # (no booleans or floats: {1} == {True} == {1.0} in Python)
    return found is not None and found == set(expected)
