"""How far a long command has got: a bar on a terminal, a plain line every few seconds in a log.

``check`` counts cases and ``fuzz`` counts hands; both show the same two forms. On a terminal
the bar is transient (it leaves no trace in the output); without one (CI, a pipe) a line
``progress: ...`` every ``EUCHRE_SPEC_PROGRESS_EVERY`` seconds (default 5) tells a reader
of the log that the run is alive and how far it is.
"""

from __future__ import annotations

import os
import sys
import time

from conformance.common.console import console, is_terminal, plain

PROGRESS_EVERY = float(os.environ.get("EUCHRE_SPEC_PROGRESS_EVERY", 5.0))   # seconds between two lines in a log
BAR_EVERY = 0.1                                                              # seconds between two redraws of the bar


class Progress:
    """A run's progress: ``update`` it as it goes, inside ``with``.

    ``total`` is the count the run aims at (None: unknown); ``seconds`` the run's time budget,
    which the bar measures instead when there is no count. ``out_of`` writes ``done/total``
    in the log's lines, not ``done`` alone.
    """

    def __init__(self, what: str, total: int | None, seconds: float | None = None, out_of: bool = False):
        self.what, self.total, self.out_of = what, total, out_of
        self.started = time.monotonic()
        self.last_line = self.last_bar = self.started
        self.bar = None
        if is_terminal():
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn
            self.bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                           console=console, transient=True)
            self.task = self.bar.add_task(what, total=total if total else seconds)

    def __enter__(self) -> "Progress":
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def update(self, done: int, line_note: str, bar_note: str | None = None) -> None:
        """``done`` items so far; ``line_note`` what the log's line adds ("2 failing"),
        ``bar_note`` what the bar's label adds in brackets (nothing when None)."""
        now = time.monotonic()
        if self.bar is not None:
            if now - self.last_bar >= BAR_EVERY or done == self.total:
                self.last_bar = now
                self.bar.update(self.task, completed=done if self.total else now - self.started,
                                description=f"{self.what} ({bar_note})" if bar_note else self.what)
            return
        if now - self.last_line >= PROGRESS_EVERY:
            self.last_line = now
            count = f"{done}/{self.total}" if self.out_of else str(done)
            plain(f"progress: {count} {self.what}, {line_note}, {now - self.started:.0f} s")
            sys.stdout.flush()
