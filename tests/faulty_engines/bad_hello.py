"""Declares its capabilities in the wrong shape: ``variants`` maps euchre to a number
and ``commands`` is a number.

Expected outcome: ``error`` for every case (a hello the runner cannot read), never a
traceback."""

import sys

from _common import Faulty


class BadHello(Faulty):
    def reply(self, message):
        reply = super().reply(message)
        if message.get("type") == "hello":
            reply["variants"] = {"euchre": 5}
            reply["commands"] = 5
        return reply


if __name__ == "__main__":
    sys.exit(BadHello().serve())
