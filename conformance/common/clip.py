"""Bounded copies of what an engine said, for messages and reports.

An engine under test can answer anything: a legal list of 400,000 entries, a message of a
megabyte, structures nested hundreds deep. What the runner writes into a failure, a report
line, JUnit or the console is cut to the sizes below (docs/cli.md, "Reports"), after every
comparison has been made on the full values, so that one hostile reply cannot exhaust memory
or bury a report.
"""

from __future__ import annotations

import re
from typing import Any

MAX_TEXT = 2000        # characters of one string
MAX_ITEMS = 100        # entries of one list or object
MAX_DEPTH = 8          # levels of nesting

_XML_FORBIDDEN = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def clip_text(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` cut to ``limit`` characters, saying how many were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit} more characters]"


def clip(value: Any, depth: int = 0) -> Any:
    """A JSON value cut to the documented sizes (strings, entries, nesting)."""
    if isinstance(value, str):
        return clip_text(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        if depth >= MAX_DEPTH:
            return f"… [a list of {len(items)} entries nested too deeply]"
        kept = [clip(item, depth + 1) for item in items[:MAX_ITEMS]]
        if len(items) > MAX_ITEMS:
            kept.append(f"… [{len(items) - MAX_ITEMS} more entries]")
        return kept
    if isinstance(value, dict):
        if depth >= MAX_DEPTH:
            return f"… [an object of {len(value)} entries nested too deeply]"
        kept_dict = {}
        for index, (key, item) in enumerate(value.items()):
            if index == MAX_ITEMS:
                kept_dict["…"] = f"[{len(value) - MAX_ITEMS} more entries]"
                break
            kept_dict[clip_text(str(key), 200)] = clip(item, depth + 1)
        return kept_dict
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 30:
        return clip_text(str(value), 40)
    return value


def clip_pair(expected: Any, actual: Any, depth: int = 0) -> tuple[Any, Any]:
    """Both sides of a comparison clipped so that where they differ stays in view.

    Clipped alone, two long values that differ late (a ``tricks`` list whose fifth trick
    differs, two long messages) are cut at the same prefix and look equal. Here a long run
    of equal leading entries (or characters) is replaced on both sides by one marker saying
    how many were equal, and the entries that differ are clipped pairwise in turn."""
    if isinstance(expected, str) and isinstance(actual, str):
        at = _first_difference(expected, actual)
        if at > MAX_TEXT // 2 and max(len(expected), len(actual)) > MAX_TEXT:
            start = at - MAX_TEXT // 4
            return (f"[{start} equal characters] …" + clip_text(expected[start:]),
                    f"[{start} equal characters] …" + clip_text(actual[start:]))
        return clip_text(expected), clip_text(actual)
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)) and depth < MAX_DEPTH:
        left, right = list(expected), list(actual)
        at = _first_difference(left, right)
        skip = at - 2 if at > MAX_ITEMS // 2 and max(len(left), len(right)) > MAX_ITEMS else 0
        marker = [f"… [{skip} equal entries]"] if skip else []
        kept_left, kept_right = [], []
        for index in range(skip, max(len(left), len(right))):
            if len(kept_left) >= MAX_ITEMS and len(kept_right) >= MAX_ITEMS:
                break
            if index < len(left) and index < len(right) and left[index] != right[index]:
                pair = clip_pair(left[index], right[index], depth + 1)
            else:
                pair = (clip(left[index], depth + 1) if index < len(left) else None,
                        clip(right[index], depth + 1) if index < len(right) else None)
            if index < len(left) and len(kept_left) < MAX_ITEMS:
                kept_left.append(pair[0])
            if index < len(right) and len(kept_right) < MAX_ITEMS:
                kept_right.append(pair[1])
        for items, kept in ((left, kept_left), (right, kept_right)):
            rest = len(items) - skip - len(kept)
            if rest > 0:
                kept.append(f"… [{rest} more entries]")
        return marker + kept_left, marker + kept_right
    if isinstance(expected, dict) and isinstance(actual, dict) and depth < MAX_DEPTH:
        if len(expected) <= MAX_ITEMS and len(actual) <= MAX_ITEMS:
            pairs = {key: clip_pair(expected.get(key), actual.get(key), depth + 1)
                     for key in list(expected) + [k for k in actual if k not in expected]}
            return ({clip_text(str(k), 200): v[0] for k, v in pairs.items() if k in expected},
                    {clip_text(str(k), 200): v[1] for k, v in pairs.items() if k in actual})
    return clip(expected, depth), clip(actual, depth)


def window_pair(left: str, right: str, limit: int = 160) -> tuple[str, str]:
    """Two one-line texts cut to ``limit`` characters around where they first differ."""
    if len(left) <= limit and len(right) <= limit:
        return left, right
    at = _first_difference(left, right)
    start = max(0, at - limit // 4)
    cut = [("…" if start else "") + text[start:start + limit] + ("…" if len(text) > start + limit else "")
           for text in (left, right)]
    return cut[0], cut[1]


def _first_difference(left: Any, right: Any) -> int:
    """The index of the first entry (or character) where two sequences differ."""
    for index, (a, b) in enumerate(zip(left, right)):
        if a != b:
            return index
    return min(len(left), len(right))


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids (most control characters, lone
    surrogates, U+FFFE and U+FFFF) replaced by its ``\\x..``/``\\u....`` escape."""
    return _XML_FORBIDDEN.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
