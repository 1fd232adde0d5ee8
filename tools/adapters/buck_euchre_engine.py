#!/usr/bin/env python3
"""Drive buckEuchre (doenjon/buckEuchre, ``backend/src/game/``: the auction form of Buck
Euchre behind a web server) over the Euchre Spec protocol, as ``buck-euchre-auction``.

The engine is pure functions on a plain-data ``GameState``, called by its server in this
order: ``initializeGame``, ``dealNewRound``, ``applyBid`` (four times), ``applyTrumpDeclaration``,
``applyFoldDecision`` (each other player), ``applyCardPlay``, ``finishRound`` once the fifth trick
is in, ``startNextRound``. It checks nothing itself: its server asks the validators
``canPlaceBid``, ``canFold`` and ``canPlayCard`` first, and so does this adapter, which offers
exactly the actions they accept. ``BUCK_EUCHRE_DIR`` names the checkout; buck_euchre_shim.ts
(ours, re-exports only) is bundled by esbuild with ``backend/src/game`` and ``shared/src`` into
``build/buck-euchre.cjs`` there (once) and called through node_bridge.cjs.

How it is fed and read:

- Deals: ``setCustomDeck`` (its own hook for a dealt order) with the pack laid out as
  ``dealCards`` deals (one card at a time to seats 0-3, five rounds, then the blind, whose first
  card is turned up); the first dealer through ``setDealerOverride``.
- Bids: ``canPlaceBid(amount, highest, passed, othersPassed, hasBid)`` with the facts its server
  passes, read from the state's ``bids``; ``name:<suit>`` is any suit (``applyTrumpDeclaration``
  has no validator); ``stay``/``drop`` by ``canFold``. The engine takes fold decisions in any
  order; the protocol asks one seat at a time, so the adapter asks the undecided players in
  turn from the maker's left, as the table's ``stay-or-drop`` step does.
- Reading: trick winners and tricks from ``tricks``/``currentTrick``; each seat's score from
  ``players[].score``; the maker is ``winningBidderPosition`` except at dirty clubs, where the
  engine sets it to the dealer's left only to give the lead and scores no one as the bidder.

It declares ``buck-euchre-auction`` with the readings its table gives options for:
``euchred-maker=five-only``, ``opening-lead=maker``, ``bidding-rounds=once``, ``start-score=15``.
It cannot choose a first dealer from cards (``first_dealer``: ``unsupported``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from adapter_support import blank_state, checked_deal, checkout_commit, engine_dir, pack, run_adapter  # noqa: E402
from jsonl_server import Refused  # noqa: E402
from node_engine import NodeBridge, bundled, node_handler  # noqa: E402
from protocol_adapter import OneVariantAdapter, check_deal_awaited, check_turn  # noqa: E402

PACK = pack()
SHIM = Path(__file__).resolve().parent / "buck_euchre_shim.ts"
VARIANT = "buck-euchre-auction"
DECLARED_OPTIONS = {"euchred-maker": ["five-only"], "opening-lead": ["maker"], "bidding-rounds": ["once"],
                    "start-score": [15]}
HOW = "a checkout of doenjon/buckEuchre (ESBUILD: the esbuild binary; NODE_PATH: node_modules holding zod 3)"
SUIT_NAME = {"C": "CLUBS", "D": "DIAMONDS", "H": "HEARTS", "S": "SPADES"}
SUIT_LETTER = {name: letter for letter, name in SUIT_NAME.items()}
RANK_NAME = {"9": "9", "T": "10", "J": "JACK", "Q": "QUEEN", "K": "KING", "A": "ACE"}
RANK_LETTER = {name: letter for letter, name in RANK_NAME.items()}
PHASES = {"BIDDING": "auction", "DECLARING_TRUMP": "name-trumps", "FOLDING_DECISION": "stay-or-drop", "PLAYING": "play"}


def card_id(token: str) -> str:
    """A protocol card (``TH``) as the engine's card id (``HEARTS_10``)."""
    return f"{SUIT_NAME[token[1]]}_{RANK_NAME[token[0]]}"


def token(card: dict[str, Any]) -> str:
    """An engine card (``{"suit": "HEARTS", "rank": "10"}``) as the protocol's (``TH``)."""
    return RANK_LETTER[card["rank"]] + SUIT_LETTER[card["suit"]]


def deck_order(hands: list[list[str]], upcard: str, kitty: list[str]) -> list[str]:
    """dealCards gives deck[4k + p] to seat p (k = 0..4), then the blind, turned up first."""
    return [card_id(hands[p][k]) for k in range(5) for p in range(4)] + [card_id(upcard)] + [card_id(c) for c in kitty]


