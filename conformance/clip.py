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


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids (most control characters, lone
    surrogates, U+FFFE and U+FFFF) replaced by its ``\\x..``/``\\u....`` escape."""
    return _XML_FORBIDDEN.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
