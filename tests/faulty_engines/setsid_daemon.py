"""Escapes the process group the classic way: at every start it double-forks a daemon that
calls ``setsid()`` (a session, and so a process group, of its own), keeps the engine's
stdout and stderr open and sleeps for ten minutes. ``setsid_daemon.py [N [MARKER [hang]]]``
also crashes on the N-th act of a hand (default 0: never), so each restart leaves one more
daemon, or with ``hang`` stops answering there instead (to stop a runner mid-case); MARKER
is only carried in the command line (the daemon, forked without ``exec``, has the same),
for a test to find the daemons by. With ``hang``, the file that ``EUCHRE_SPEC_TEST_HANGING``
names (if set) is given the engine's pid when it starts hanging, so that a test can wait for
that moment instead of guessing it with a sleep, and knows which engine hangs.

Expected outcome: the engine's own (``pass`` with N 0; ``crash`` on the whole hand with
N 5, a fresh engine for the next case; ``timeout`` with ``hang``); on Linux the runner
finds and kills every daemon (one per engine start) and reports them as left behind."""

import os
import sys
import time

from _common import Faulty, arg, die, start_daemon

AFTER = int(arg("0"))
HANG = len(sys.argv) > 3 and sys.argv[3] == "hang"


class SetsidDaemon(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and AFTER and self.acts == AFTER:
            if HANG and os.environ.get("EUCHRE_SPEC_TEST_HANGING"):
                with open(os.environ["EUCHRE_SPEC_TEST_HANGING"], "a", encoding="utf-8") as hanging:
                    hanging.write(f"{os.getpid()}\n")
            while HANG:
                time.sleep(60)
            die(6, "setsid_daemon.py: crashing, my daemon lives on")
        return super().reply(message)


if __name__ == "__main__":
    start_daemon()
    sys.exit(SetsidDaemon().serve())
