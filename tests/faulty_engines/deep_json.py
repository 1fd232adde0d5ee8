"""Answers the N-th act request of a hand (default 5) with JSON nested 100 000 arrays
deep: valid JSON, but deeper than a recursive decoder can follow.

Expected outcome: ``error`` (a reply that cannot be decoded), never a lost case."""

import sys

from _common import Faulty, arg, write_raw

AFTER = int(arg("5"))


class DeepJson(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and self.acts == AFTER:
            write_raw(b"[" * 100_000 + b"]" * 100_000 + b"\n")
            return None
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(DeepJson().serve())
