"""Answers correctly but slowly: every reply after a delay (default 0.1 s). Each reply
comes well within the per-reply timeout, yet a long case exceeds its case budget.

Expected outcome: ``timeout`` (case budget) for a long case with a short --case-timeout,
``pass`` for a short one."""

import sys
import time

from _common import Faulty, arg

DELAY = float(arg("0.1"))


class Slow(Faulty):
    def reply(self, message):
        if message.get("type") != "hello":
            time.sleep(DELAY)
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(Slow().serve())
