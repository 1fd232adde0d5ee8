"""Reports the wrong seat to act: every state it sends names the seat after the real one.
The states stay schema-valid; only the rules are wrong.

Expected outcome: ``fail`` at the first scripted step (seat 1 should be to act)."""

import sys

from _common import Faulty


class WrongToAct(Faulty):
    def reply(self, message):
        reply = super().reply(message)
        state = reply.get("state")
        if isinstance(state, dict) and state.get("to_act") is not None:
            state["to_act"] = (state["to_act"] + 1) % 4
        return reply


if __name__ == "__main__":
    sys.exit(WrongToAct().serve())
