#!/usr/bin/env python3
"""Drive moltblox's Euchre (Halldon-Inc/moltblox: a game platform whose game-builder package
ports card games; packages/game-builder/src/ports/cardgames/EuchreGame.ts) over the Euchre Spec
protocol, as ``euchre``.

``moltblox_euchre_shim.ts`` is bundled with the package's sources by esbuild, keeps one
``EuchreGame`` and is called through node_bridge.cjs; it adds no rule.

How it is driven, with none of its rules replaced:

- Deals: its own ``dealNewHand`` (what it deals every hand with), for the protocol's dealer and
  scores, its shuffle (``Math.random``) fed the numbers that lay its pack out as the runner's
  deal (five cards to each of players 0-3 popped from the end, then the card turned up). The
  engine deals the next hand itself when a hand ends (or all pass twice); that deal is replaced
  by the runner's through the same function. Seats are its player indices (0 and 2 partners,
  play passing to index + 1).
- Legal moves: those its ``handleAction`` accepts from the player to act (each tried on a copy
  of the state, put back with its ``restoreState``). Its round-1 ``call_trump`` and
  ``go_alone`` are the protocol's ``order`` then ``pass`` or ``alone``; round 2 likewise with a
  suit.
- The dealer's discard: after an order-up the dealer holds six cards and its ``discard`` action
  takes any of them; the engine does not make play wait for it (its ``currentPlayer`` is the
  dealer's left), so the adapter asks for the discard first, as the table does.
- Tricks: the engine keeps only the trick in progress; the plays are noted as sent
  (tools/adapters/trick_log.py) and each winner read from its ``trick_won`` event.

It declares ``euchre`` with no stick-the-dealer (all passing twice is a redeal), no lone
defence, the eldest hand leading against a loner, any game target its ``targetScore`` takes
(5, 7, 10, 11 declared, told), and ``first-dealer=random`` only.
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
from node_engine import BridgeError, NodeBridge, bundled, node_handler  # noqa: E402
from protocol_adapter import MakeHeldForAlone, check_deal_awaited, table_target  # noqa: E402
from trick_log import add_play, copied_tricks  # noqa: E402

PACK = pack()
SHIM = Path(__file__).resolve().parent / "moltblox_euchre_shim.ts"
SUITS = "CDHS"                                   # its suits 0-3: clubs, diamonds, hearts, spades
RANKS = {9: "9", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_NUMBER = {letter: number for number, letter in RANKS.items()}
# createEuchreDeck's order before its shuffle: by suit 0-3, ranks 9..14
ENGINE_DECK = [f"{RANKS[rank]}{suit}" for suit in SUITS for rank in range(9, 15)]
UNUSED = [0.5] * 23                              # for a deal the engine makes itself and the adapter replaces
DECLARED_OPTIONS = {
    "defending-alone": [False],
    "first-dealer": ["random"],
    "game-target": [5, 7, 10, 11],
    "lone-lead": ["eldest"],
}
HOW = "a checkout of Halldon-Inc/moltblox's packages/game-builder (ESBUILD: the esbuild binary)"


# -- the mapping (no engine needed) ---------------------------------------------------------------
def token(card: dict[str, int]) -> str:
    """An engine card (``{"rank": 10, "suit": 2}``) as the protocol's ``TH``."""
    return RANKS[card["rank"]] + SUITS[card["suit"]]


def deck_target(hands: list[list[str]], upcard: str, kitty: list[str]) -> list[str]:
    """The pack dealNewHand pops (from the end) as the runner's deal: five cards to each of
    players 0-3 in turn, then the upcard; the rest stays in the pack."""
    return list(reversed([c for seat in range(4) for c in hands[seat]] + [upcard] + kitty))


def shuffle_numbers(target: list[str]) -> list[float]:
    """Math.random's values for createEuchreDeck's shuffle to give ``target``."""
    return fisher_yates_numbers(ENGINE_DECK, target)


