"""Answers every request correctly, each just under the per-reply timeout: it sleeps
SECONDS minus MARGIN before each reply after hello (``just_under.py [SECONDS [MARGIN]]``,
default 1.0 and 0.05, for a run with ``--timeout 1``). No single reply is late, so only
the case budget (``--case-timeout``) stops a case.

Expected outcome: ``timeout`` for each case that needs more requests than fit in the case
budget, ended when the budget is spent (not at the next request, nor after the reply in
flight), each such case named in the report as having hit the case budget; ``pass`` for
a case short enough. A run of C cases takes at most about C times the case budget."""

import sys
import time

from _common import Faulty, arg

SECONDS = float(arg("1.0"))
MARGIN = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05


class JustUnder(Faulty):
    def reply(self, message):
        if message.get("type") != "hello":
            time.sleep(max(0.0, SECONDS - MARGIN))
        return super().reply(message)


if __name__ == "__main__":
    sys.exit(JustUnder().serve())
