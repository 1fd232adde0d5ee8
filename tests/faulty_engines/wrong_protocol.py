"""Speaks the wrong protocol version: its hello reply says protocol 2.

Expected outcome: ``error`` for every case (the runner refuses the handshake), each on a
freshly started engine."""

import sys

from _common import Faulty


class WrongProtocol(Faulty):
    def reply(self, message):
        reply = super().reply(message)
        if message.get("type") == "hello" and reply.get("ok"):
            reply["protocol"] = 2
        return reply


if __name__ == "__main__":
    sys.exit(WrongProtocol().serve())
