"""Starts a child that inherits its output and outlives it, then crashes on the N-th act of
a hand (default 5). ``forking.py [N [PIDFILE]]`` writes the child's pid to PIDFILE.

The child holds the pipe open, so no end of file ever reaches the runner. Expected outcome:
``crash`` (not a timeout: the runner sees that the engine exited), and the child is killed
with the engine's process group, not left behind."""

import os
import subprocess
import sys
import time

from _common import Faulty, arg, die

AFTER = int(arg("5"))
PIDFILE = sys.argv[2] if len(sys.argv) > 2 else None


class Forking(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and self.acts == AFTER:
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            if PIDFILE:
                with open(PIDFILE, "w") as handle:
                    handle.write(str(child.pid))
            time.sleep(0.2)
            die(4, "forking.py: crashing, leaving a child that holds the output open")
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(Forking().serve())
