"""The protocol's requests answered for an adapter of an engine that plays one variant: the
part of every adapter that does not depend on its engine. ``OneVariantAdapter.handle`` takes
each request in the protocol's order of checks (``hello``, ``rules`` against what was
declared, ``bye``, ``new_game`` with a given dealer, then ``deal``, ``act``, ``state`` and
``legal`` within a game) and leaves the engine's part to the subclass's hooks.

The six adapters of engines written elsewhere each had this dispatch, and the refusals below,
as a copy of the same lines. One copy keeps their categories, wording and order the same, so
a difference between two engines' reports is the engines', never their adapters'.
"""

from __future__ import annotations

from typing import Any

from adapter_support import checked_act, declared_options_check, new_game_setup
from jsonl_server import Refused

IN_GAME = ("deal", "act", "state", "legal")


def hello_reply(name: str, version: str, language: str, url: str, variant: str,
                options: dict[str, list[Any]], no_first_dealer: str | None = None) -> dict[str, Any]:
    """The ``hello`` reply of an adapter that plays one variant with the declared options and
    no command: only the engine's facts differ between adapters. ``no_first_dealer``, where
    given, says why the engine cannot choose its first dealer from cards (``declines``)."""
    reply = {"protocol": 1, "engine": {"name": name, "version": version, "language": language, "url": url},
             "variants": {variant: {"options": options}}, "commands": []}
    if no_first_dealer:
        reply["declines"] = {"first-dealer": no_first_dealer}
    return reply


def table_target(message: dict[str, Any], default: int = 10) -> int:
    """The game target of a ``rules`` request's table (``default`` when the table gives none),
    for an engine that is told its target rather than declaring a fixed one."""
    return (message.get("table") or {}).get("game", {}).get("target", default)


def check_deal_awaited(game_over: bool, awaiting: bool) -> None:
    """Refuse a ``deal`` (``wrong_phase``) after the game or while a hand is in progress, the
    game's end named first."""
    if game_over:
        raise Refused("wrong_phase", "the game is over")
    if not awaiting:
        raise Refused("wrong_phase", "a hand is in progress")


def check_turn(seat: int, to_act: int | None, game_over: bool) -> None:
    """Refuse an ``act`` when no one is to act (``wrong_phase``, saying whether the game is over
    or a deal is awaited) or when ``seat`` is not the one to act (``out_of_turn``), before the
    engine is asked whether the action is legal."""
    if to_act is None:
        raise Refused("wrong_phase", "no one is to act: " + ("the game is over" if game_over else "a deal is awaited"))
    if seat != to_act:
        raise Refused("out_of_turn", f"seat {seat} acted but seat {to_act} is to act")


