"""Answers from the (N-1)-th act of a hand on (default 5) with a state whose legal list has 400,000
entries (about 3 MB: within the 4 MiB line limit), and writes control characters to stderr.

Expected outcome: ``fail`` (wrong legal actions), with the expected and actual values in the
report cut to the documented size, and a JUnit file that is well-formed XML."""

import sys

from _common import Faulty, arg

AFTER = int(arg("5"))


class FloodLegal(Faulty):
    def reply(self, message):
        reply = super().reply(message)
        if message.get("type") == "act" and self.acts >= AFTER - 1 and reply.get("ok"):
            reply["state"]["legal"] = ["pass"] * 400_000
            sys.stderr.write("flood_legal: \x00\x01\x1b[31m control characters \x0b\x0c\ufffe\n")
            sys.stderr.flush()
        return reply


if __name__ == "__main__":
    sys.exit(FloodLegal().serve())
