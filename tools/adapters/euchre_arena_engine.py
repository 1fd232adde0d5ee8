#!/usr/bin/env python3
"""Drive euchre-reasoning-arena (estern1011/euchre-reasoning-arena: a web arena where language
models play Euchre; its rules are the pure functions of lib/game/game.ts) over the Euchre Spec
protocol, as ``euchre``.

The engine is lib/game: ``createNewGame`` and ``startNewHand`` (deal), ``makeTrumpBid``,
``dealerDiscard``, ``playCard``, ``getNextPlayer`` and ``getValidCardsForPlay``, on a plain
``GameState``. ``euchre_arena_shim.ts`` is bundled with them by esbuild, keeps the state between
calls and is called through node_bridge.cjs; it adds no rule.

How it is driven, with none of its rules replaced:

- Deals: ``createNewGame`` itself (``startNewHand`` after the first hand), its shuffle
  (``Math.random``) fed the numbers that lay its pack out as the runner's deal (five cards to
  each of north, east, south, west, then the card turned up, then three left aside). Seats 0-3
  are north, east, south, west: the engine's clockwise order is the protocol's.
- Legal bids: those ``makeTrumpBid`` takes from the player to bid (each tried on the state,
  the result dropped). ``order`` and ``call`` carry its ``goingAlone`` flag, so they are held
  and the protocol's ``alone`` step decides.
- The discard: after an order-up the engine puts the upcard in the dealer's hand and its
  caller must call ``dealerDiscard`` before play (the arena's server does so at once); the
  adapter shows that as the ``discard`` step, the dealer discarding any of his six cards.
- Play: ``getValidCardsForPlay`` for the player ``getNextPlayer`` names; ``playCard`` validates
  and plays. Hand and game scores are the state's ``scores`` and ``gameScores``.

It declares ``euchre`` with the dealer stuck (``makeTrumpBid`` refuses his last pass in round
2: ``stick-the-dealer=true`` only), no lone defence, the eldest hand leading against a loner
(its lead is always the dealer's left), game to 5, 7, 10 or 11 (its ``winningScore``, told),
and ``first-dealer=random`` only (it cannot choose a first dealer from cards).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from adapter_support import (NamedCards, blank_state, checked_deal, checkout_commit, engine_dir,  # noqa: E402
                             fisher_yates_numbers, pack, run_adapter)
from jsonl_server import Refused  # noqa: E402
from node_engine import BridgeError, NodeBridge, bundled, node_handler  # noqa: E402
from protocol_adapter import MakeHeldForAlone, check_deal_awaited, table_target  # noqa: E402

PACK = pack()
SHIM = Path(__file__).resolve().parent / "euchre_arena_shim.ts"
CARDS = NamedCards({"9": "9", "T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"})
SUIT_NAME, SUIT_LETTER = CARDS.SUITS, CARDS.suit_letters
# createDeck's order before its shuffle: hearts, diamonds, clubs, spades by 9..ace
ENGINE_DECK = [f"{rank}{suit}" for suit in "HDCS" for rank in "9TJQKA"]
# What it plays (tests/test_adapter_declarations.py checks it against identify's record).
DECLARED_OPTIONS = {
    "stick-the-dealer": [True],
    "defending-alone": [False],
    "first-dealer": ["random"],
    "game-target": [5, 7, 10, 11],
    "lone-lead": ["eldest"],
}
HOW = "a checkout of estern1011/euchre-reasoning-arena (ESBUILD: the esbuild binary)"


# -- the mapping (no engine needed) ---------------------------------------------------------------
engine_card, token = CARDS.engine_card, CARDS.token


def deck_target(hands: list[list[str]], upcard: str, kitty: list[str]) -> list[str]:
    """The pack createNewGame deals as the runner's deal: five cards to each of seats 0-3 in
    turn, the upcard, then the three set aside."""
    return [c for seat in range(4) for c in hands[seat]] + [upcard] + kitty


def shuffle_numbers(target: list[str]) -> list[float]:
    """Math.random's values for shuffleDeck to give ``target``."""
    return fisher_yates_numbers(ENGINE_DECK, target)


