#!/usr/bin/env python3
"""Drive 67cards' Euchre (sclarke500/euchre-app, ``packages/shared/src/euchre/``) over the
Euchre Spec protocol.

The engine is a pure state machine in TypeScript: ``createEuchreGame``, ``dealRound``,
``startBiddingRound1``, ``applyBid``, ``applyDealerDiscard``, ``applyPlay``, ``continueAfterTrick``,
``startNextRound``, ``getLegalCards``; an illegal action returns the very state it was given
("Illegal actions return the same state reference"). ``EUCHRE_APP_DIR`` names the checkout;
its ``packages/shared/src/euchre/index.ts`` is bundled by esbuild into ``build/euchre.cjs``
there (once) and called through node_bridge.cjs, which keeps the states in node and tells
when a result is the state passed in.

How it is read, with none of its rules replaced:

- Legal actions. The engine lists legal cards (``getLegalCards``) but not legal bids, so a
  bid, an alone decision or a discard is legal exactly when the engine accepts it: every
  candidate (``pass``, ``order`` as ``OrderUp``, ``call:<suit>`` as ``CallTrump`` in either
  round, each card of the dealer's hand) is tried on the current state and kept when the
  result is a new state. An action is then refused as ``illegal_action`` when the engine
  returns the same state.
- Going alone is part of the engine's bid (``goingAlone``). The protocol asks it as a step of
  its own after trumps are made, so an ``order`` or ``call`` is held (the state shows the
  trump and maker it would make) and applied with ``goingAlone`` once ``alone`` or ``pass``
  is chosen. When the engine makes the maker alone whatever was asked (its ``canadianLoner``
  rule), the step is not offered.
- Deals: ``dealRound`` shuffles the engine's own ``createDeck`` with an injected ``rng``; the
  adapter computes the numbers that make its Fisher-Yates shuffle lay the pack out as the
  runner's deal (seat 0..3 five cards each, then the kitty, whose first card is turned up).
  After all pass in round 2 the engine redeals at once with ``Math.random``; that deal is
  set aside and the next ``deal`` is laid out on the engine's new dealer.
- A completed trick leaves the engine in ``TrickComplete``; ``continueAfterTrick`` is called
  as its hosts do. The next hand starts with ``startNextRound`` (which moves the deal left).

It declares ``euchre`` with its two options (``stickTheDealer``, ``canadianLoner``) as it
plays it: no lone defence (``defending-alone=false``), the eldest hand leading against a loner
(``lone-lead=eldest``, what ``identify`` finds), and, as it has no way to choose a first dealer
from cards, ``first-dealer=random`` only (``first_dealer`` is refused as ``unsupported``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from adapter_support import (also_standard_lone_defence, blank_state, checked_deal, checkout_commit,  # noqa: E402
                             engine_dir, fisher_yates_numbers, pack, run_adapter)
from jsonl_server import Refused  # noqa: E402
from node_engine import NodeBridge, Ref, Result, bundled, node_handler, rng  # noqa: E402
from protocol_adapter import OneVariantAdapter, check_deal_awaited, check_turn  # noqa: E402

PACK = pack()
SUIT_NAME = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_LETTER = {name: letter for letter, name in SUIT_NAME.items()}
RANK_NAME = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
RANK_LETTER = {name: letter for letter, name in RANK_NAME.items()}
# createDeck's order: Object.values(Suit) (hearts, diamonds, clubs, spades) by Object.values(Rank)
ENGINE_DECK = [f"{suit}-{rank}" for suit in ("hearts", "diamonds", "clubs", "spades") for rank in ("9", "10", "J", "Q", "K", "A")]
PHASES = {"bidding_round_1": "bid-round-1", "bidding_round_2": "bid-round-2", "dealer_discard": "discard",
          "playing": "play", "round_complete": "deal", "game_over": "game-over", "setup": "deal", "dealing": "deal"}
# What it plays, reconciled with `euchre-spec identify` (tests/test_adapter_declarations.py):
# the lead against a loner is the eldest hand's (identify: lone-lead=eldest), the first dealer
# is given (it cannot deal for a black jack).
DECLARED_OPTIONS = {
    "stick-the-dealer": [False, True],
    "canadian-loner": [False, True],
    "defending-alone": [False],
    "first-dealer": ["random"],
    "game-target": [10],
    "lone-lead": ["eldest"],
}
HOW = "a checkout of sclarke500/euchre-app (ESBUILD: the esbuild binary, to build it once)"


# -- the mapping (no engine needed) ---------------------------------------------------------------
def card_id(token: str) -> str:
    """A protocol card (``TH``) as the engine's card id (``hearts-10``)."""
    return f"{SUIT_NAME[token[1]]}-{RANK_NAME[token[0]]}"


