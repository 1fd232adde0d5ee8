#!/usr/bin/env python3
"""Drive rlcard-500 (campbellborder/rlcard-500, ``rlcard/games/five_hundred/``: four-handed
Five Hundred in RLCard's style) over the Euchre Spec protocol, as ``five-hundred-four``.

``RLCARD_500_DIR`` names the checkout. ``rlcard`` and ``rlcard.games`` are registered as bare
namespaces over its folders, so their ``__init__`` modules (which import every environment
and its dependencies) never run; the five_hundred modules are imported unchanged.

How it is driven, with none of its rules replaced:

- ``FiveHundredGame`` is the whole game: ``init_game``, ``step`` (which scores a finished hand
  into ``scores`` and starts the next round at once), ``is_over`` (at 500 or minus 500), and its
  judger's ``get_legal_actions``, the only source of the legal actions. An action the judger
  does not list is refused as ``illegal_action`` (``step`` checks nothing).
- Deals: the game's ``np_random`` is replaced by an object whose ``shuffle`` lays the deck out
  so that its own ``deal_cards`` (three, four and three cards to seats 0-3 with one to the
  kitty after each round, popped from the end) gives the runner's hands and kitty, and whose
  ``choice`` picks the board so the dealer is the game's (``new_round`` moves the board one
  seat). A hand after the first is started with the game's own ``new_round`` once the runner
  deals, in place of the round ``step`` started with cards nobody asked for.
- Tokens: bids ``6S``..``10NT`` are the protocol's bid ids, ``M`` is ``misere``, ``OM`` is
  ``open-misere``; cards are the same but for the joker (``RJ``, protocol ``JK``). Discarding
  the kitty is ``play_card`` while the declarer holds more than ten cards (``discard:<card>``).
  Where the judger offers the joker led at no-trumps once per suit, ``play:JK`` is held and the
  suit is asked as the ``master-suit`` step (``name:<suit>``).
- Reading: trick winners are the seat given the lead after a trick (``won_trick_counts``
  grew); the hand's points are the change of ``scores``; the winner once ``is_over`` is the
  side at 500 or more, else the side not at minus 500 or below.

It declares ``five-hundred-four`` with the options it plays: misère at any time and open
misère (``misere=misere-and-open``), the kitty thrown in when nobody bids (``no-bid=redeal``,
the table's default: what it does instead is what the suite checks). It cannot cut for the
first deal: ``first_dealer`` is refused as ``unsupported``.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from adapter_support import (EngineMissing, blank_state, checked_act, checked_deal, checkout_commit,  # noqa: E402
                             declared_options_check, engine_dir, new_game_setup, pack, recording)
from jsonl_server import Refused, serve  # noqa: E402

PACK = pack("56789TJQKA", extra=["4D", "4H", "JK"])
DECLARED_OPTIONS = {"misere": ["misere", "misere-and-open"], "no-bid": ["redeal"], "joker-any-time": [False]}
HOW = "a checkout of campbellborder/rlcard-500"
BID_NAMES = {"M": "misere", "OM": "open-misere"}


# -- the mapping (no engine needed) ---------------------------------------------------------------
def card_token(text: str) -> str:
    """A card's ``str`` (``TS``, ``4D``, ``RJ`` or ``RJS`` for the joker given a suit) as a token."""
    return "JK" if text.startswith("RJ") else text


def bid_token(text: str) -> str:
    return "bid:" + BID_NAMES.get(text, text)


def deck_order(hands: list[list[str]], kitty: list[str]) -> list[str]:
    """The stock pile (as card tokens) from which ``deal_cards`` pops, from the end, three, four
    and three cards to seats 0-3 with one to the kitty after each packet."""
    popped: list[str] = []
    taken = [0, 0, 0, 0]
    for round_number, count in enumerate((3, 4, 3)):
        for seat in range(4):
            popped += hands[seat][taken[seat]:taken[seat] + count]
            taken[seat] += count
        popped.append(kitty[round_number])
    return list(reversed(popped))


class _Scripted:
    """Stands in for the game's ``np_random``: ``shuffle`` lays the deck out as the next deal,
    ``choice`` gives the board before the dealer's (``new_round`` adds one)."""

    def __init__(self) -> None:
        self.order: list[str] | None = None
        self.board = 0

    def shuffle(self, deck: list) -> None:
        if self.order is None:
            return                  # the round step starts by itself: replaced when the runner deals
        by_token = {card_token(str(card)): card for card in deck}
        deck[:] = [by_token[t] for t in self.order]
        self.order = None

    def choice(self, options: list[int]) -> int:
        return self.board