# -- the protocol ---------------------------------------------------------------------------------
class Adapter(MakeHeldForAlone):
    """The protocol's side: the engine's state kept in node, read after each action."""

    NAME, LANGUAGE, URL = ("euchre-reasoning-arena (estern1011)", "TypeScript",
                           "https://github.com/estern1011/euchre-reasoning-arena")
    VARIANT, DECLARED, WHO = "euchre", DECLARED_OPTIONS, "euchre-reasoning-arena"
    NO_FIRST_DEALER = "euchre-reasoning-arena has no way to choose the first dealer from cards"
    TOLD = frozenset({"game-target"})                           # its winningScore

    def __init__(self, bridge: NodeBridge, commit: str = "unknown") -> None:
        self.bridge = bridge
        self.commit = commit
        self.pending = None
        self.target = 10
        self.start: tuple[int, list[int]] | None = None      # the first dealer and scores, until the first deal
        self.view: dict[str, Any] | None = None
        self.upcard: str | None = None

    def take_rules(self, message: dict[str, Any]) -> None:
        self.target = table_target(message)

    def new_game(self, message: dict[str, Any], dealer: int, scores: list[int]) -> dict[str, Any]:
        self.bridge.value("reset")
        self.start, self.view, self.pending, self.upcard = (dealer, list(scores)), None, None, None
        return self.observation()

    def in_game(self) -> bool:
        return self.start is not None

    # -- where the game stands --
    def awaiting_deal(self) -> bool:
        return self.view is None or self.view["phase"] == "hand_complete"

    def game_over(self) -> bool:
        return self.view is not None and self.view["phase"] == "game_complete"

    def discarding(self) -> bool:
        view = self.view
        return view["phase"] == "playing" and len(view["hands"][view["dealer"]]) == 6

    def to_act(self) -> int | None:
        if self.awaiting_deal() or self.game_over():
            return None
        if self.pending:
            return self.pending[0]
        view = self.view
        if view["phase"] == "trump_selection":
            return view["selection"]["bidder"]
        return view["dealer"] if self.discarding() else view["nextPlayer"]

    def legal(self) -> list[str]:
        seat, view = self.to_act(), self.view
        if seat is None:
            return []
        if self.pending:
            return ["pass", "alone"]
        if view["phase"] == "trump_selection":
            taken = self.bridge.value("bidsTaken", seat)
            return [f"call:{SUIT_LETTER[t[5:]]}" if t.startswith("call:") else t for t in taken]
        if self.discarding():
            return [f"discard:{token(c)}" for c in view["hands"][seat]]
        return [f"play:{token(c)}" for c in self.bridge.value("validCards", seat)]

    # -- the engine's part --
    def deal(self, message: dict[str, Any]) -> None:
        check_deal_awaited(self.game_over(), self.awaiting_deal())
        hands, upcard, _, kitty = checked_deal(message, 4, 5, PACK)
        dealer, scores = self.start
        self.view = self.bridge.value("deal", shuffle_numbers(deck_target(hands, upcard, kitty)),
                                      dealer, self.target, scores)
        self.pending, self.upcard = None, upcard

    def make(self, seat: int, bid: str, alone: bool) -> None:
        call = bid.partition(":")[2]
        self.engine("bid", seat, "order_up" if bid == "order" else "call_trump", SUIT_NAME[call] if call else None, alone)

    def act_on_engine(self, seat: int, action: str) -> None:
        kind, _, arg = action.partition(":")
        if self.view["phase"] == "trump_selection":
            if action not in self.legal():
                raise Refused("illegal_action", f"euchre-reasoning-arena's makeTrumpBid refuses {action!r}")
            if action == "pass":
                self.engine("bid", seat, "pass", None, False)
            else:
                self.hold(seat, action)
        elif self.discarding():
            if kind != "discard" or action not in self.legal():
                raise Refused("illegal_action", f"euchre-reasoning-arena's dealer discards a card he holds, not {action!r}")
            self.engine("discard", engine_card(arg))
        else:
            if kind != "play" or arg not in PACK:
                raise Refused("illegal_action", f"euchre-reasoning-arena has no play {action!r}")
            self.engine("play", seat, engine_card(arg))

    def engine(self, fn: str, *args: Any) -> None:
        """One of the engine's actions; its refusal (a thrown error) is the protocol's."""
        try:
            self.view = self.bridge.value(fn, *args)
        except BridgeError as exc:
            raise Refused("illegal_action", f"euchre-reasoning-arena refuses it: {exc}") from None

    # -- reading --
    def observation(self) -> dict[str, Any]:
        state = blank_state(2)
        view = self.view
        if view is None:
            dealer, scores = self.start
            state.update(dealer=dealer, scores=list(scores))
            return state
        over, waiting = self.game_over(), self.awaiting_deal()
        selection = view["selection"]
        if over:
            phase = "game-over"
        elif waiting:
            phase = "deal"
        elif self.pending:
            phase = "alone"
        elif selection:
            phase = f"bid-round-{selection['round']}"
        else:
            phase = "discard" if self.discarding() else "play"
        trump = SUIT_LETTER[view["trump"]] if view["trump"] else None
        maker = view["caller"]
        if self.pending:
            maker, trump = self.held_make(self.upcard)
        alone = view["alone"]
        tricks = list(view["tricks"])
        if view["current"]["cards"]:                            # a trick is shown from its first card
            tricks.append(view["current"])
        tricks = [{"leader": t["leader"], "cards": [[s, token(c)] for s, c in t["cards"]], "winner": t["winner"]}
                  for t in tricks]
        scores = list(view["gameScores"])
        hand_over = waiting or over
        dealer = view["dealer"]
        if waiting:                          # startNewHand will pass the deal clockwise
            dealer = (dealer + 1) % 4
        state.update(
            phase=phase, hand_number=view["handNumber"], dealer=dealer, to_act=self.to_act(),
            legal=self.legal(), trump=trump, maker=maker, alone=alone is not None,
            sitting_out=[(alone + 2) % 4] if alone is not None else [], tricks=tricks,
            hand_points=list(view["handScores"]) if hand_over else None, scores=scores,
            next_dealer=dealer if waiting else None, game_over=over,
            winner=(0 if scores[0] >= self.target else 1) if over else None,
        )
        state["upcard"] = self.upcard
        state["hands"] = [[token(c) for c in hand] for hand in view["hands"]]
        if selection and selection["round"] == 2 and not self.pending:
            state["turned_down"] = self.upcard[1]
        return state


def engine_file() -> tuple[Path, str]:
    """The bundle of our shim with the engine's lib/game (``~/`` aliased to the checkout), and
    the checkout's commit."""
    root = engine_dir("EUCHRE_ARENA_DIR", "euchre-reasoning-arena", HOW, ["lib/game/game.ts", "lib/game/card.ts"])
    built = bundled(SHIM, root / "build" / "euchre-arena.cjs", "euchre-reasoning-arena", {"~": root}, stale_before=SHIM)
    return built, checkout_commit(root)


def main() -> int:
    return run_adapter(lambda: node_handler(engine_file, Adapter))


if __name__ == "__main__":
    sys.exit(main())
