"""A game as the fuzzer plays it: the setup, each hand's deal and the steps taken.

A script is all that is needed to replay a game on any engine, so it is what a divergence
keeps, what the shrinker rewrites and what a case file is written from. A step is a move
of the seat to act or a *probe*: a request the rules must refuse (a token that is not
legal, a seat that is not to act), followed by a ``state`` request showing nothing changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterator


@dataclass(frozen=True)
class Step:
    seat: int
    action: str
    probe: bool = False
    reject: str | None = None      # for a probe: the category the reference refused it with
    views: tuple[int, ...] = ()    # seats whose view (``state`` with a ``seat``) is asked for after the step


@dataclass
class Hand:
    deal: dict[str, Any]                       # the deal request's fields: hands, upcard, widow, kitty
    steps: list[Step] = field(default_factory=list)


@dataclass
class Script:
    setup: dict[str, Any]                      # the new_game request's fields: dealer or first_dealer, scores
    hands: list[Hand] = field(default_factory=list)

    @property
    def steps(self) -> int:
        return sum(len(hand.steps) for hand in self.hands)

    def copy(self) -> "Script":
        return Script(dict(self.setup), [Hand(hand.deal, list(hand.steps)) for hand in self.hands])

    def requests(self) -> Iterator[tuple["Position", dict[str, Any]]]:
        """Every request of the game in order, each with where it stands in the script."""
        yield Position("new_game"), {"type": "new_game", **self.setup}
        for h, hand in enumerate(self.hands):
            yield Position("deal", h), {"type": "deal", **hand.deal}
            for s, step in enumerate(hand.steps):
                yield Position("probe" if step.probe else "act", h, s), {"type": "act", "seat": step.seat,
                                                                         "action": step.action}
                if step.probe:
                    yield Position("state", h, s), {"type": "state"}
                for seat in step.views:
                    yield Position("view", h, s), {"type": "state", "seat": seat}

    def to_json(self) -> dict[str, Any]:
        return {"setup": self.setup, "hands": [{"deal": hand.deal, "steps": [
            {"seat": s.seat, "action": s.action, **({"probe": True} if s.probe else {}),
             **({"views": list(s.views)} if s.views else {})} for s in hand.steps]} for hand in self.hands]}


@dataclass(frozen=True)
class Position:
    """Where a request stands: its kind, the hand (0-based) and the step within the hand."""

    kind: str
    hand: int | None = None
    step: int | None = None

    def describe(self) -> str:
        if self.kind == "new_game":
            return "the new game"
        if self.kind == "deal":
            return f"hand {self.hand + 1}, the deal"
        what = {"act": "step", "probe": "step (a request to refuse)", "state": "state after the refused step",
                "view": "a seat's view after step"}[self.kind]
        return f"hand {self.hand + 1}, {what} {self.step + 1}"


def truncated(script: Script, position: Position) -> Script:
    """The script up to and including the request at ``position`` (a probe keeps its state check)."""
    if position.kind == "new_game":
        return Script(dict(script.setup), [])
    hands = [Hand(hand.deal, list(hand.steps)) for hand in script.hands[:position.hand + 1]]
    last = hands[-1]
    last.steps = [] if position.kind == "deal" else last.steps[:position.step + 1]
    if last.steps and position.kind != "view":         # the views asked after the step come after it
        last.steps[-1] = replace(last.steps[-1], views=())
    return Script(dict(script.setup), hands)


def with_step(script: Script, hand: int, index: int, step: Step | None) -> Script:
    """A copy with step ``index`` of hand ``hand`` replaced (``None``: removed), later steps kept."""
    copy = script.copy()
    steps = copy.hands[hand].steps
    if step is None:
        del steps[index]
    else:
        steps[index] = replace(step)
    return copy
