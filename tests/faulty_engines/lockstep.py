"""Answers correctly, but refuses (``internal``) any request that arrives while another is
still unanswered: the protocol promises the engine one request at a time, even though the
runner sends the next scripted action before it has checked the last reply.

It reads its input unbuffered, so a second request already written is seen as such.

Expected outcome: ``pass`` for every case."""

import os
import select
import sys

from _common import Faulty, write_reply


class Lockstep(Faulty):
    def serve(self) -> int:
        import json
        pending = b""
        while True:
            while b"\n" not in pending:
                chunk = os.read(0, 65536)
                if not chunk:
                    return 0
                pending += chunk
            line, pending = pending.split(b"\n", 1)
            message = json.loads(line)
            waiting = bool(pending) or bool(select.select([0], [], [], 0)[0])
            if waiting:
                write_reply(self._error(message.get("id"), "internal", "a second request came before this one was answered"))
                return 1
            if message.get("type") == "deal":
                self.acts = 0
            reply = self.reply(message)
            write_reply(reply)
            if message.get("type") == "bye":
                return 0


if __name__ == "__main__":
    sys.exit(Lockstep().serve())
