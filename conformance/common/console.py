"""The command line's output: one place that decides how text reaches the terminal.

Anything that came from a user or an engine (a file name, a message, a card token, an
engine's command line) may contain rich markup such as ``[/bold]``; it is always printed
with markup off, or escaped when it sits inside a line of our own markup. It may also hold
terminal escape sequences: every string rich renders (a line, a table cell) has its control
characters shown as escapes first (:mod:`conformance.common.shown`), so nothing reaches the
terminal as a control but rich's own styles. Without a
terminal (a CI log) nothing is drawn in place: progress is a plain line every few seconds.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from conformance.common.shown import visible


class SafeConsole(Console):
    """A rich console that renders no control character it was given as text."""

    def render_str(self, text: str, **kwargs: object) -> Text:  # type: ignore[override]
        return super().render_str(visible(text), **kwargs)  # type: ignore[arg-type]

    def on_broken_pipe(self) -> None:
        """A reader that closed the pipe early (``euchre-spec variants | grep -q x``, ``| head``)
        has all it wanted: raised as BrokenPipeError, which the command line answers with exit 0,
        where rich's own handler would exit 1 and make the pipeline fail."""
        self.quiet = True
        raise BrokenPipeError


console = SafeConsole(highlight=False)
err_console = SafeConsole(stderr=True, highlight=False)

__all__ = ["console", "err_console", "escape", "say", "error", "plain"]


def plain(text: str) -> None:
    """Print ``text`` exactly as it is (no markup, no wrapping of long lines)."""
    console.print(text, markup=False, soft_wrap=True)


def say(markup: str) -> None:
    """Print a line of our own markup (every inserted value must already be escaped)."""
    console.print(markup, soft_wrap=True)


def error(text: str) -> None:
    """A one-line error message on standard error, prefixed with the program's name."""
    err_console.print(f"euchre-spec: error: {text}", markup=False, soft_wrap=True)


def warn(text: str) -> None:
    err_console.print(f"euchre-spec: warning: {text}", markup=False, soft_wrap=True)


def is_terminal() -> bool:
    return console.is_terminal and sys.stdout.isatty()