# -- loading the engine ---------------------------------------------------------------------------
def load_engine() -> tuple[Any, str]:
    root = engine_dir("RLCARD_500_DIR", "rlcard-500", HOW, ["rlcard/games/five_hundred/game.py"])
    for name, folder in (("rlcard", root / "rlcard"), ("rlcard.games", root / "rlcard" / "games")):
        package = types.ModuleType(name)
        package.__path__ = [str(folder)]
        sys.modules.setdefault(name, package)
    return importlib.import_module("rlcard.games.five_hundred.game"), checkout_commit(root)


# -- the protocol ---------------------------------------------------------------------------------
class Adapter:
    def __init__(self, game_module: Any, commit: str = "unknown") -> None:
        self.module = game_module
        self.commit = commit
        self.rules_ok = False
        self.game: Any = None
        self.round: Any = None               # the round in progress, or None while a deal is awaited
        self.rng = _Scripted()
        self.state = blank_state(2)
        self.pending_joker: list[Any] | None = None
        self.before = [0, 0]

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        kind = message.get("type")
        if kind == "hello":
            return {"protocol": 1, "engine": {"name": "rlcard-500 (campbellborder)", "version": self.commit,
                                              "language": "Python", "url": "https://github.com/campbellborder/rlcard-500"},
                    "variants": {"five-hundred-four": {"options": DECLARED_OPTIONS}}, "commands": []}
        if kind == "rules":
            self.rules_ok = False
            declared_options_check(message, "five-hundred-four", DECLARED_OPTIONS, "rlcard-500")
            self.rules_ok = True
            return {}
        if kind == "bye":
            return {}
        if kind == "new_game":
            if not self.rules_ok:
                raise Refused("wrong_phase", "no rules: send rules first")
            dealer, first, scores = new_game_setup(message, 4, 2)
            if first is not None:
                raise Refused("unsupported", "rlcard-500 cannot cut for the first deal")
            self.game = self.module.FiveHundredGame()
            self.rng = _Scripted()
            self.game.np_random = self.rng
            self.game.scores = tuple(scores)
            self.round, self.pending_joker = None, None
            self.state = {**blank_state(2), "dealer": dealer, "scores": list(scores)}
            return {"state": self.observation()}
        if kind not in ("deal", "act", "state", "legal"):
            raise Refused("bad_message", f"unknown message type {kind!r}")
        if self.game is None:
            raise Refused("wrong_phase", "no game: send new_game first")
        if kind == "deal":
            self.deal(message)
        elif kind == "act":
            self.act(*checked_act(message))
        state = self.observation()
        if kind == "legal":
            return {"to_act": state["to_act"], "legal": state["legal"]}
        return {"state": state}

    def deal(self, message: dict[str, Any]) -> None:
        if self.state["game_over"]:
            raise Refused("wrong_phase", "the game is over")
        if self.round is not None:
            raise Refused("wrong_phase", "a hand is in progress")
        hands, _, widow, _ = checked_deal(message, 4, 10, PACK, upcard=False, widow=3)
        self.rng.order = deck_order(hands, widow)
        self.rng.board = (self.state["dealer"] - 1) % 4
        if self.state["hand_number"] == 0:
            self.game.init_game()
        else:
            self.game.board_id = self.rng.board
            self.game.new_round()
        self.round = self.game.round
        self.before = list(self.game.scores)
        self.state.update(hand_number=self.state["hand_number"] + 1, tricks=[], hand_points=None, next_dealer=None,
                          trump=None, maker=None, contract=None, alone=False, sitting_out=[])

    def engine_legal(self) -> dict[str, Any]:
        """The judger's legal actions by protocol token (the joker led at no-trumps: one per suit)."""
        legal: dict[str, Any] = {}
        for action in self.game.judger.get_legal_actions():
            name = type(action).__name__
            if name == "PassAction":
                legal["pass"] = action
            elif name == "BidAction":
                legal[bid_token(str(action))] = action
            else:
                phase = self.round.round_phase
                key = ("discard:" if phase == "discard" else "play:") + card_token(str(action.card))
                if key in legal and key == "play:JK":
                    legal[key] = legal[key] if isinstance(legal[key], list) else [legal[key]]
                    legal[key].append(action)
                else:
                    legal[key] = action
        return legal

    def legal(self) -> list[str]:
        if self.round is None:
            return []
        if self.pending_joker is not None:
            return [f"name:{a.card.suit}" for a in self.pending_joker]
        return list(self.engine_legal())

    def act(self, seat: int, action: str) -> None:
        if self.round is None:
            raise Refused("wrong_phase", "no one is to act: " + ("the game is over" if self.state["game_over"] else "a deal is awaited"))
        to_act = self.round.current_player_id
        if seat != to_act:
            raise Refused("out_of_turn", f"seat {seat} acted but seat {to_act} is to act")
        if self.pending_joker is not None:
            chosen = [a for a in self.pending_joker if f"name:{a.card.suit}" == action]
            if not chosen:
                raise Refused("illegal_action", f"rlcard-500 offers the joker as {self.legal()}, not {action!r}")
            self.pending_joker = None
            self.play(seat, "JK", chosen[0])
            return
        legal = self.engine_legal()
        if action not in legal:
            raise Refused("illegal_action", f"rlcard-500's judger does not list {action!r}")
        move = legal[action]
        if isinstance(move, list):
            self.pending_joker = move
            return
        phase = self.round.round_phase
        if phase == "play":
            self.play(seat, action[5:], move)
            return
        self.step(move)

    def play(self, seat: int, card: str, move: Any) -> None:
        tricks = self.state["tricks"]
        if not tricks or tricks[-1]["winner"] is not None:
            tricks.append({"leader": seat, "cards": [], "winner": None})
        tricks[-1]["cards"].append([seat, card])
        done = sum(self.round.won_trick_counts)
        rnd = self.round
        self.step(move)
        if sum(rnd.won_trick_counts) > done:
            tricks[-1]["winner"] = rnd.current_player_id

    def step(self, move: Any) -> None:
        rnd = self.round
        self.game.step(move)
        if rnd.is_bidding_over() and rnd.contract_bid_move is not None and self.state["maker"] is None:
            bid = rnd.contract_bid_move.action
            self.state.update(maker=rnd.contract_bid_move.player.player_id, contract=BID_NAMES.get(str(bid), str(bid)),
                              trump=bid.bid_suit or "NT", alone=bool(bid.misere),
                              sitting_out=[(rnd.contract_bid_move.player.player_id + 2) % 4] if bid.misere else [])
        if rnd.is_over():
            scores = list(self.game.scores)
            over = self.game.is_over()
            self.state.update(hand_points=[a - b for a, b in zip(scores, self.before)], scores=scores, game_over=over,
                              winner=self.winner(scores) if over else None,
                              hands=[[card_token(str(c)) for c in p.hand] for p in rnd.players])
            if not over:
                dealer = (self.state["dealer"] + 1) % 4
                self.state.update(dealer=dealer, next_dealer=dealer)
            self.round = None

    @staticmethod
    def winner(scores: list[int]) -> int | None:
        high = [side for side in (0, 1) if scores[side] >= 500]
        if len(high) == 1:
            return high[0]
        low = [side for side in (0, 1) if scores[side] <= -500]
        return 1 - low[0] if len(low) == 1 else None

    def observation(self) -> dict[str, Any]:
        state = dict(self.state)
        rnd = self.round
        if rnd is None:
            state.update(phase="game-over" if state["game_over"] else "deal", to_act=None, legal=[])
        else:
            phase = {"bid": "auction", "discard": "discard", "play": "play"}[rnd.round_phase]
            if self.pending_joker is not None:
                phase = "master-suit"
            state.update(phase=phase, to_act=rnd.current_player_id, legal=self.legal(),
                         hands=[[card_token(str(c)) for c in p.hand] for p in rnd.players])
        state["tricks"] = [dict(t, cards=[list(c) for c in t["cards"]]) for t in state["tricks"]]
        return state


def main() -> int:
    try:
        module, commit = load_engine()
    except EngineMissing as exc:
        print(exc.code, file=sys.stderr)
        return 2
    return serve(recording(Adapter(module, commit).handle))


if __name__ == "__main__":
    sys.exit(main())