def token(card: dict[str, Any]) -> str:
    """An engine card (``{"suit": "hearts", "rank": "10"}``) as the protocol's (``TH``)."""
    return RANK_LETTER[card["rank"]] + SUIT_LETTER[card["suit"]]


def shuffle_numbers(target: list[str], start: list[str] = ENGINE_DECK) -> list[float]:
    """The numbers ``rng`` must return for shuffleDeck (Fisher-Yates from the end, ``j =
    floor(rng() * (i + 1))``) to turn ``start`` into ``target``."""
    return fisher_yates_numbers(start, target)


def deal_target(hands: list[list[str]], upcard: str, kitty: list[str]) -> list[str]:
    """dealCards gives seat k cards 5k..5k+4 and the kitty the last four, the first turned up."""
    return [card_id(c) for hand in hands for c in hand] + [card_id(upcard)] + [card_id(c) for c in kitty]


def bid(seat: int, action: str, alone: bool = False) -> dict[str, Any] | None:
    """The engine's bid for a protocol bidding action (None for a token that is no bid)."""
    kind, _, arg = action.partition(":")
    if kind == "pass" and not arg:
        return {"playerId": seat, "action": "pass"}
    if kind == "order" and not arg:
        return {"playerId": seat, "action": "order_up", "goingAlone": alone}
    if kind == "call" and arg in SUIT_NAME:
        return {"playerId": seat, "action": "call_trump", "suit": SUIT_NAME[arg], "goingAlone": alone}
    return None


BID_CANDIDATES = ["pass", "order"] + [f"call:{s}" for s in "CDHS"]


