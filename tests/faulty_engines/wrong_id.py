"""Answers the N-th act request of a hand (default 5) with the id of the next request.

Expected outcome: ``error`` (a reply must carry the id of the request it answers)."""

import sys

from _common import Faulty, arg

AFTER = int(arg("5"))


class WrongId(Faulty):
    def reply(self, message):
        reply = super().reply(message)
        if message.get("type") == "act" and self.acts == AFTER:
            reply["id"] = message["id"] + 1
        return reply


if __name__ == "__main__":
    sys.exit(WrongId().serve())