# -- the protocol ---------------------------------------------------------------------------------
class Adapter(MakeHeldForAlone):
    """The protocol's side: one EuchreGame kept in node, read after each action."""

    NAME, LANGUAGE, URL = ("moltblox EuchreGame (Halldon-Inc)", "TypeScript",
                           "https://github.com/Halldon-Inc/moltblox")
    VARIANT, DECLARED, WHO = "euchre", DECLARED_OPTIONS, "moltblox"
    NO_FIRST_DEALER = "moltblox's Euchre has no way to choose the first dealer from cards"
    TOLD = frozenset({"game-target"})                           # its targetScore

    def __init__(self, bridge: NodeBridge, commit: str = "unknown") -> None:
        self.bridge = bridge
        self.commit = commit
        self.target = 10
        self.view: dict[str, Any] | None = None
        self.waiting = True                   # the next deal awaited (the engine's own deal not yet replaced)
        self.pending = None
        self.tricks: list[dict[str, Any]] = []
        self.hand: dict[str, Any] = {}
        self.hand_number = 0
        self.dealer = 0
        self.scores = [0, 0]

    def take_rules(self, message: dict[str, Any]) -> None:
        self.target = table_target(message)

    def new_game(self, message: dict[str, Any], dealer: int, scores: list[int]) -> dict[str, Any]:
        self.view = self.bridge.value("newGame", self.target, UNUSED)
        self.waiting, self.pending, self.tricks, self.hand = True, None, [], {}
        self.hand_number, self.dealer, self.scores = 0, dealer, list(scores)
        return self.observation()

    def in_game(self) -> bool:
        return self.view is not None

    # -- where the game stands --
    def game_over(self) -> bool:
        return self.view["phase"] == "done"

    def discarding(self) -> bool:
        return self.view["phase"] == "playing" and len(self.view["hands"][self.view["dealer"]]) == 6

    def to_act(self) -> int | None:
        if self.waiting or self.game_over():
            return None
        if self.pending:
            return self.pending[0]
        return self.view["dealer"] if self.discarding() else self.view["currentPlayer"]

    def tries(self, seat: int) -> list[tuple[str, str, dict[str, Any]]]:
        """The protocol's moves of this step and the engine actions they are."""
        view = self.view
        if view["phase"] == "calling_round1":
            return [("pass", "pass", {}), ("order", "call_trump", {})]
        if view["phase"] == "calling_round2":
            return [("pass", "pass", {})] + [(f"call:{s}", "call_trump", {"suit": i}) for i, s in enumerate(SUITS)]
        hand = view["hands"][seat]
        if self.discarding():
            return [(f"discard:{token(c)}", "discard", {"cardIndex": i}) for i, c in enumerate(hand)]
        return [(f"play:{token(c)}", "play_card", {"cardIndex": i}) for i, c in enumerate(hand)]

    def legal(self) -> list[str]:
        seat = self.to_act()
        if seat is None:
            return []
        if self.pending:
            return ["pass", "alone"]
        tries = self.tries(seat)
        taken = self.bridge.value("accepted", seat, [[kind, payload] for _, kind, payload in tries], UNUSED)
        return [name for (name, _, _), ok in zip(tries, taken) if ok]

    # -- the engine's part --
    def deal(self, message: dict[str, Any]) -> None:
        check_deal_awaited(self.game_over(), self.waiting)
        hands, upcard, _, kitty = checked_deal(message, 4, 5, PACK)
        self.view = self.bridge.value("deal", shuffle_numbers(deck_target(hands, upcard, kitty)), self.dealer,
                                      self.scores, self.target)
        self.waiting, self.pending, self.tricks = False, None, []
        self.hand_number += 1
        self.hand = {"upcard": upcard, "points": None, "thrown_in": False}

    def make(self, seat: int, bid: str, alone: bool) -> None:
        suit = bid.partition(":")[2]
        self.engine(seat, "go_alone" if alone else "call_trump", {"suit": SUITS.index(suit)} if suit else {})

    def act_on_engine(self, seat: int, action: str) -> None:
        tries = {name: (kind, payload) for name, kind, payload in self.tries(seat)}
        if action not in tries or action not in self.legal():
            raise Refused("illegal_action", f"moltblox's handleAction refuses {action!r}")
        if action.startswith(("order", "call:")):
            self.hold(seat, action)
            return
        self.engine(seat, *tries[action])
        if action.startswith("play:"):
            add_play(self.tricks, seat, action[5:])
            if self.view.get("trickWonBy") is not None:
                self.tricks[-1]["winner"] = self.view["trickWonBy"]

    def engine(self, seat: int, kind: str, payload: dict[str, Any]) -> None:
        """One engine action; a refusal is the protocol's. A hand that ends (scored, or thrown
        in after two rounds of passes) leaves the engine with its own next deal, which the
        runner's replaces: the next deal is awaited."""
        before = self.view
        try:
            self.view = self.bridge.value("act", seat, kind, payload, UNUSED)
        except BridgeError as exc:
            raise Refused("illegal_action", f"moltblox refuses it: {exc}") from None
        if self.view["phase"] == "done" or self.view["dealer"] != before["dealer"]:
            scored = [a - b for a, b in zip(self.view["teamScores"], before["teamScores"])]
            self.hand.update(points=scored, thrown_in=kind == "pass", trump=before["trump"],
                             maker=before["maker"], loner=before["loner"])
            self.scores, self.dealer = list(self.view["teamScores"]), self.view["dealer"]
            self.waiting = self.view["phase"] != "done"

    # -- reading --
    def observation(self) -> dict[str, Any]:
        view, hand = self.view, self.hand
        state = blank_state(2)
        over = self.game_over()
        hand_over = (self.waiting or over) and bool(hand)
        if over:
            phase = "game-over"
        elif self.waiting:
            phase = "deal"
        elif self.pending:
            phase = "alone"
        elif view["phase"] in ("calling_round1", "calling_round2"):
            phase = "bid-round-" + view["phase"][-1]
        else:
            phase = "discard" if self.discarding() else "play"
        if hand_over:
            trump, maker, loner = hand.get("trump"), hand.get("maker"), hand.get("loner")
        else:
            trump, maker, loner = view["trump"], view["maker"], view["loner"]
        trump = SUITS[trump] if trump is not None and trump >= 0 else None
        if self.pending:
            maker, trump = self.held_make(hand["upcard"])
        if hand.get("thrown_in") and hand_over:
            trump, maker, loner = None, None, None
        state.update(
            phase=phase, hand_number=self.hand_number, dealer=self.dealer, to_act=self.to_act(), legal=self.legal(),
            trump=trump, maker=maker, alone=loner is not None, sitting_out=[(loner + 2) % 4] if loner is not None else [],
            tricks=[] if hand.get("thrown_in") else copied_tricks(self.tricks),
            hand_points=hand.get("points") if hand_over else None, scores=list(view["teamScores"]) if hand else self.scores,
            next_dealer=self.dealer if (self.waiting and hand) else None, game_over=over,
            winner=(0 if view["teamScores"][0] >= self.target else 1) if over else None,
        )
        if hand and not hand.get("thrown_in"):
            state["upcard"] = hand["upcard"]
            if not self.waiting and not over:
                state["hands"] = [[token(c) for c in cards] for cards in view["hands"]]
        if view["phase"] == "calling_round2" and not self.pending and not self.waiting:
            state["turned_down"] = hand["upcard"][1]
        return state


def engine_file() -> tuple[Path, str]:
    """The bundle of our shim with the game-builder package (``~/`` aliased to its src), and the
    checkout's commit."""
    root = engine_dir("MOLTBLOX_DIR", "moltblox", HOW, ["packages/game-builder/src/ports/cardgames/EuchreGame.ts"])
    built = bundled(SHIM, root / "build" / "moltblox-euchre.cjs", "moltblox",
                    {"~": root / "packages" / "game-builder" / "src"}, stale_before=SHIM)
    return built, checkout_commit(root)


def main() -> int:
    return run_adapter(lambda: node_handler(engine_file, Adapter))


if __name__ == "__main__":
    sys.exit(main())
