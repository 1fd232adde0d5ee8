#!/usr/bin/env python3
"""Drive funEuchre's rules (seanwolter/funEuchre, packages/game-rules: "pure deterministic Euchre
domain logic", a reducer ``applyGameAction(state, action)``) over the Euchre Spec protocol, as
``euchre``.

``fun_euchre_shim.ts`` is bundled with the package's sources by esbuild, keeps its state between
calls and is called through node_bridge.cjs; it adds no rule.

How it is driven, with none of its rules replaced:

- Deals: its ``deal_hand`` action with the pack in the order it deals (three, then two cards to
  each seat from the dealer's left, the upcard, the rest). Seats 0-3 are north, east, south,
  west, its clockwise order.
- Legal moves: the bids and cards ``applyGameAction`` accepts from the player to act (each
  tried on the state, the result dropped). ``order`` and ``call`` carry its ``alone`` flag, so
  they are held and the protocol's ``alone`` step decides.
- The dealer's discard: the engine makes it itself when trump is ordered up (its
  ``chooseDealerDiscardIndex``: the lowest card); the adapter shows that as the ``discard``
  step with that one card legal, the dealer holding his five and the upcard, so a runner sees
  that the dealer cannot choose.
- After the fifth trick the engine waits for ``score_hand`` (its server's step, no one's
  choice): the adapter sends it at once, the hand's points read before it.
- The tricks: the engine keeps only the trick in progress, so the plays are noted as sent
  (tools/adapters/trick_log.py) and each winner read from the engine.

It declares ``euchre`` with no stick-the-dealer (all passing twice is a redeal), no lone
defence, the eldest hand leading against a loner (its first lead skips the partner who sits
out), the upcard never buried (identify's finding: the engine's own discard is the lowest card,
never the trump turned up), any game target its ``targetScore`` takes (5, 7, 10, 11 declared,
told), and ``first-dealer=random`` only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from adapter_support import (NamedCards, blank_state, checked_deal, checkout_commit, engine_dir, pack,  # noqa: E402
                             run_adapter)
from jsonl_server import Refused  # noqa: E402
from node_engine import BridgeError, NodeBridge, bundled, node_handler  # noqa: E402
from protocol_adapter import MakeHeldForAlone, check_deal_awaited, table_target  # noqa: E402
from trick_log import add_play, copied_tricks  # noqa: E402

PACK = pack()
SHIM = Path(__file__).resolve().parent / "fun_euchre_shim.ts"
CARDS = NamedCards({"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"})
SUIT_NAME, SUIT_LETTER = CARDS.SUITS, CARDS.suit_letters
BID_PHASES = {"round1_bidding": "bid-round-1", "round2_bidding": "bid-round-2"}
# What it plays (tests/test_adapter_declarations.py checks it against identify's record).
DECLARED_OPTIONS = {
    "stick-the-dealer": [False],
    "defending-alone": [False],
    "first-dealer": ["random"],
    "game-target": [5, 7, 10, 11],
    "lone-lead": ["eldest"],
    # identify: the dealer never buries the upcard (the engine discards for him, its lowest
    # card, and the upcard is trump); that he cannot choose stays a reported defect
    "dealer-discard": ["not-upcard"],
}
HOW = "a checkout of seanwolter/funEuchre (ESBUILD: the esbuild binary)"


# -- the mapping (no engine needed) ---------------------------------------------------------------
engine_card, token = CARDS.engine_card, CARDS.token


def deal_order(dealer: int, hands: list[list[str]], upcard: str, kitty: list[str]) -> list[str]:
    """The pack as dealHandsFromDeck deals it: three cards to each seat from the dealer's left,
    then two to each, then the upcard, then the rest."""
    seats = [(dealer + k) % 4 for k in range(1, 5)]
    return [c for seat in seats for c in hands[seat][:3]] + [c for seat in seats for c in hands[seat][3:]] \
        + [upcard] + kitty


# -- the protocol ---------------------------------------------------------------------------------
class Adapter(MakeHeldForAlone):
    """The protocol's side: the reducer's state kept in node, read after each action."""

    NAME, LANGUAGE, URL = "funEuchre game-rules (seanwolter)", "TypeScript", "https://github.com/seanwolter/funEuchre"
    VARIANT, DECLARED, WHO = "euchre", DECLARED_OPTIONS, "funEuchre"
    NO_FIRST_DEALER = "funEuchre has no way to choose the first dealer from cards"
    TOLD = frozenset({"game-target"})                           # its targetScore

    def __init__(self, bridge: NodeBridge, commit: str = "unknown") -> None:
        self.bridge = bridge
        self.commit = commit
        self.target = 10
        self.view: dict[str, Any] | None = None
        self.pending = None
        self.discard_shown: str | None = None                 # the card the engine discarded for the dealer
        self.tricks: list[dict[str, Any]] = []
        self.hand: dict[str, Any] = {}                        # this hand's upcard, trump, maker, points

    def take_rules(self, message: dict[str, Any]) -> None:
        self.target = table_target(message)

    def new_game(self, message: dict[str, Any], dealer: int, scores: list[int]) -> dict[str, Any]:
        self.view = self.bridge.value("newGame", dealer, self.target, scores)
        self.pending, self.discard_shown, self.tricks, self.hand = None, None, [], {}
        return self.observation()

    def in_game(self) -> bool:
        return self.view is not None

    # -- where the game stands --
    def awaiting_deal(self) -> bool:
        return self.view["phase"] == "deal"

    def game_over(self) -> bool:
        return self.view["phase"] == "completed"

    def to_act(self) -> int | None:
        view = self.view
        if self.pending:
            return self.pending[0]
        if self.discard_shown:
            return (self.hand["dealer"])
        if view["phase"] in BID_PHASES:
            return view["bidding"]["turn"]
        if view["phase"] == "play":
            return view["trick"]["turn"]
        return None

    def legal(self) -> list[str]:
        seat = self.to_act()
        if seat is None:
            return []
        if self.pending:
            return ["pass", "alone"]
        if self.discard_shown:
            return [f"discard:{self.discard_shown}"]
        if self.view["phase"] in BID_PHASES:
            return [f"call:{SUIT_LETTER[t[5:]]}" if t.startswith("call:") else t
                    for t in self.bridge.value("bidsTaken", seat)]
        return [f"play:{token(c)}" for c in self.bridge.value("playsTaken", seat)]

    # -- the engine's part --
    def deal(self, message: dict[str, Any]) -> None:
        check_deal_awaited(self.game_over(), self.awaiting_deal())
        hands, upcard, _, kitty = checked_deal(message, 4, 5, PACK)
        dealer = self.view["dealer"]
        order = deal_order(dealer, hands, upcard, kitty)
        self.engine("deal", [engine_card(c) for c in order])
        self.pending, self.discard_shown, self.tricks = None, None, []
        self.hand = {"dealer": dealer, "upcard": upcard, "points": None, "thrown_in": False}

    def make(self, seat: int, bid: str, alone: bool) -> None:
        call = bid.partition(":")[2]
        self.engine("bid", seat, "order_up" if bid == "order" else "call_trump", SUIT_NAME[call] if call else None, alone)
        if bid == "order":                   # the engine has made the dealer's discard itself
            self.discard_shown = token(self.view["kitty"][-1])

    def act_on_engine(self, seat: int, action: str) -> None:
        kind, _, arg = action.partition(":")
        if self.discard_shown:
            if action != f"discard:{self.discard_shown}":
                raise Refused("illegal_action", f"funEuchre's dealer discards {self.discard_shown} itself, not {action!r}")
            self.discard_shown = None
        elif self.view["phase"] in BID_PHASES:
            if action not in self.legal():
                raise Refused("illegal_action", f"funEuchre's applyGameAction refuses {action!r}")
            if action == "pass":
                self.engine("bid", seat, "pass", None, False)
                if self.view["phase"] == "deal":          # passed twice round: redeal, the deal passes left
                    self.hand.update(points=[0, 0], thrown_in=True)
            else:
                self.hold(seat, action)
        else:
            if kind != "play" or arg not in PACK:
                raise Refused("illegal_action", f"funEuchre has no play {action!r}")
            self.engine("play", seat, engine_card(arg))
            add_play(self.tricks, seat, arg)
            trick = self.view["trick"]
            if self.view["phase"] == "score":
                self.tricks[-1]["winner"] = trick["winner"]
                self.hand["points"] = list(self.view["lastHand"])
                self.hand.update(trump=self.view["trump"], maker=self.view["maker"], alone=self.view["alone"],
                                 sitting_out=self.view["sittingOut"])
                self.engine("score")
            elif not trick["plays"]:
                self.tricks[-1]["winner"] = trick["leader"]       # the trick's winner leads the next

    def engine(self, fn: str, *args: Any) -> None:
        """One of the engine's actions; its reject is the protocol's refusal."""
        try:
            self.view = self.bridge.value(fn, *args)
        except BridgeError as exc:
            raise Refused("illegal_action", f"funEuchre refuses it: {exc}") from None

    # -- reading --
    def observation(self) -> dict[str, Any]:
        view, hand = self.view, self.hand
        state = blank_state(2)
        over, waiting = self.game_over(), self.awaiting_deal()
        hand_over = (waiting or over) and bool(hand)
        if over:
            phase = "game-over"
        elif waiting:
            phase = "deal"
        elif self.pending:
            phase = "alone"
        elif self.discard_shown:
            phase = "discard"
        else:
            phase = BID_PHASES.get(view["phase"], "play")
        if hand_over:
            trump, maker, alone, sitting = (hand.get("trump"), hand.get("maker"), hand.get("alone", False),
                                            hand.get("sitting_out"))
        else:
            trump, maker, alone, sitting = view["trump"], view["maker"], view["alone"], view["sittingOut"]
        trump = SUIT_LETTER[trump] if trump else None
        if self.pending:
            maker, trump = self.held_make(hand["upcard"])
        scores = list(view["scores"])
        state.update(
            phase=phase, hand_number=view["handNumber"], dealer=view["dealer"], to_act=self.to_act(),
            legal=self.legal(), trump=trump, maker=maker, alone=bool(alone),
            sitting_out=[sitting] if sitting is not None else [], tricks=copied_tricks(self.tricks),
            hand_points=hand.get("points") if hand_over else None, scores=scores,
            next_dealer=view["dealer"] if (waiting and hand) else None, game_over=over,
            winner=view["winner"] if over else None,
        )
        if hand and not hand.get("thrown_in"):
            state["upcard"] = hand["upcard"]
        if view["hands"] is not None:
            hands = [[token(c) for c in cards] for cards in view["hands"]]
            if self.discard_shown:
                hands[hand["dealer"]].append(self.discard_shown)
            state["hands"] = hands
        if view["phase"] == "round2_bidding" and not self.pending:
            state["turned_down"] = SUIT_LETTER[view["bidding"]["turnedDownSuit"]]
        return state


def engine_file() -> tuple[Path, str]:
    """The bundle of our shim with the package's sources (``~/`` aliased to
    packages/game-rules), and the checkout's commit."""
    root = engine_dir("FUN_EUCHRE_DIR", "funEuchre", HOW, ["packages/game-rules/src/gameState.ts"])
    built = bundled(SHIM, root / "build" / "fun-euchre.cjs", "funEuchre", {"~": root / "packages" / "game-rules"},
                    stale_before=SHIM)
    return built, checkout_commit(root)


def main() -> int:
    return run_adapter(lambda: node_handler(engine_file, Adapter))


if __name__ == "__main__":
    sys.exit(main())
