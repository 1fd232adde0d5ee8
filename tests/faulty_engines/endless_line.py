"""Writes an endless line instead of its reply to the N-th act request of a hand (second
argument, default 5). The mode is the first argument:

* ``endless`` (default): bytes without a line end, as fast as the pipe takes them, forever;
* ``huge``: one 6 MB line (a JSON string) with a line end at last;
* ``drip``: one byte every 50 ms, never a line end.

Expected outcome: ``error`` for ``endless`` and ``huge`` (the reply exceeds the runner's
line limit), ``timeout`` for ``drip``. A fresh engine passes the next case."""

import sys
import time

from _common import Faulty, write_raw

MODE = sys.argv[1] if len(sys.argv) > 1 else "endless"
AFTER = int(sys.argv[2]) if len(sys.argv) > 2 else 5


class EndlessLine(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and self.acts == AFTER:
            if MODE == "huge":
                write_raw(b'"' + b"y" * (6 * 1024 * 1024) + b'"\n')
                return None
            if MODE == "drip":
                while True:
                    write_raw(b"z")
                    time.sleep(0.05)
            chunk = b"{" * 65536
            while True:
                write_raw(chunk)
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(EndlessLine().serve())
