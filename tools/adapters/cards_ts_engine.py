#!/usr/bin/env python3
"""Drive cards-ts's Euchre (johnameyer/cards-ts, ``libs/euchre`` on ``libs/core`` and
``libs/state-machine``) over the Euchre Spec protocol.

cards-ts runs a game as a state machine behind a ``GameDriver`` that asks handlers for
decisions (``orderUp``, ``nameTrump``, ``dealerDiscard``, ``turn``) and takes their answers as
response messages through its event handler, which validates (``canRespond``, validators, a
fallback that replaces what it refuses) and merges them. ``CARDS_TS_DIR`` names the checkout;
cards_ts_shim.ts (ours) is bundled by esbuild with its sources into ``build/cards-ts.cjs``
there (once) and called through node_bridge.cjs. The shim builds the game's own driver with
handlers that only note what they are asked, runs it until it waits, and answers through
``handleEvent``; deals are laid out in the deck its ``dealOut`` deals from.

How it is read:

- Legal actions are the answers cards-ts's event handler takes as they are: each candidate
  (``order``/``pass``; ``call:<suit>``/``pass``; each card for a discard or a play) is validated
  by its ``validateEvent`` and kept when the result is the same message (a trump it does not
  allow is turned into a pass by its fallback, a card it does not allow into another card:
  those are refused here as ``illegal_action``).
- Going alone is a message of its own (``GoingAloneResponseMessage``) sent with the order or
  the call, so ``order``/``call`` is held and the protocol's ``alone`` step decides whether it
  follows (after the order or call, as cards-ts's own handlers push them).
- Trick winners are its ``WonTrickMessage``; scores its ``score`` controller (one entry per
  seat, the same for partners); the dealer its deck's; the game is over when ``completed``.

It declares ``euchre`` as it plays it (no stick the dealer, no lone defence, the eldest hand
leading against a loner, the upcard not buried: what ``identify`` finds) with its game target
(``maxScore``); it cannot choose a first dealer from cards, so it declares
``first-dealer=random`` only (``first_dealer``: ``unsupported``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from adapter_support import (also_standard_lone_defence, blank_state, checked_deal, checkout_commit,  # noqa: E402
                             engine_dir, pack, run_adapter)
from jsonl_server import Refused  # noqa: E402
from node_engine import NodeBridge, Ref, bundled, node_handler  # noqa: E402
from protocol_adapter import OneVariantAdapter, check_deal_awaited, check_turn, table_target  # noqa: E402

PACK = pack()
SHIM = Path(__file__).resolve().parent / "cards_ts_shim.ts"
# What it plays, reconciled with `euchre-spec identify` (tests/test_adapter_declarations.py):
# the eldest hand leads against a loner, the dealer may not bury the upcard he took up, the
# first dealer is given (it cannot deal for a black jack).
DECLARED_OPTIONS = {"defending-alone": [False], "first-dealer": ["random"], "game-target": [5, 7, 10, 11],
                    "lone-lead": ["eldest"], "dealer-discard": ["not-upcard"]}
HOW = "a checkout of johnameyer/cards-ts (ESBUILD: the esbuild binary; NODE_PATH: node_modules holding inquirer 9 and rxjs 7, which libs/core imports)"


# -- the mapping (no engine needed) ---------------------------------------------------------------
def engine_card(token: str) -> str:
    """A protocol card (``TH``) as cards-ts names it (``10H``)."""
    return ("10" if token[0] == "T" else token[0]) + token[1]


def protocol_card(name: str) -> str:
    """A cards-ts card name (``10H``) as the protocol's (``TH``)."""
    return ("T" if name.startswith("10") else name[0]) + name[-1]


def deck_order(hands: list[list[str]], upcard: str, kitty: list[str], dealer: int) -> list[str]:
    """dealOut gives one card at a time from the dealer round the table (five rounds); the
    euchre controller then flips the next card."""
    order = [hands[(dealer + j) % 4][k] for k in range(5) for j in range(4)]
    return [engine_card(c) for c in order + [upcard] + kitty]