class OneVariantAdapter:
    """An adapter's protocol side. A subclass names its engine and what it declares (the
    upper-case attributes) and supplies the engine's part: ``new_game``, ``in_game``, ``deal``,
    ``act`` and ``observation`` (and ``take_rules``, ``end`` where the engine needs them).

    The engines driven so far cannot choose a first dealer from cards (they pick it at random,
    or have no first deal to choose), so ``hello`` declines ``first-dealer`` with
    ``NO_FIRST_DEALER`` as the reason, and a ``first_dealer`` sent all the same is refused as
    ``unsupported``: such a case is not run, not failed, whether or not the variant has an
    option for the first dealer."""

    NAME: str                          # the engine, in hello
    LANGUAGE: str
    URL: str
    VARIANT: str
    DECLARED: dict[str, list[Any]]     # option -> the values it plays
    WHO: str                           # how a refusal of rules names the engine
    NO_FIRST_DEALER: str
    UNITS = 2                          # the scores' units: sides, or players who score alone
    TOLD: frozenset[str] = frozenset()           # options passed to the engine (it plays the value it is told)
    ADAPTER_PLAYS: frozenset[str] = frozenset()  # options the adapter's own game loop plays, not the engine

    commit = "unknown"
    rules_ok = False

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        """The reply to one request (a refusal raised as ``Refused``)."""
        kind = message.get("type")
        if kind == "hello":
            return self.hello()
        if kind == "rules":
            self.rules_ok = False
            declared_options_check(message, self.VARIANT, self.DECLARED, self.WHO)
            self.take_rules(message)
            self.rules_ok = True
            return {}
        if kind == "bye":
            self.end()
            return {}
        if kind == "new_game":
            if not self.rules_ok:
                raise Refused("wrong_phase", "no rules: send rules first")
            dealer, first, scores = new_game_setup(message, 4, self.UNITS)
            if first is not None:
                raise Refused("unsupported", self.NO_FIRST_DEALER)
            return {"state": self.new_game(message, dealer, scores)}
        if kind not in IN_GAME:
            raise Refused("bad_message", f"unknown message type {kind!r}")
        if not self.in_game():
            raise Refused("wrong_phase", "no game: send new_game first")
        if kind == "deal":
            self.deal(message)
        elif kind == "act":
            self.act(*checked_act(message))
        state = self.observation()
        if kind == "legal":
            return {"to_act": state["to_act"], "legal": state["legal"]}
        return {"state": state}

    def hello(self) -> dict[str, Any]:
        """The ``hello`` reply from the engine's facts."""
        return hello_reply(self.NAME, self.commit, self.LANGUAGE, self.URL, self.VARIANT, self.DECLARED, self.NO_FIRST_DEALER)

    def take_rules(self, message: dict[str, Any]) -> None:
        """Read what the engine is told of accepted rules (nothing, unless overridden)."""

    def end(self) -> None:
        """At ``bye``: release what the engine holds (nothing, unless overridden)."""

    def new_game(self, message: dict[str, Any], dealer: int, scores: list[int]) -> dict[str, Any]:
        """Start a game with this first dealer and these scores; its state."""
        raise NotImplementedError

    def in_game(self) -> bool:
        """Whether a game was started (requests within a game are refused before)."""
        raise NotImplementedError

    def deal(self, message: dict[str, Any]) -> None:
        """Deal the request's cards (refused as the protocol says where they cannot be)."""
        raise NotImplementedError

    def act(self, seat: int, action: str) -> None:
        """Take ``seat``'s ``action`` (refused where it is out of turn or the engine does not take it)."""
        raise NotImplementedError

    def observation(self) -> dict[str, Any]:
        """The protocol's state, read from the engine."""
        raise NotImplementedError


ALONE_ANSWERS = ("pass", "alone")


class MakeHeldForAlone(OneVariantAdapter):
    """The adapter of an engine that takes an order or a call together with whether the maker
    goes alone (one call with a ``goingAlone`` flag, or ``go_alone`` in place of the call): the
    adapter holds the order or call, shows the protocol's ``alone`` step to the maker, and gives
    the engine both at once when he answers. The three TypeScript engines that do so had this
    flow and its refusal each; one copy keeps them the same.

    A subclass supplies ``game_over``, ``to_act``, ``act_on_engine`` (an action while nothing is
    held; it calls ``hold`` for an order or a call) and ``make`` (the held bid and the answer to
    the engine)."""

    pending: tuple[int, str] | None = None     # (the maker, his order or call) until alone is decided

    def act(self, seat: int, action: str) -> None:
        check_turn(seat, self.to_act(), self.game_over())
        if self.pending is None:
            self.act_on_engine(seat, action)
            return
        if action not in ALONE_ANSWERS:
            raise Refused("illegal_action", f"{self.WHO} asks only whether to go alone")
        (maker, bid), self.pending = self.pending, None
        self.make(maker, bid, action == "alone")

    def hold(self, seat: int, bid: str) -> None:
        """Hold ``seat``'s order (``order``) or call (``call:S``) until he says whether he goes alone."""
        self.pending = (seat, bid)

    def held_make(self, upcard: str) -> tuple[int, str]:
        """(maker, trump suit) of the bid held, shown while its maker decides."""
        maker, bid = self.pending
        return maker, upcard[1] if bid == "order" else bid.partition(":")[2]

    def game_over(self) -> bool:
        raise NotImplementedError

    def to_act(self) -> int | None:
        raise NotImplementedError

    def act_on_engine(self, seat: int, action: str) -> None:
        """``seat``'s ``action`` while no bid is held (its turn already checked)."""
        raise NotImplementedError

    def make(self, seat: int, bid: str, alone: bool) -> None:
        """Give the engine ``seat``'s held ``bid`` (``order`` or ``call:S``) with his answer."""
        raise NotImplementedError