class Adapter(OneVariantAdapter):
    """The protocol's side: the engine's plain-data state kept here, each call answered with the next."""

    NAME, LANGUAGE, URL = "buckEuchre (doenjon)", "TypeScript", "https://github.com/doenjon/buckEuchre"
    VARIANT, DECLARED, WHO = VARIANT, DECLARED_OPTIONS, "buckEuchre"
    NO_FIRST_DEALER = "buckEuchre chooses its first dealer at random"
    UNITS = 4

    def __init__(self, bridge: NodeBridge, commit: str = "unknown") -> None:
        self.bridge = bridge
        self.commit = commit
        self.rules_ok = False
        self.game: dict[str, Any] | None = None
        self.hand_number = 0
        self.hand_points: list[int] | None = None
        self.before: list[int] = []
        self.last_dealer = 0

    def new_game(self, message: dict[str, Any], dealer: int, scores: list[int]) -> dict[str, Any]:
        self.bridge.value("setDealerOverride", dealer)
        game = self.bridge.value("initializeGame", ["0", "1", "2", "3"])
        if message.get("scores") is not None:
            for player, score in zip(game["players"], scores):
                player["score"] = score
        self.game, self.hand_number, self.hand_points = game, 0, None
        self.last_dealer = dealer
        return self.observation()

    def in_game(self) -> bool:
        return self.game is not None

    def scores(self) -> list[int]:
        """Each seat's score (Buck Euchre is scored by player)."""
        return [p["score"] for p in self.game["players"]]

    def deal(self, message: dict[str, Any]) -> None:
        """Deal through the engine's own dealNewRound, the runner's deal set as its custom deck."""
        phase = self.game["phase"]
        check_deal_awaited(phase == "GAME_OVER", phase in ("DEALING", "ROUND_OVER"))
        hands, upcard, _, kitty = checked_deal(message, 4, 5, PACK)
        game = self.game
        if phase == "ROUND_OVER":
            game = self.bridge.value("startNextRound", game)
        self.bridge.value("setCustomDeck", deck_order(hands, upcard, kitty))
        self.before = self.scores()
        self.game = self.bridge.value("dealNewRound", game)
        self.last_dealer = self.game["dealerPosition"]
        self.hand_number += 1
        self.hand_points = None

    def fold_queue(self) -> list[int]:
        """The players yet to stay or drop, from the maker's left (the order the protocol asks)."""
        maker = self.game["winningBidderPosition"]
        return [(maker + k) % 4 for k in range(1, 4) if self.game["players"][(maker + k) % 4]["foldDecision"] == "UNDECIDED"]

    def to_act(self) -> int | None:
        """The seat the engine waits for (in the fold decisions, the first undecided in turn)."""
        game = self.game
        phase = game["phase"]
        if phase == "BIDDING":
            return game["currentBidder"]
        if phase == "DECLARING_TRUMP":
            return game["winningBidderPosition"]
        if phase == "FOLDING_DECISION":
            queue = self.fold_queue()
            return queue[0] if queue else None
        if phase == "PLAYING":
            return game["currentPlayerPosition"]
        return None

    def choices(self) -> dict[str, list[Any]]:
        """The actions the engine's validators accept, with the call each makes."""
        game, seat = self.game, self.to_act()
        if seat is None:
            return {}
        phase = game["phase"]
        if phase == "BIDDING":
            bids = game["bids"]
            acted = any(b["playerPosition"] == seat for b in bids)
            passed = any(b["playerPosition"] == seat and b["amount"] == "PASS" for b in bids)
            others_passed = sum(1 for b in bids if b["amount"] == "PASS" and b["playerPosition"] != seat) == 3
            out = {}
            for amount, action in [("PASS", "pass")] + [(n, f"bid:{n}") for n in (2, 3, 4, 5)]:
                if self.bridge.value("canPlaceBid", amount, game["highestBid"], passed, others_passed, acted)["valid"]:
                    out[action] = ["applyBid", seat, amount]
            return out
        if phase == "DECLARING_TRUMP":
            return {f"name:{letter}": ["applyTrumpDeclaration", name] for letter, name in SUIT_NAME.items()}
        if phase == "FOLDING_DECISION":
            player = game["players"][seat]
            out = {}
            for action, fold in (("stay", False), ("drop", True)):
                if self.bridge.value("canFold", game["isClubsTurnUp"], seat == game["winningBidderPosition"],
                                     player["foldDecision"], fold)["valid"]:
                    out[action] = ["applyFoldDecision", seat, fold]
            return out
        player = game["players"][seat]
        out = {}
        for card in player["hand"]:
            if self.bridge.value("canPlayCard", card, player["hand"], game["currentTrick"], game["trumpSuit"],
                                 bool(player["folded"]))["valid"]:
                out[f"play:{token(card)}"] = ["applyCardPlay", seat, card["id"]]
        return out

    def act(self, seat: int, action: str) -> None:
        """Make the call a validator accepted for this action, finishing the round as its
        server does once the fifth trick is in."""
        check_turn(seat, self.to_act(), self.game["phase"] == "GAME_OVER")
        choices = self.choices()
        if action not in choices:
            raise Refused("illegal_action", f"buckEuchre's validators refuse {action!r}")
        fn, *args = choices[action]
        game = self.bridge.value(fn, self.game, *args)
        if game["phase"] == "ROUND_OVER" and not game["scoresCalculated"]:
            game = self.bridge.value("finishRound", game)
        self.game = game
        if game["phase"] in ("ROUND_OVER", "GAME_OVER"):
            self.hand_points = [a - b for a, b in zip(self.scores(), self.before)]
        elif game["phase"] == "DEALING":                      # all passed: thrown in, the deal moved on
            self.hand_points = [0, 0, 0, 0]

    def observation(self) -> dict[str, Any]:
        """The protocol's state, read from the engine's state."""
        game = self.game
        phase = game["phase"]
        state = blank_state(4)
        awaiting = phase in ("DEALING", "ROUND_OVER")
        over = phase == "GAME_OVER"
        clubs = bool(game["isClubsTurnUp"])
        # the high bidder so far is no maker until the auction is won (the protocol's maker and
        # contract stay null during it)
        maker = None if clubs or phase == "BIDDING" else game["winningBidderPosition"]
        tricks = [self.trick(t) for t in game["tricks"]]
        current = game["currentTrick"]
        if current["cards"] and not (tricks and current["cards"] == game["tricks"][-1]["cards"]):
            tricks.append(self.trick(current))
        thrown_in = phase == "DEALING" and self.hand_number > 0
        dealer = game["dealerPosition"]
        if phase == "ROUND_OVER":
            dealer = (dealer + 1) % 4                       # startNextRound moves the deal left
        state.update(
            phase="game-over" if over else "deal" if awaiting else PHASES[phase], hand_number=self.hand_number,
            dealer=self.last_dealer if over else dealer, to_act=self.to_act(), legal=list(self.choices()),
            trump=None if thrown_in or not game["trumpSuit"] else SUIT_LETTER[game["trumpSuit"]],
            maker=None if thrown_in else maker,
            sitting_out=[p["position"] for p in game["players"] if p["folded"]] if not thrown_in else [],
            tricks=[] if thrown_in else tricks, hand_points=self.hand_points, scores=self.scores(),
            next_dealer=dealer if awaiting and self.hand_number else None, game_over=over,
            winner=game["winner"] if over else None,
            upcard=token(game["turnUpCard"]) if game["turnUpCard"] else None,
            contract=str(game["highestBid"]) if game["highestBid"] is not None and not clubs and not thrown_in
            and phase not in ("BIDDING",) else None,
            hands=[[token(c) for c in p["hand"]] for p in game["players"]])
        return state

    @staticmethod
    def trick(trick: dict[str, Any]) -> dict[str, Any]:
        """An engine trick as the protocol's (a trick no one has played to yet led by its lead player)."""
        cards = [[c["playerPosition"], token(c["card"])] for c in trick["cards"]]
        return {"leader": cards[0][0] if cards else trick["leadPlayerPosition"], "cards": cards, "winner": trick.get("winner")}


def engine_file() -> tuple[Path, str]:
    """The bundle of our shim with the game's sources (its shared package aliased to its
    source folder), and the checkout's commit."""
    root = engine_dir("BUCK_EUCHRE_DIR", "buckEuchre", HOW, ["backend/src/game/state.ts", "shared/src/index.ts"])
    built = bundled(SHIM, root / "build" / "buck-euchre.cjs", "buckEuchre",
                    {"@buck-euchre/shared": root / "shared/src/index.ts", "buck-euchre-game": root / "backend/src/game"},
                    stale_before=SHIM)
    return built, checkout_commit(root)


def main() -> int:
    """Serve the protocol."""
    return run_adapter(lambda: node_handler(engine_file, Adapter))


if __name__ == "__main__":
    sys.exit(main())
