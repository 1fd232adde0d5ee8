"""Waiting on the process table, for the tests of engines that start (or escape) processes.

What a test asserts about processes is read from ``/proc``, which lags what just happened on
a loaded machine: a test waits for the state it asserts (``settled``, ``wait_until``) rather
than reading the table once.
"""

from __future__ import annotations

import os
import time
from typing import Callable


def marked(marker: str) -> list[str]:
    """The living processes (zombies are dead) whose command line or environment holds
    ``marker``, each as ``pid: command``."""
    found = []
    needle = marker.encode()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
            if stat[stat.rfind(b")") + 2:].split()[0] in (b"Z", b"X"):
                continue
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                cmdline = handle.read()
            try:
                with open(f"/proc/{name}/environ", "rb") as handle:
                    environ = handle.read()
            except OSError:
                environ = b""
        except OSError:             # gone meanwhile
            continue
        if needle in cmdline or needle in environ:
            shown = cmdline.replace(b"\0", b" ").decode(errors="replace")[:200]
            found.append(f"{name}: {shown}")
    return found


SETTLE = 20.0       # seconds the process table may take to show what a test expects, on a loaded machine


def settled(marker: str, count: int, seconds: float = SETTLE) -> list[str]:
    """The processes carrying ``marker`` once there are ``count`` of them, or as they are
    at the deadline. Never read the table once and assert: a process just started shows no
    command line for a moment (between its ``exec`` and its arguments being laid out, after
    its parent already saw the ``exec`` succeed), and one just killed is alive until the
    kernel has run its exit, which on a busy machine is not at once."""
    found = marked(marker)
    deadline = time.monotonic() + seconds
    while len(found) != count and time.monotonic() < deadline:
        time.sleep(0.05)
        found = marked(marker)
    return found


def wait_until(condition: Callable[[], object], seconds: float = SETTLE) -> bool:
    """Whether ``condition`` holds within ``seconds`` (polled every 50 ms, and once more at
    the deadline)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()
