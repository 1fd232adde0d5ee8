"""Lies, then dies on the next action: its reply to the N-th act of a hand (default 5)
names the wrong seat to act, and on the act after that it exits (``crash``, status 5) or
stops answering (``hang``).

A runner that waited for each reply to be checked before sending the next request would
never send that next act: the case fails on the lie. The runner sends the next scripted
action as soon as a reply arrives, so this engine receives it; the case must still be
reported as the ``fail`` it is (not a crash or a timeout), and the engine replaced before
the next case, which passes."""

import sys
import time

from _common import Faulty, arg, die

MODE = arg("crash")
AFTER = int(sys.argv[2]) if len(sys.argv) > 2 else 5


class LieThenDie(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and self.acts == AFTER + 1:
            if MODE == "hang":
                while True:
                    time.sleep(60)
            die(5, "lie_then_die.py: the act after the lie")
        reply = super().reply(message)
        if message.get("type") == "act" and self.acts == AFTER:
            state = reply.get("state")
            if isinstance(state, dict) and state.get("to_act") is not None:
                state["to_act"] = (state["to_act"] + 1) % 4
        return reply


if __name__ == "__main__":
    sys.exit(LieThenDie().serve())
