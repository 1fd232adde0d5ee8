"""Perft counts by OpenSpiel's euchre, for positions under the rules it shares with a table.

OpenSpiel (``pip install open-spiel``) plays one hand: stick the dealer, the dealer discards
one of the original five cards, the maker decides on going alone after that discard, no
lone defence (by default), and the first lead goes to the dealer's left, skipping a player
who sits out. Under the matching options of ``euchre.yaml`` every legal action of ours has
one of OpenSpiel's, so the two perft counts of a position must agree. The position is set up
through the OpenSpiel adapter (tools/adapters/openspiel_engine.py), which maps our deals and
actions onto OpenSpiel's chance events and action ids; the counting is OpenSpiel's own.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools" / "adapters"))

SHARED_OPTIONS = {"stick-the-dealer": True, "alone-declared": "after-exchange", "dealer-discard": "not-upcard",
                  "defending-alone": False, "lone-lead": "eldest"}


def position(table: dict, dealer: int, hands: list[list[str]], upcard: str, steps: list[dict]):
    """An OpenSpiel state for the deal and the steps (seat and action) of a case."""
    from openspiel_engine import Adapter

    adapter = Adapter()
    adapter.handle({"type": "rules", "variant": "euchre", "options": table["selected"], "table": table})
    adapter.handle({"type": "new_game", "dealer": dealer})
    adapter.handle({"type": "deal", "hands": hands, "upcard": upcard})
    for step in steps:
        adapter.act(step["seat"], step["action"])
    return adapter.state


def perft(state, depth: int) -> int:
    from openspiel_engine import _perft

    return _perft(state, depth)
