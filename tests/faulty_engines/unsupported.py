"""A correct engine for a variant the cases do not use: it declares only ``piquet``.

Expected outcome: ``unsupported`` for every euchre case (not a failure)."""

import sys

from _common import Faulty


class Unsupported(Faulty):
    def reply(self, message):
        reply = super().reply(message)
        if message.get("type") == "hello":
            reply["variants"] = {"piquet": {}}
        return reply


if __name__ == "__main__":
    sys.exit(Unsupported().serve())
