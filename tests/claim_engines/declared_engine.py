"""The reference engine behind a hello of its caller's choosing: ``declared_engine.py JSON``
answers hello with ``{"variants": JSON, "commands": []}`` (by default the protocol page's
minimal claim, ``{"euchre": {}}``), so a run checks only what that claim covers."""

import json
import sys

from conformance import reference_engine

_hello = reference_engine.ReferenceEngine.hello


def hello(self, message):
    reply = _hello(self, message)
    reply["variants"] = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {"euchre": {}}
    reply["commands"] = []
    return reply


reference_engine._HANDLERS["hello"] = hello

if __name__ == "__main__":
    sys.exit(reference_engine.main())
