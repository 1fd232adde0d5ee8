"""Floods stderr: writes N bytes (default 8 MB) of log to stderr at start and 256 KB more
before every reply, while answering every request correctly.

Expected outcome: ``pass`` (the runner drains stderr continuously, so the engine never
blocks on a full pipe)."""

import sys

from _common import Faulty, arg

START = int(arg(str(8 * 1024 * 1024)))
LINE = b"log: " + b"x" * 1018 + b"\n"     # 1 KB


class Flood(Faulty):
    def reply(self, message):
        sys.stderr.buffer.write(LINE * 256)
        sys.stderr.buffer.flush()
        return super().reply(message)


if __name__ == "__main__":
    for _ in range(START // len(LINE)):
        sys.stderr.buffer.write(LINE)
    sys.stderr.buffer.flush()
    sys.exit(Flood().serve())
