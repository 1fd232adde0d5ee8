"""Prints garbage: answers the N-th act request of a hand (default 5) with a line that is
not JSON.

Expected outcome: ``error`` (a reply that is not JSON); a fresh engine passes the next case."""

import sys

from _common import Faulty, arg, write_raw

AFTER = int(arg("5"))


class Garbage(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and self.acts == AFTER:
            write_raw(b"DEBUG: thinking about the next card... \x00\xff{\n")
            return None
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(Garbage().serve())
