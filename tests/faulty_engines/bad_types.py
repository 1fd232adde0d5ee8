"""Sends well-formed replies whose fields have the wrong types once the runner has seen a
valid one (it checks each reply kind's schema once, unless --strict-replies): from the
N-th act request of a hand on (default 2), ``tricks`` is a number and ``legal`` holds lists.

Expected outcome: ``error`` (a reply the runner cannot check), never a traceback or a
lost case."""

import sys

from _common import Faulty, arg

AFTER = int(arg("2"))


class BadTypes(Faulty):
    def reply(self, message):
        reply = super().reply(message)
        if message.get("type") == "act" and self.acts >= AFTER and isinstance(reply.get("state"), dict):
            reply["state"]["tricks"] = 7
            reply["state"]["legal"] = [["play:9C"], {"x": 1}]
        return reply


if __name__ == "__main__":
    sys.exit(BadTypes().serve())
