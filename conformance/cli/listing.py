"""Lists for the terminal where a table does not fit: at 80 columns, and in a pipe (where
rich assumes 80), a table of five columns wraps each cell into a tall ribbon and breaks words
("stick-the-dea / ler"). A list gives each item a line of its own (its name whole, never
broken) and its fields below, indented, wrapped at word boundaries only.
"""

from __future__ import annotations

import textwrap

from conformance.common.console import console, plain

TABLE_WIDTH = {"variants": 100, "options": 140}     # the narrowest terminal each table reads well in


def fits_table(kind: str) -> bool:
    """Whether the terminal is wide enough for the table of ``kind``."""
    return console.width >= TABLE_WIDTH[kind]


def wrapped(text: str, indent: str = "    ", width: int | None = None) -> list[str]:
    """``text`` wrapped at spaces only (names, hyphenated words and addresses stay whole)."""
    width = max(40, (width or console.width) - 1)
    return textwrap.wrap(" ".join(str(text).split()), width=width, initial_indent=indent, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False) or [indent.rstrip()]


def field(label: str, text: str, indent: str = "    ") -> list[str]:
    """``label: text``, the text's further lines under its first word."""
    head = f"{indent}{label}: "
    lines = wrapped(text, " " * len(head))
    return [head + lines[0].lstrip()] + lines[1:] if lines else [head.rstrip()]


def print_lines(lines: list[str]) -> None:
    for line in lines:
        plain(line)
