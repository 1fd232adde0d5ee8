"""Text that came from an engine (or from a report it filled), made safe to show.

An engine's error message, its stderr, a value in its reply, its name in the hello: all of
it reaches a terminal, a Markdown job summary or a web page. A terminal obeys escape
sequences (retitle the window, plant a link, erase a line, print a forged green "PASSED"),
and Unicode's bidirectional controls reorder what a reader sees. So every such character
is shown as its escape (``\\x1b``, ``\\u202e``), as Python would write it, never sent as is.
"""

from __future__ import annotations

from typing import Any

# C0 controls but tab and line feed, DEL, C1 controls, and the invisible characters that
# change how the text around them is laid out (bidirectional controls, line separators)
_UNSAFE = ([c for c in range(0x20) if c not in (0x09, 0x0A)] + list(range(0x7F, 0xA0))
           + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029] + list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A)))
_TABLE = {code: (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}") for code in _UNSAFE}
_ONE_LINE = {**_TABLE, 0x0A: "\\n", 0x09: "\\t"}


def visible(text: str) -> str:
    """``text`` with every control character shown as its escape (line feeds and tabs kept)."""
    return text.translate(_TABLE)


def one_line(text: str) -> str:
    """``text`` on one line: line feeds and tabs escaped too (an engine's message inside a
    line of ours must not start a line of its own)."""
    return text.translate(_ONE_LINE)


def visible_data(value: Any) -> Any:
    """A decoded JSON value with :func:`visible` applied to every string in it (keys too)."""
    if isinstance(value, str):
        return value.translate(_TABLE)
    if isinstance(value, list):
        return [visible_data(item) for item in value]
    if isinstance(value, dict):
        return {visible_data(key): visible_data(item) for key, item in value.items()}
    return value


_MARKDOWN_SPECIAL = "\\`*_{}[]<>#!|~&"     # (parentheses make a link only after a bracket)


def md_inline(value: Any) -> str:
    """A value shown as literal text in Markdown (a job summary, the site): control
    characters escaped, on one line, and no emphasis, link, image, table cell or HTML tag
    made of it."""
    text = one_line(str(value))
    return "".join("\\" + char if char in _MARKDOWN_SPECIAL else char for char in text)


def md_code(value: Any) -> str:
    """A value shown as a Markdown code span, whatever backticks or bars it holds (a table
    cell ends at a bar even inside a code span unless it is escaped)."""
    text = one_line(str(value)).replace("|", "\\|")
    longest = 0
    current = 0
    for char in text:
        current = current + 1 if char == "`" else 0
        longest = max(longest, current)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
