"""Writes to the user's terminal, if it can: its name in the hello, its error messages, the
values in its replies and its stderr are full of escape sequences (retitle the window, plant
a hyperlink, erase the line, a forged green ``PASSED 212 case(s)``), Unicode's
right-to-left override, and line feeds that start lines of their own.

``terminal_escapes.py [message|value]``: on the 2nd act of a hand it refuses the action with
``internal`` and such a message (``message``, the default), or answers with such a string as
the state's ``phase`` (``value``); every reply also writes such a line to stderr.

Expected outcome: ``error`` (``message``) or ``error``/``fail`` (``value``) on the cases that
reach a 2nd act; none of these characters reaches the console, a Markdown summary or the
site as a control: each is shown as its escape (``\\x1b``)."""

import sys

from _common import Faulty, arg

MODE = arg("message")
FORGED = ("\x1b]0;owned\x07\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\\r\x1b[2K"
          "\x1b[1;32mPASSED\x1b[0m 212 case(s): 212 pass\n\u202eFORGED\u202c")


class TerminalEscapes(Faulty):
    def reply(self, message):
        sys.stderr.write(f"stderr {FORGED}\n")
        sys.stderr.flush()
        if message.get("type") == "hello":
            reply = super().reply(message)
            reply["engine"] = {**reply.get("engine", {}), "name": f"evil{FORGED}"}
            return reply
        if message.get("type") == "act" and self.acts == 2:
            if MODE == "message":
                return self._error(message["id"], "internal", f"refused {FORGED}")
            reply = super().reply(message)
            if isinstance(reply.get("state"), dict):
                reply["state"]["phase"] = FORGED
            return reply
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(TerminalEscapes().serve())
