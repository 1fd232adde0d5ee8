#!/usr/bin/env python3
"""Drive euchre-webrtc (JeremyGuinn/euchre-webrtc: a browser game whose host keeps the game in
a zustand store) over the Euchre Spec protocol, as ``euchre``.

The engine is the host's side: its store's actions (``dealCards``, ``placeBid``,
``dealerDiscard``, ``playCard``, ``completeTrick``, ``completeHand``) and the validators its
network handlers run on a player's message (whose turn it is, whether the card is held and may
be played). ``euchre_webrtc_shim.ts`` is bundled with the sources by esbuild and called through
node_bridge.cjs; it adds no rule.

How it is driven, with none of its rules replaced:

- Deals: ``dealCards`` itself, its shuffle (``Math.random``) fed the numbers that lay its pack
  out as the runner's deal (three then two cards to positions 0-3, then the card turned up).
- Legal moves: a bid is what the host's bidding panel offers the player to act (round 1:
  order it up or pass; round 2: a suit other than the turned-down one, or pass unless the
  dealer is stuck); the host itself checks only whose turn it is, so a bid the panel does not
  offer is still accepted where it has a meaning (a round-2 call of the turned-down suit): what
  the suite checks. ``order`` and ``call`` carry the panel's "go alone?" answer, so they are held
  and the protocol's ``alone`` step decides. The dealer discards any of his six cards; a card is
  played where the host's validators accept it.
- Reading: the store's state (hands, kitty, trump, maker, tricks with their winners, scores,
  the points of the hand); the game ends at 10, which the store has fixed.

It declares ``euchre`` with ``stick-the-dealer`` either way (its ``screwTheDealer``), no lone
defence, the eldest hand leading against a loner, game to 10; it has no way to choose a first
dealer from cards (``first_dealer``: ``unsupported``), so ``first-dealer=random`` only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from adapter_support import (blank_state, checked_deal, checkout_commit, engine_dir, fisher_yates_numbers,  # noqa: E402
                             pack, run_adapter)
from jsonl_server import Refused  # noqa: E402
from node_engine import NodeBridge, bundled, node_handler  # noqa: E402
from protocol_adapter import OneVariantAdapter, check_deal_awaited, check_turn  # noqa: E402

PACK = pack()
SHIM = Path(__file__).resolve().parent / "euchre_webrtc_shim.ts"
SUIT_NAME = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_LETTER = {name: letter for letter, name in SUIT_NAME.items()}
RANK_NAME = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
RANK_LETTER = {name: letter for letter, name in RANK_NAME.items()}
# createDeck's order before its shuffle: spades, hearts, diamonds, clubs by 9..A
ENGINE_DECK = [f"{suit}-{rank}" for suit in ("spades", "hearts", "diamonds", "clubs") for rank in ("9", "10", "J", "Q", "K", "A")]
PHASES = {"bidding_round1": "bid-round-1", "bidding_round2": "bid-round-2", "dealer_discard": "discard", "playing": "play"}
# What it plays, reconciled with identify where it was run (tests/test_adapter_declarations.py).
DECLARED_OPTIONS = {
    "stick-the-dealer": [False, True],
    "defending-alone": [False],
    "first-dealer": ["random"],
    "game-target": [10],
    "lone-lead": ["eldest"],
}
HOW = ("a checkout of JeremyGuinn/euchre-webrtc (ESBUILD: the esbuild binary; NODE_PATH: node_modules holding "
       "zustand 5 and react 19, which its store imports)")


# -- the mapping (no engine needed) ---------------------------------------------------------------
def card_id(token: str) -> str:
    """A protocol card (``TH``) as the engine's card id (``hearts-10``)."""
    return f"{SUIT_NAME[token[1]]}-{RANK_NAME[token[0]]}"


def token(card: dict[str, Any]) -> str:
    """An engine card (``{"suit": "hearts", "value": "10"}``) as the protocol's ``TH``."""
    return RANK_LETTER[card["value"]] + SUIT_LETTER[card["suit"]]


def deck_target(hands: list[list[str]], upcard: str, kitty: list[str]) -> list[str]:
    """The pack dealHands deals as the runner's deal: three cards to each position 0-3, then
    two to each, then the card turned up, the rest left in the deck."""
    order = [c for seat in range(4) for c in hands[seat][:3]] + [c for seat in range(4) for c in hands[seat][3:]]
    return [card_id(c) for c in order + [upcard] + kitty]


def shuffle_numbers(target: list[str]) -> list[float]:
    """Math.random's values for createDeck's shuffle to give ``target``."""
    return fisher_yates_numbers(ENGINE_DECK, target)


