"""Escapes the process group without a new session: at every start it starts a child in a
process group of its own (``setpgid``), holding the engine's stdout open, that runs
``python -c 'sleep 600' MARKER`` with ``EUCHRE_SPEC_TEST_MARKER=MARKER`` in its
environment; the engine then crashes on the N-th act of a hand (default 5).
``own_group.py [N [MARKER]]`` (N 0: never crashes).

Expected outcome: ``crash`` on the whole hand (the engine exited; its child holding the
output must not turn that into a timeout), a fresh engine for the next case; on Linux
every child (one per engine start) is killed and reported as left behind."""

import os
import subprocess
import sys

from _common import Faulty, arg, die

AFTER = int(arg("5"))
MARKER = sys.argv[2] if len(sys.argv) > 2 else "own-group-child"


class OwnGroup(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and AFTER and self.acts == AFTER:
            die(8, "own_group.py: crashing, my child in its own process group lives on")
        return super().reply(message)


if __name__ == "__main__":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", MARKER], process_group=0,
                     env={**os.environ, "EUCHRE_SPEC_TEST_MARKER": MARKER})
    sys.exit(OwnGroup().serve())
