"""Says hello in a shape the protocol does not allow, to be judged more kindly than it
deserves. ``lying_hello.py KIND``:

- ``variants-list``: ``"variants": ["euchre"]`` (a list is neither "*" nor a map: read as a
  declaration of nothing, it would mark every case ``unsupported`` and pass the run);
- ``protocol-float``: ``"protocol": 1.0``; ``protocol-true``: ``"protocol": true``;
- ``commands-string``: ``"commands": "perft deal-deck"`` (matched as a substring, it
  would declare commands it never named).

Expected outcome: ``error`` at the engine's start for every case, then the run gives up
(the circuit breaker) and exits 1."""

import sys

from _common import Faulty, arg

KIND = arg("variants-list")


class LyingHello(Faulty):
    def reply(self, message):
        reply = super().reply(message)
        if message.get("type") == "hello":
            if KIND == "variants-list":
                reply["variants"] = ["euchre"]
            elif KIND == "protocol-float":
                reply["protocol"] = 1.0
            elif KIND == "protocol-true":
                reply["protocol"] = True
            else:
                reply["commands"] = "perft deal-deck"
        return reply


if __name__ == "__main__":
    sys.exit(LyingHello().serve())
