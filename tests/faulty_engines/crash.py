"""Crashes mid-hand: exits with status 3, without a reply, on the N-th act request of a
hand (default 5). With a second argument, first writes that many bytes to stderr (a crash
after a flood: the report keeps only the last part).

Expected outcome: ``crash`` for a case whose hand reaches the N-th action; a fresh engine
then passes the next case."""

import sys

from _common import Faulty, arg, die

AFTER = int(arg("5"))
FLOOD = int(sys.argv[2]) if len(sys.argv) > 2 else 0


class Crash(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and self.acts == AFTER:
            if FLOOD:
                sys.stderr.write("noise " * (FLOOD // 6) + "\n")
            die(3, f"crash.py: simulated crash on act request {AFTER}")
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(Crash().serve())
