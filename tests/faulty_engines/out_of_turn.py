"""Acts out of turn: accepts an act from any seat (it ignores the seat check and applies
the action for whoever is to act).

Expected outcome: ``pass`` for cases that only script legal turns, ``fail`` for a case with
a ``reject: out_of_turn`` step (the engine accepted an action it must refuse)."""

import sys

from _common import Faulty


class OutOfTurn(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and self.state is not None and self.state.to_act >= 0:
            message = {**message, "seat": self.state.to_act}
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(OutOfTurn().serve())
