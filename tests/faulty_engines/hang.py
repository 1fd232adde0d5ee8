"""Hangs mid-hand: on the N-th act request of a hand (default 5) it stops answering (and
reading) but stays alive.

Expected outcome: ``timeout`` after the runner's per-reply timeout; the runner kills it
and a fresh engine passes the next case."""

import sys
import time

from _common import Faulty, arg

AFTER = int(arg("5"))


class Hang(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and self.acts == AFTER:
            while True:
                time.sleep(60)
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(Hang().serve())
