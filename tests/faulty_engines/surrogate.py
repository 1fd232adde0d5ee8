"""Answers the N-th act request of a hand (default 5) with an error whose message holds a
lone surrogate (``"\\ud800"``): JSON that decodes, but to a string that is no valid Unicode
and cannot be written to a UTF-8 report.

Expected outcome: ``error`` (a reply that is not valid Unicode), and a report written
in full."""

import sys

from _common import Faulty, arg, write_raw

AFTER = int(arg("5"))


class Surrogate(Faulty):
    def reply(self, message):
        if message.get("type") == "act" and self.acts == AFTER:
            write_raw(b'{"id":%d,"ok":false,"error":{"category":"internal","message":"bad \\ud800 text"}}\n' % message["id"])
            return None
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(Surrogate().serve())
