"""Crashes on the N-th act of a hand (default 5), leaving a forked child that has left the
engine's process group (a session of its own) and keeps the engine's stdout open, so
that no end of file reaches the runner. ``held_output.py [N [MARKER]]``: MARKER is only
carried in the command line, which the child shares.

Expected outcome: ``crash`` (the runner sees that the engine exited; the child is not
waited out as a timeout), a fresh engine for the next case; on Linux the child is killed
and reported as left behind."""

import os
import sys
import time

from _common import Faulty, arg, die

AFTER = int(arg("5"))


class HeldOutput(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and self.acts == AFTER:
            if os.fork() == 0:
                os.setsid()
                try:
                    time.sleep(600)
                finally:
                    os._exit(0)
            time.sleep(0.1)
            die(5, "held_output.py: crashing, my child holds the output open")
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(HeldOutput().serve())
