"""The reference engine claiming no lone hands (``going-alone: false``) while it still asks the
maker whether he goes alone, and lets him: it plays the seeds' step for that decision whatever
it is sent. A case the runner plays under ``going-alone=false`` with the maker's decision
dropped (``steps_dropped:``) must still catch it, right after trumps are made
(tests/test_requirements_dropped.py)."""

import sys

from conformance.mutants import change_table, use_pure_python

use_pure_python()

# The seeds' step (spec/variants/euchre.yaml, hand.going-alone), which going-alone=false removes.
ASK_THE_MAKER = {"id": "going-alone", "kind": "offer", "phase": "alone", "to": "maker", "accept": "alone", "effect": "alone"}


def _maker_asked(table):
    ids = [step.get("id") for step in table["hand"]]
    if "going-alone" not in ids and "dealer-pickup" in ids:
        table["hand"].insert(ids.index("defending-alone" if "defending-alone" in ids else "dealer-pickup"), dict(ASK_THE_MAKER))


change_table(_maker_asked)

from conformance import reference_engine  # noqa: E402

_hello = reference_engine.ReferenceEngine.hello


def hello(self, message):
    reply = _hello(self, message)
    reply["variants"] = {"euchre": {"options": {"going-alone": [False]}}}
    reply["commands"] = []
    return reply


reference_engine._HANDLERS["hello"] = hello

if __name__ == "__main__":
    sys.exit(reference_engine.main())