CANDIDATES = {
    "orderUp": [("pass", ["order", False]), ("order", ["order", True])],
    "nameTrump": [("pass", ["name", None])] + [(f"call:{s}", ["name", s]) for s in "CDHS"],
}
PHASES = {"orderUp": "bid-round-1", "nameTrump": "bid-round-2", "dealerDiscard": "discard", "turn": "play"}


class Adapter(OneVariantAdapter):
    """The protocol's side: a game session kept in node, read after each answer."""

    NAME, LANGUAGE, URL = "cards-ts euchre (johnameyer)", "TypeScript", "https://github.com/johnameyer/cards-ts"
    VARIANT, DECLARED, WHO = "euchre", DECLARED_OPTIONS, "cards-ts euchre"
    NO_FIRST_DEALER = "cards-ts has no way to choose the first dealer from cards"
    TOLD = frozenset({"game-target"})                            # its maxScore

    def __init__(self, bridge: NodeBridge, commit: str = "unknown") -> None:
        self.bridge = bridge
        self.commit = commit
        self.rules_ok = False
        self.target = 10
        self.session: Ref | None = None
        self.view: dict[str, Any] = {}
        self.held: tuple[int, list[Any]] | None = None
        self.before = [0, 0]
        self.hand_points: list[int] | None = None

    def take_rules(self, message: dict[str, Any]) -> None:
        self.target = table_target(message)

    def new_game(self, message: dict[str, Any], dealer: int, scores: list[int]) -> dict[str, Any]:
        if self.session is not None:
            self.bridge.drop([self.session])
        self.session = self.bridge.call("newSession", self.target, dealer, scores, quiet=True).ref
        self.held, self.hand_points, self.before = None, None, list(scores)
        self.refresh()
        return self.observation()

    def in_game(self) -> bool:
        return self.session is not None

    def refresh(self) -> None:
        """Read the engine's state. Its round resets the trump, maker and upcard as the hand
        ends; the protocol keeps a scored hand's values until the next deal, so they are
        carried over from the last state read during the hand."""
        view = self.bridge.method(self.session, "view").value
        if view["dealPending"] or view["completed"]:
            for key in ("bidder", "trump", "flipped", "goingAlone"):
                view[key] = self.view.get(key) if self.view.get("deals") == view["deals"] else None
            if view["completed"] and "dealer" in self.view:
                view["dealer"] = self.view["dealer"]      # the round moved the deal before the game ended
        self.view = view

    def team_scores(self) -> list[int]:
        """The sides' scores: cards-ts keeps one per seat, the same for partners."""
        return list(self.view["scores"][:2])

    def deal(self, message: dict[str, Any]) -> None:
        """Lay the runner's deal out in the deck cards-ts's own dealOut deals from."""
        check_deal_awaited(bool(self.view["completed"]), bool(self.view["dealPending"]))
        hands, upcard, _, kitty = checked_deal(message, 4, 5, PACK)
        self.before = self.team_scores()
        self.bridge.method(self.session, "deal", deck_order(hands, upcard, kitty, self.view["dealer"]), quiet=True)
        self.hand_points = None
        self.refresh()

    def choices(self) -> dict[str, list[Any]]:
        """The candidates cards-ts takes as they are, by protocol action."""
        view = self.view
        ask = view["ask"]
        if ask is None or view["dealPending"] or view["completed"]:
            return {}
        seat = ask["position"]
        if self.held is not None:
            return {"pass": None, "alone": ["alone", None]}
        if ask["kind"] in CANDIDATES:
            candidates = CANDIDATES[ask["kind"]]
        else:
            verb = "discard" if ask["kind"] == "dealerDiscard" else "play"
            candidates = [(f"{verb}:{protocol_card(c)}", [verb, c]) for c in view["hands"][seat]]
        accepted = {}
        for action, message in candidates:
            if self.bridge.method(self.session, "accepts", seat, *message).value:
                accepted[action] = message
        return accepted

    def act(self, seat: int, action: str) -> None:
        """Answer with a message cards-ts's event handler takes as it is; an order or call is
        held until alone is decided (going alone is a message of its own, sent after it)."""
        view = self.view
        asked = view["ask"] is not None and not view["dealPending"] and not view["completed"]
        check_turn(seat, view["ask"]["position"] if asked else None, bool(view["completed"]))
        choices = self.choices()
        if action not in choices:
            raise Refused("illegal_action", f"cards-ts's event handler does not take {action!r} as it is")
        if self.held is not None:
            # the order or call first, then going alone, as its own handlers push them
            messages = [self.held[1]] + ([choices[action]] if choices[action] else [])
            self.held = None
            self.respond(seat, messages)
        elif action.startswith(("order", "call:")):
            self.held = (seat, choices[action])
        else:
            self.respond(seat, [choices[action]])

    def respond(self, seat: int, messages: list[list[Any]]) -> None:
        """Send the answers through cards-ts's event handler; a hand that ended is scored."""
        self.bridge.method(self.session, "respond", seat, messages, quiet=True)
        self.refresh()
        if self.view["dealPending"] or self.view["completed"]:
            self.hand_points = [a - b for a, b in zip(self.team_scores(), self.before)]

    def observation(self) -> dict[str, Any]:
        """The protocol's state, read from the last view of the session."""
        view = self.view
        state = blank_state(2)
        over = bool(view["completed"])
        waiting_deal = bool(view["dealPending"]) and not over
        ask = view["ask"] if not (over or waiting_deal) else None
        phase = "game-over" if over else "deal" if waiting_deal else "alone" if self.held else PHASES[ask["kind"]]
        bidder = view["bidder"]
        trump = view["trump"] if bidder is not None else None
        if self.held is not None:
            bidder = self.held[0]
            arg = self.held[1][1]
            trump = arg if isinstance(arg, str) else view["flipped"][-1]
        alone_seat = view["goingAlone"]
        tricks = []
        for index, plays in enumerate(view["plays"]):
            cards = [[p["seat"], protocol_card(p["card"])] for p in plays]
            winner = view["trickWinners"][index] if index < len(view["trickWinners"]) else None
            tricks.append({"leader": cards[0][0], "cards": cards, "winner": winner})
        scores = self.team_scores()
        state.update(
            phase=phase, hand_number=view["deals"], dealer=view["dealer"], to_act=ask["position"] if ask else None,
            legal=list(self.choices()) if ask else [], trump=trump, maker=bidder, alone=alone_seat is not None,
            sitting_out=[(alone_seat + 2) % 4] if alone_seat is not None else [], tricks=tricks,
            hand_points=self.hand_points, scores=scores,
            next_dealer=view["dealer"] if waiting_deal and view["deals"] else None, game_over=over,
            winner=(0 if scores[0] >= scores[1] else 1) if over else None,
            hands=[[protocol_card(c) for c in hand] for hand in view["hands"]],
            upcard=protocol_card(view["flipped"]) if view["flipped"] else None)
        if phase == "bid-round-2" and view["flipped"]:
            state["turned_down"] = view["flipped"][-1]
        return state


def engine_file() -> tuple[Path, str]:
    """The bundle of our shim with cards-ts's sources (its workspaces aliased to their source
    folders), and the checkout's commit."""
    root = engine_dir("CARDS_TS_DIR", "cards-ts", HOW, ["libs/euchre/src/index.ts", "libs/core/src/index.ts"])
    libs = root / "libs"
    built = bundled(SHIM, root / "build" / "cards-ts.cjs", "cards-ts",
                    {"@cards-ts/core": libs / "core/src/index.ts", "@cards-ts/state-machine": libs / "state-machine/src/index.ts",
                     "cards-ts-euchre": libs / "euchre/src"}, stale_before=SHIM)
    return built, checkout_commit(root)


def main() -> int:
    """Serve the protocol (``--standard``: also declaring the lone defence it lacks)."""
    also_standard_lone_defence(DECLARED_OPTIONS, sys.argv[1:])
    return run_adapter(lambda: node_handler(engine_file, Adapter))


if __name__ == "__main__":
    sys.exit(main())
