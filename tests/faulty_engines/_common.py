"""Plumbing shared by the faulty engines: the reference engine's request loop, with hooks.

Each faulty engine is a script run as ``python tests/faulty_engines/NAME.py [ARG]``. It
subclasses :class:`Faulty` (the reference engine) and overrides one thing, so that it is
correct in every respect but the fault it demonstrates. ``arg(default)`` reads the
script's optional argument (usually N: the fault strikes on the N-th act request of a
hand, so cases with shorter hands pass, in any order, on any number of workers).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:        # run from a checkout without installing it
    sys.path.insert(0, str(ROOT))

from conformance.reference_engine import ReferenceEngine  # noqa: E402

OUT = sys.stdout.buffer


def arg(default: str) -> str:
    return sys.argv[1] if len(sys.argv) > 1 else default


def write_raw(data: bytes) -> None:
    OUT.write(data)
    OUT.flush()


def write_reply(reply: object) -> None:
    write_raw(json.dumps(reply, separators=(",", ":")).encode("utf-8") + b"\n")


def start_daemon(work: Callable[[], None] | None = None) -> None:
    """Leave a daemon behind the classic way: fork, setsid, fork. The grandchild belongs to
    no process group or session of the engine's and, once the middle process has exited, is
    nobody's child but init's (or a subreaper's); it runs ``work`` (default: sleeps ten
    minutes, holding the engine's stdout and stderr open) and exits. Returns in the engine
    once the middle process is reaped."""
    middle = os.fork()
    if middle:
        os.waitpid(middle, 0)
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    try:
        (work or (lambda: time.sleep(600)))()
    finally:
        os._exit(0)


def die(status: int, why: str) -> None:
    """Exit at once, as a crashing engine does (no clean-up, no reply)."""
    sys.stderr.write(why + "\n")
    sys.stderr.flush()
    os._exit(status)


class Faulty(ReferenceEngine):
    """The reference engine, counting the act requests of the current hand."""

    def __init__(self) -> None:
        super().__init__()
        self.acts = 0           # act requests since the last deal request

    def reply(self, message: dict) -> dict | None:
        """The reply to send (None: send nothing, the subclass wrote its own)."""
        return self.handle(message)

    def serve(self) -> int:
        for raw in sys.stdin.buffer:
            message = json.loads(raw)
            if message.get("type") == "deal":
                self.acts = 0
            elif message.get("type") == "act":
                self.acts += 1
            reply = self.reply(message)
            if reply is not None:
                write_reply(reply)
            if message.get("type") == "bye":
                break
        return 0
