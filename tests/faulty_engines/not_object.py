"""Answers the N-th act request of a hand (default 5) with valid JSON that is not a reply
object (an array holding the real reply).

Expected outcome: ``error``."""

import sys

from _common import Faulty, arg

AFTER = int(arg("5"))


class NotObject(Faulty):
    def reply(self, message):
        reply = super().reply(message)
        if message.get("type") == "act" and self.acts == AFTER:
            return [reply]
        return reply


if __name__ == "__main__":
    sys.exit(NotObject().serve())