# -- the protocol ---------------------------------------------------------------------------------
class Adapter(OneVariantAdapter):
    """The protocol's side: the engine's states kept in node, the current one read as plain data."""

    NAME, LANGUAGE, URL = "67cards euchre (sclarke500/euchre-app)", "TypeScript", "https://github.com/sclarke500/euchre-app"
    VARIANT, DECLARED, WHO = "euchre", DECLARED_OPTIONS, "67cards euchre"
    NO_FIRST_DEALER = "67cards euchre has no way to choose the first dealer from cards"
    TOLD = frozenset({"stick-the-dealer", "canadian-loner"})     # passed to its createEuchreGame

    def __init__(self, bridge: NodeBridge, commit: str = "unknown") -> None:
        self.bridge = bridge
        self.commit = commit
        self.rules: dict[str, bool] = {}      # the engine's rule flags, from the accepted rules
        self.ref: Ref | None = None
        self.value: dict[str, Any] | None = None
        self.pending: tuple[int, str] | None = None    # an order or call held until alone is decided
        self.hand_number = 0
        self.hand_points: list[int] | None = None
        self.awaiting_deal = True
        self.before: list[int] = [0, 0]

    def take_rules(self, message: dict[str, Any]) -> None:
        options = message.get("options") or {}
        self.rules = {"stickTheDealer": bool(options.get("stick-the-dealer")),
                      "canadianLoner": bool(options.get("canadian-loner"))}

    def new_game(self, message: dict[str, Any], dealer: int, scores: list[int]) -> dict[str, Any]:
        game = self.bridge.call("createEuchreGame", ["0", "1", "2", "3"], -1, self.rules).value
        game["currentDealer"] = dealer
        game["scores"] = [{"teamId": 0, "score": scores[0]}, {"teamId": 1, "score": scores[1]}]
        self.set_state_fields(game)
        self.hand_number, self.hand_points, self.pending, self.awaiting_deal = 0, None, None, True
        return self.observation()

    def in_game(self) -> bool:
        return self.ref is not None

    # -- engine calls --
    def keep(self, result: Result) -> None:
        """Make ``result`` the current state, dropping the one it replaces from node."""
        old = self.ref
        self.ref, self.value = result.ref, result.value
        if old is not None and old.ref != result.ref:
            self.bridge.drop([old])

    def set_state_fields(self, game: dict[str, Any]) -> None:
        """A fresh game with the case's dealer and scores (plain data of the engine's state)."""
        self.keep(self.bridge.call("startBiddingRound1", game))     # Setup: returns the same state, kept by node
        self.value = game

    def deal(self, message: dict[str, Any]) -> None:
        """Deal through the engine's own dealRound or startNextRound, its shuffle fed the numbers
        that lay the pack out as the runner's deal."""
        phase = self.value["phase"]
        check_deal_awaited(bool(self.value["gameOver"]), self.awaiting_deal)
        hands, upcard, _, kitty = checked_deal(message, 4, 5, PACK)
        numbers = rng(shuffle_numbers(deal_target(hands, upcard, kitty)))
        self.before = self.scores()
        if phase == "round_complete":
            dealt = self.bridge.call("startNextRound", Ref(self.ref.ref), numbers)
        else:                     # the first hand, or a redeal after all passed (the engine's deal set aside)
            game = dict(self.value, phase="setup", currentRound=None)
            dealt = self.bridge.call("dealRound", game, numbers)
        self.keep(self.bridge.call("startBiddingRound1", dealt.ref))
        self.bridge.drop([dealt.ref])
        self.hand_number += 1
        self.hand_points, self.pending, self.awaiting_deal = None, None, False

    def scores(self) -> list[int]:
        """The sides' scores, as the engine keeps them by team."""
        return [team["score"] for team in self.value["scores"]]

    def to_act(self) -> int | None:
        """The seat to act: the bidder of a held order or call while alone is asked."""
        if self.awaiting_deal or self.value["phase"] == "game_over":
            return None
        return self.pending[0] if self.pending else self.value["currentRound"]["currentPlayer"]

    def forced_alone(self, seat: int, action: str) -> bool:
        """Whether the engine makes this bid alone even when not asked to (the Canadian loner)."""
        result = self.bridge.call("applyBid", self.ref, bid(seat, action, False))
        alone = bool(((result.value.get("currentRound") or {}).get("trump") or {}).get("goingAlone"))
        self.bridge.drop([result.ref])
        return alone

    def legal(self) -> list[str]:
        """The actions the engine accepts (a new state) or lists, in the protocol's tokens."""
        seat = self.to_act()
        if seat is None:
            return []
        phase = self.value["phase"]
        if self.pending:
            _, action = self.pending
            accepted = self.bridge.probe("applyBid", [[self.ref, bid(seat, action, alone)] for alone in (False, True)])
            return [name for name, ok in zip(["pass", "alone"], accepted) if ok]
        if phase in ("bidding_round_1", "bidding_round_2"):
            accepted = self.bridge.probe("applyBid", [[self.ref, bid(seat, a)] for a in BID_CANDIDATES])
            return [a for a, ok in zip(BID_CANDIDATES, accepted) if ok]
        hand = [token(c) for c in self.value["players"][seat]["hand"]]
        if phase == "dealer_discard":
            accepted = self.bridge.probe("applyDealerDiscard", [[self.ref, card_id(c)] for c in hand])
            return [f"discard:{c}" for c, ok in zip(hand, accepted) if ok]
        if phase == "playing":
            return [f"play:{token(c)}" for c in self.bridge.value("getLegalCards", self.ref, seat)]
        return []

    def act(self, seat: int, action: str) -> None:
        """Apply a legal action; an order or call is held until alone is decided (the engine
        takes both in one bid), unless the engine makes the maker alone anyway."""
        check_turn(seat, self.to_act(), bool(self.value["gameOver"]))
        if action not in self.legal():
            raise Refused("illegal_action", f"67cards euchre returns the same state for {action!r}")
        phase = self.value["phase"]
        if self.pending:
            held = self.pending[1]
            self.pending = None
            self.apply(self.bridge.call("applyBid", self.ref, bid(seat, held, action == "alone")))
        elif phase in ("bidding_round_1", "bidding_round_2"):
            if action != "pass" and not self.forced_alone(seat, action):
                self.pending = (seat, action)
                return
            self.apply(self.bridge.call("applyBid", self.ref, bid(seat, action, False)))
        elif phase == "dealer_discard":
            self.apply(self.bridge.call("applyDealerDiscard", self.ref, card_id(action.partition(":")[2])))
        else:
            self.apply(self.bridge.call("applyPlay", self.ref, seat, card_id(action.partition(":")[2])))

    def apply(self, result: Result) -> None:
        """Keep the state an action led to, stepping past a completed trick as the engine's
        hosts do, and score a hand that ended."""
        self.keep(result)
        phase = self.value["phase"]
        if phase == "trick_complete" and len(self.value["currentRound"]["tricks"]) < 5:
            self.keep(self.bridge.call("continueAfterTrick", self.ref))
        elif phase == "dealing":          # all passed in round 2: the engine redealt at once
            self.hand_points, self.awaiting_deal = [0, 0], True
        elif phase in ("round_complete", "game_over"):
            self.hand_points = [a - b for a, b in zip(self.scores(), self.before)]
            self.awaiting_deal = phase == "round_complete"

    # -- reading the engine's state --
    def observation(self) -> dict[str, Any]:
        """The protocol's state, read from the engine's current state."""
        value = self.value
        rnd = value.get("currentRound") or {}
        state = blank_state(2)
        over = value["phase"] == "game_over"
        phase = "game-over" if over else "deal" if self.awaiting_deal else PHASES.get(value["phase"], value["phase"])
        if self.pending:
            phase = "alone"
        trump = rnd.get("trump") or None
        maker = trump["calledBy"] if trump else None
        trump_suit = SUIT_LETTER[trump["suit"]] if trump else None
        if self.pending:
            seat, action = self.pending
            maker = seat
            upcard = rnd.get("turnUpCard")
            trump_suit = action.partition(":")[2] or (SUIT_LETTER[upcard["suit"]] if upcard else None)
        redealt = self.awaiting_deal and value["phase"] == "dealing"
        alone_player = rnd.get("alonePlayer")
        tricks = [] if redealt else [self.trick(t) for t in rnd.get("tricks", [])]
        current = rnd.get("currentTrick") or {}
        if current.get("cards") and not redealt:
            tricks.append(self.trick(current))
        upcard = rnd.get("turnUpCard")
        dealer = value["currentDealer"]
        if self.awaiting_deal and value["phase"] == "round_complete":
            dealer = (dealer + 1) % 4                          # startNextRound moves the deal left
        state.update(
            phase=phase, hand_number=self.hand_number, dealer=dealer if not over else rnd.get("dealer", dealer),
            to_act=self.to_act(), legal=self.legal(),
            trump=None if redealt else trump_suit, maker=None if redealt else maker,
            alone=bool(trump and trump.get("goingAlone")) and not redealt,
            sitting_out=[(alone_player + 2) % 4] if alone_player is not None and not redealt else [],
            tricks=tricks, hand_points=self.hand_points, scores=self.scores(),
            next_dealer=dealer if self.awaiting_deal and self.hand_number > 0 else None,
            game_over=over, winner=value.get("winner") if over else None,
            upcard=None if redealt or not upcard else token(upcard),
            hands=[[token(c) for c in p["hand"]] for p in value["players"]] if not redealt else [[], [], [], []],
        )
        if value["phase"] == "bidding_round_2" and upcard and not self.pending:
            state["turned_down"] = SUIT_LETTER[upcard["suit"]]
        if redealt:                        # the engine set the thrown-in hand aside: what it no longer has is left out
            state.pop("hands")
            state.pop("upcard")
        return state

    @staticmethod
    def trick(trick: dict[str, Any]) -> dict[str, Any]:
        """An engine trick as the protocol's (its leader the first to play)."""
        cards = [[played["playerId"], token(played["card"])] for played in trick["cards"]]
        return {"leader": cards[0][0] if cards else None, "cards": cards, "winner": trick.get("winnerId")}


def engine_file() -> tuple[Path, str]:
    """The bundle of the engine's own entry point, and the checkout's commit."""
    root = engine_dir("EUCHRE_APP_DIR", "67cards euchre (sclarke500/euchre-app)", HOW,
                      ["packages/shared/src/euchre/index.ts"])
    built = bundled(root / "packages/shared/src/euchre/index.ts", root / "build" / "euchre.cjs", "67cards euchre")
    return built, checkout_commit(root)


def main() -> int:
    """Serve the protocol (``--standard``: also declaring the lone defence it lacks)."""
    also_standard_lone_defence(DECLARED_OPTIONS, sys.argv[1:])
    return run_adapter(lambda: node_handler(engine_file, Adapter))


if __name__ == "__main__":
    sys.exit(main())
