"""Turns on whatever watches it: at every start it leaves a ``setsid`` daemon behind (as
``setsid_daemon.py`` does) and then sends its parent, the process that keeps it (on Linux
the runner's keeper, see ``conformance/runner/containment.py``), SIGKILL or SIGSTOP, then answers
every request correctly.

``keeper_killer.py SIGNAL WHO [MARKER [N]]``: SIGNAL is ``kill`` (SIGKILL) or ``stop``
(SIGSTOP); WHO is ``engine`` (the engine sends it, before its hello reply) or ``daemon``
(the ``setsid`` grandchild sends it, after making sure it is no longer the engine's child);
MARKER is only carried in the command line (the daemon has the same one), for a test to find
every process of the engine by; N (default 1) is how many daemons each start leaves.

Expected outcome: ``pass`` on every case (the engine is correct); on Linux the runner finds
and kills every daemon and the engine itself, although the keeper is dead or stopped, and
the report counts the daemons as left behind (N per engine start)."""

import os
import signal
import sys
import time

from _common import Faulty, start_daemon

SIGNAL = signal.SIGKILL if (sys.argv[1] if len(sys.argv) > 1 else "kill") == "kill" else signal.SIGSTOP
WHO = sys.argv[2] if len(sys.argv) > 2 else "engine"
DAEMONS = int(sys.argv[4]) if len(sys.argv) > 4 else 1


def daemonize(keeper: int, strike: bool) -> None:
    """A daemon in a session of its own (see ``start_daemon``); with ``strike`` it sends the
    keeper the signal once its middle process has exited (it is nobody's child then but a
    subreaper's), and, for SIGSTOP, again every 50 ms (a keeper continued by someone is
    stopped again) until the keeper is gone."""
    def watch() -> None:
        armed = strike
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            if armed and os.getppid() == keeper:      # the keeper is our parent (a subreaper): its pid is its own
                os.kill(keeper, SIGNAL)
                armed = SIGNAL == signal.SIGSTOP
            time.sleep(0.05)
    start_daemon(watch)


if __name__ == "__main__":
    keeper = os.getppid()
    for number in range(DAEMONS):
        daemonize(keeper, WHO == "daemon" and number == 0)
    if WHO == "engine":
        os.kill(keeper, SIGNAL)
    sys.exit(Faulty().serve())
