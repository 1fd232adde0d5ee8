"""The signals that end a run as Ctrl-C does, and the exception they raise.

Kept apart from :mod:`conformance.cli.app` so that a command (``play``) can take their default
action back while it runs, without importing the entry point that imports every command."""

from __future__ import annotations

import signal
import threading
from typing import Any


# Signals whose default action ends a process without a word: each ends a run as Ctrl-C does
# (the engines killed, the reports closed and saying so, exit 130). SIGHUP is a closed
# terminal, SIGALRM or SIGXCPU a limit of the job's; SIGQUIT is left to dump core as asked.
ENDING_SIGNALS = tuple(getattr(signal, name) for name in (
    "SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM", "SIGPROF", "SIGXCPU", "SIGIO", "SIGPWR")
    if hasattr(signal, name))



class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal; ``name`` says which (``SIGTERM``, ``SIGHUP``...)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name



def _on_sigterm(signum: int, frame: object) -> None:
    raise Interrupted(signal.Signals(signum).name)



def catch_ending_signals() -> dict[int, Any]:
    """Have every ending signal raise :class:`Interrupted`; the handlers it replaced."""
    previous = {}
    for number in ENDING_SIGNALS:
        try:
            previous[number] = signal.signal(number, _on_sigterm)
        except (OSError, ValueError):
            pass
    return previous



def main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()
