"""Refuses every action: each act request is answered with an error of the given category
(default ``internal``), the state unchanged.

Expected outcome: ``error`` for category ``internal`` (the engine failed), ``fail`` for a
rules category such as ``illegal_action`` (it refused a legal action), ``skipped`` for
``unsupported``."""

import sys

from _common import Faulty, arg

CATEGORY = arg("internal")


class Refuse(Faulty):
    def reply(self, message):
        if message.get("type") == "act":
            return self._error(message["id"], CATEGORY, "refused: this engine refuses every action")
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(Refuse().serve())
