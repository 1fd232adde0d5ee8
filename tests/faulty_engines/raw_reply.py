"""Writes a reply the runner must not read as one, in one of several ways, on the N-th act
request of a hand (default 5). ``raw_reply.py KIND [N]``:

- ``utf16``: the reply encoded in UTF-16 (JSON allows nothing but UTF-8 on the wire);
- ``surrogate-bytes``: the bytes ED A0 80 (a surrogate encoded as if it were a character:
  not UTF-8, though Python's ``surrogatepass`` would read it);
- ``huge-int``: a 5000-digit integer in the reply;
- ``nan``: ``NaN`` as a value (not JSON);
- ``ok-string``: ``"ok": "false"``; ``ok-one``: ``"ok": 1``; ``id-float``: the id as ``5.0``;
- ``ascii``: a plain line of debug text.

Expected outcome: ``error`` naming the fault; a fresh engine passes the next case."""

import json
import sys

from _common import Faulty, arg, write_raw

KIND = arg("utf16")
AFTER = int(sys.argv[2]) if len(sys.argv) > 2 else 5


class RawReply(Faulty):
    def reply(self, message):
        reply = super().reply(message)
        if message.get("type") != "act" or self.acts != AFTER:
            return reply
        if KIND == "utf16":
            write_raw(json.dumps(reply).encode("utf-16") + b"\n")
        elif KIND == "surrogate-bytes":
            write_raw(json.dumps(reply).encode("utf-8")[:-1] + b',"x_note":"\xed\xa0\x80"}\n')
        elif KIND == "huge-int":
            write_raw(json.dumps(reply).encode("utf-8")[:-1] + b',"x_big":' + b"7" * 5000 + b"}\n")
        elif KIND == "nan":
            write_raw(json.dumps(reply).encode("utf-8")[:-1] + b',"x_nan":NaN}\n')
        elif KIND == "ok-string":
            return {**reply, "ok": "false"}
        elif KIND == "ok-one":
            return {**reply, "ok": 1}
        elif KIND == "id-float":
            return {**reply, "id": float(reply["id"])}
        else:
            write_raw(b"DEBUG: thinking about the next card\n")
        return None


if __name__ == "__main__":
    sys.exit(RawReply().serve())
