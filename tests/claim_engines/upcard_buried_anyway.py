"""The reference engine claiming the upcard is never buried (``dealer-discard: not-upcard``)
while it lets the dealer bury it all the same: its dealer's legal discards are those of the
seeds' rules. A case whose legal sets the runner re-derives under ``not-upcard`` must still
catch it at the discard (tests/test_requirements.py)."""

import sys

from conformance.mutants import change_table, steps, use_pure_python

use_pure_python()


def _upcard_buriable(table):
    for step in steps(table, "exchange"):
        step["may-discard-taken"] = True


change_table(_upcard_buriable)

from conformance import reference_engine  # noqa: E402

_hello = reference_engine.ReferenceEngine.hello


def hello(self, message):
    reply = _hello(self, message)
    reply["variants"] = {"euchre": {"options": {"dealer-discard": ["not-upcard"]}}}
    reply["commands"] = []
    return reply


reference_engine._HANDLERS["hello"] = hello

if __name__ == "__main__":
    sys.exit(reference_engine.main())
