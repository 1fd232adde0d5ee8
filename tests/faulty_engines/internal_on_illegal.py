"""Answers ``internal`` instead of ``illegal_action`` when a seat offers a token that is not
a card in the play phase (the interpreter bug this project once had: a KeyError on 'play').

Expected outcome: ``fail`` on a ``reject: illegal_action`` step of the play phase (wrong
error category); every other case passes."""

import sys

from _common import Faulty

from reference_impl.state import PLAY_PHASE


class InternalOnIllegal(Faulty):
    def reply(self, message):
        state = self.state
        if (message.get("type") == "act" and state is not None and state.phase == PLAY_PHASE
                and isinstance(message.get("action"), str) and not message["action"].startswith("play:")
                and message.get("seat") == state.to_act):
            return self._error(message["id"], "internal", "KeyError: 'play'")
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(InternalOnIllegal().serve())
