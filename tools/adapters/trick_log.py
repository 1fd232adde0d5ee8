"""The protocol's tricks kept by an adapter whose engine keeps none it could be read from (the
RLCard games drop a trick's cards once it is won): each play is noted as the runner sent it,
and the winner is noted from the engine (the seat it gives the next lead), never worked out
here. Both RLCard adapters kept the same record with the same lines; one copy keeps their
tricks alike."""

from __future__ import annotations

from typing import Any


def add_play(tricks: list[dict[str, Any]], seat: int, card: str) -> None:
    """Note ``seat`` playing ``card``: to the trick in progress, or leading a new one when there
    is none or the last one has its winner."""
    if not tricks or tricks[-1]["winner"] is not None:
        tricks.append({"leader": seat, "cards": [], "winner": None})
    tricks[-1]["cards"].append([seat, card])


def copied_tricks(tricks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of the record to put in a reply, so that a later play noted in the record does not
    change a state already answered."""
    return [dict(t, cards=[list(c) for c in t["cards"]]) for t in tricks]