# -- the protocol ---------------------------------------------------------------------------------
class Adapter(OneVariantAdapter):
    """The protocol's side: the host's store kept in node, read after each action."""

    NAME, LANGUAGE, URL = "euchre-webrtc (JeremyGuinn)", "TypeScript", "https://github.com/JeremyGuinn/euchre-webrtc"
    VARIANT, DECLARED, WHO = "euchre", DECLARED_OPTIONS, "euchre-webrtc"
    NO_FIRST_DEALER = "euchre-webrtc has no way to choose the first dealer from cards here"
    TOLD = frozenset({"stick-the-dealer"})                      # its screwTheDealer

    def __init__(self, bridge: NodeBridge, commit: str = "unknown") -> None:
        self.bridge = bridge
        self.commit = commit
        self.options = {"screwTheDealer": False, "farmersHand": False, "allowReneging": False}
        self.view: dict[str, Any] | None = None
        self.pending: tuple[int, str] | None = None      # an order or call held until alone is decided
        self.hand_number = 0
        self.hand_points: list[int] | None = None
        self.thrown_in = False

    def take_rules(self, message: dict[str, Any]) -> None:
        self.options["screwTheDealer"] = bool((message.get("options") or {}).get("stick-the-dealer"))

    def new_game(self, message: dict[str, Any], dealer: int, scores: list[int]) -> dict[str, Any]:
        self.view = self.bridge.value("newGame", dealer, scores, self.options)
        self.hand_number, self.hand_points, self.pending, self.thrown_in = 0, None, None, False
        return self.observation()

    def in_game(self) -> bool:
        return self.view is not None

    # -- where the game stands --
    def awaiting_deal(self) -> bool:
        return self.view["phase"] in ("dealing_animation", "hand_complete")

    def game_over(self) -> bool:
        return self.view["phase"] == "game_complete"

    def to_act(self) -> int | None:
        if self.awaiting_deal() or self.game_over():
            return None
        return self.pending[0] if self.pending else self.view["toAct"]

    def legal(self) -> list[str]:
        """What the host offers the player to act (its bidding panel, the dealer's six cards,
        the cards its validators let be played)."""
        seat, view = self.to_act(), self.view
        if seat is None:
            return []
        if self.pending:
            return ["pass", "alone"]
        phase = view["phase"]
        if phase == "bidding_round1":
            return ["pass", "order"]
        if phase == "bidding_round2":
            turned = view["turnedDownSuit"] or (view["kitty"] or {}).get("suit")
            calls = [f"call:{SUIT_LETTER[s]}" for s in ("spades", "hearts", "diamonds", "clubs") if s != turned]
            return calls + ([] if view["dealerScrewed"] else ["pass"])
        hand = [token(c) for c in view["hands"].get(str(seat), [])]
        if phase == "dealer_discard":
            return [f"discard:{c}" for c in hand]
        if phase == "playing":
            return [f"play:{c}" for c in hand if self.bridge.value("canPlay", seat, card_id(c))]
        return []

    # -- the engine's part --
    def deal(self, message: dict[str, Any]) -> None:
        check_deal_awaited(self.game_over(), self.awaiting_deal())
        hands, upcard, _, kitty = checked_deal(message, 4, 5, PACK)
        if self.view["phase"] == "hand_complete":
            self.view = self.bridge.value("nextHand")           # completeHand: the deal passes left
        self.view = self.bridge.value("deal", shuffle_numbers(deck_target(hands, upcard, kitty)))
        self.hand_number += 1
        self.hand_points, self.pending, self.thrown_in = None, None, False

    def act(self, seat: int, action: str) -> None:
        check_turn(seat, self.to_act(), self.game_over())
        kind, _, arg = action.partition(":")
        phase = self.view["phase"]
        if self.pending:
            if action not in ("pass", "alone"):
                raise Refused("illegal_action", "euchre-webrtc asks only whether to go alone")
            held, self.pending = self.pending[1], None
            suit = (self.view["kitty"] or {}).get("suit") if held == "order" else SUIT_NAME[held.partition(":")[2]]
            self.after_bid(seat, suit, action == "alone")
        elif phase in ("bidding_round1", "bidding_round2"):
            self.bid(seat, phase, action, kind, arg)
        elif phase == "dealer_discard":
            if kind != "discard" or action not in self.legal():
                raise Refused("illegal_action", f"euchre-webrtc's dealer discards a card he holds, not {action!r}")
            self.view = self.bridge.value("discard", seat, card_id(arg))
        elif phase == "playing":
            if kind != "play" or arg not in PACK or not self.bridge.value("canPlay", seat, card_id(arg)):
                raise Refused("illegal_action", f"euchre-webrtc's host refuses {action!r}")
            self.view = self.bridge.value("play", seat, card_id(arg))
            if self.view["phase"] in ("hand_complete", "game_complete"):
                scores = self.view["handScores"]
                self.hand_points = [scores["team0"], scores["team1"]]

    def bid(self, seat: int, phase: str, action: str, kind: str, arg: str) -> None:
        """A bid: pass at once; order (round 1) or a call (round 2) held for the alone step.
        The host takes any suit at the player's turn, so a round-2 call of the turned-down
        suit is taken too; a token the host has no bid for is refused."""
        if action == "pass":
            before = self.view
            self.after_bid(seat, "pass", False)
            if self.view == before:            # the stuck dealer's pass: placeBid changes nothing
                raise Refused("illegal_action", "euchre-webrtc ignores the stuck dealer's pass")
            return
        if (phase == "bidding_round1" and action == "order") or \
                (phase == "bidding_round2" and kind == "call" and arg in SUIT_NAME):
            self.pending = (seat, action)
            return
        raise Refused("illegal_action", f"euchre-webrtc has no bid {action!r} in this round")

    def after_bid(self, seat: int, suit: str, alone: bool) -> None:
        self.view = self.bridge.value("bid", seat, suit, alone)
        if self.view["phase"] == "dealing_animation":      # all passed: thrown in, the deal passed left
            self.thrown_in, self.hand_points = True, [0, 0]

    # -- reading --
    def observation(self) -> dict[str, Any]:
        view = self.view
        state = blank_state(2)
        over, waiting = self.game_over(), self.awaiting_deal()
        phase = "game-over" if over else "deal" if waiting else ("alone" if self.pending else PHASES.get(view["phase"], view["phase"]))
        maker = view["maker"]
        trump = SUIT_LETTER[view["trump"]] if view["trump"] and not self.thrown_in else None
        maker_seat = maker["playerPosition"] if maker else None
        if self.pending:
            maker_seat, held = self.pending
            trump = SUIT_LETTER[view["kitty"]["suit"]] if held == "order" else held.partition(":")[2]
        alone = bool(maker and maker.get("alone"))
        tricks = [self.trick(t) for t in view["completedTricks"]]
        if view["currentTrick"]:
            tricks.append(self.trick(view["currentTrick"]))
        dealer = view["dealer"]
        if view["phase"] == "hand_complete":
            dealer = (dealer + 1) % 4                             # completeHand passes the deal left
        scores = [view["scores"]["team0"], view["scores"]["team1"]]
        hand_over = waiting and self.hand_number > 0
        state.update(
            phase=phase, hand_number=self.hand_number, dealer=dealer, to_act=self.to_act(), legal=self.legal(),
            trump=trump, maker=maker_seat if not self.thrown_in else None, alone=alone and not self.thrown_in,
            sitting_out=[(maker_seat + 2) % 4] if alone and not self.thrown_in else [],
            tricks=[] if self.thrown_in else tricks, hand_points=self.hand_points if (hand_over or over) else None,
            scores=scores, next_dealer=dealer if hand_over else None, game_over=over,
            winner=(0 if scores[0] >= 10 else 1) if over else None,
        )
        if not self.thrown_in and view["kitty"] and self.hand_number > 0:
            state["upcard"] = token(view["kitty"])
            state["hands"] = [[token(c) for c in view["hands"].get(str(seat), [])] for seat in range(4)]
        if view["phase"] == "bidding_round2" and view["turnedDownSuit"] and not self.pending:
            state["turned_down"] = SUIT_LETTER[view["turnedDownSuit"]]
        return state

    @staticmethod
    def trick(trick: dict[str, Any]) -> dict[str, Any]:
        cards = [[played["playerPosition"], token(played["card"])] for played in trick["cards"]]
        return {"leader": trick.get("leaderPosition", cards[0][0] if cards else None), "cards": cards,
                "winner": trick.get("winnerPosition")}


def engine_file() -> tuple[Path, str]:
    """The bundle of our shim with the engine's sources (its ``~/`` imports aliased to its app
    folder), and the checkout's commit."""
    root = engine_dir("EUCHRE_WEBRTC_DIR", "euchre-webrtc", HOW, ["app/store/gameStore.ts", "app/utils/game/gameLogic.ts"])
    built = bundled(SHIM, root / "build" / "euchre-webrtc.cjs", "euchre-webrtc", {"~": root / "app"}, stale_before=SHIM)
    return built, checkout_commit(root)


def main() -> int:
    return run_adapter(lambda: node_handler(engine_file, Adapter))


if __name__ == "__main__":
    sys.exit(main())
