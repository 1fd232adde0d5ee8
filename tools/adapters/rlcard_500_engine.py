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

It declares ``five-hundred-four`` with the options it plays: misère and open misère
(``misere=misere-and-open``, though it offers them at any time: a deviation the suite finds), the kitty thrown in when nobody bids (``no-bid=redeal``,
the table's default: what it does instead is what the suite checks). It cannot cut for the
first deal: ``FiveHundredGame.init_game`` draws the first dealer at random
(``np_random.choice``), so its hello declines ``first-dealer`` and a case that cuts is not
run (a ``first_dealer`` sent all the same is refused as ``unsupported``). Relabelling the seats
so that the engine's dealer is the cut's would not help: its dealer is whatever the adapter
makes the random draw give, so the cut would be the adapter's, not the engine's.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from adapter_support import (bare_package, blank_state, checked_deal, checkout_commit, engine_dir, Handler,  # noqa: E402
                             pack, run_adapter)
from jsonl_server import Refused  # noqa: E402
from protocol_adapter import OneVariantAdapter, check_deal_awaited, check_turn  # noqa: E402
from rlcard_views import SeatViews, plain, seat_view  # noqa: E402
from trick_log import add_play, copied_tricks  # noqa: E402

PACK = pack("56789TJQKA", extra=["4D", "4H", "JK"])
# It always offers open misère beside misère, so plain ``misere`` (without the open bid) is
# not declared: identify finds misere-and-open, and refutes misere (tests/test_adapter_declarations.py).
DECLARED_OPTIONS = {"misere": ["misere-and-open"], "no-bid": ["redeal"], "joker-any-time": [False]}
HOW = "a checkout of campbellborder/rlcard-500"
BID_NAMES = {"M": "misere", "OM": "open-misere"}


# -- the mapping (no engine needed) ---------------------------------------------------------------
def card_token(text: str) -> str:
    """A card's ``str`` (``TS``, ``4D``, ``RJ`` or ``RJS`` for the joker given a suit) as a token."""
    return "JK" if text.startswith("RJ") else text


def engine_state_card(value: Any) -> str | None:
    """A card object of the engine's state (it has a ``card_id``) as the protocol's token; None
    for anything else."""
    return card_token(str(value)) if hasattr(value, "card_id") else None


def bid_token(text: str) -> str:
    """A bid's ``str`` (``6S``, ``M``, ``OM``) as the protocol's action."""
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
        """Lay ``deck`` out as the next deal (left alone for a round nobody dealt)."""
        if self.order is None:
            return                  # the round step starts by itself: replaced when the runner deals
        by_token = {card_token(str(card)): card for card in deck}
        deck[:] = [by_token[t] for t in self.order]
        self.order = None

    def choice(self, options: list[int]) -> int:
        """The board before the dealer's, whatever the options."""
        return self.board


# -- loading the engine ---------------------------------------------------------------------------
def load_engine() -> tuple[Any, str]:
    """The engine's game module, imported unchanged below bare ``rlcard`` packages, and the
    checkout's commit."""
    root = engine_dir("RLCARD_500_DIR", "rlcard-500", HOW, ["rlcard/games/five_hundred/game.py"])
    bare_package("rlcard", root / "rlcard")
    bare_package("rlcard.games", root / "rlcard" / "games")
    return importlib.import_module("rlcard.games.five_hundred.game"), checkout_commit(root)


# -- the protocol ---------------------------------------------------------------------------------
class Adapter(SeatViews, OneVariantAdapter):
    """The protocol's side: the engine's game object, with the protocol's record of the hand
    (tricks, contract) kept beside it, as the engine keeps none it could be read from."""

    NAME, LANGUAGE, URL = "rlcard-500 (campbellborder)", "Python", "https://github.com/campbellborder/rlcard-500"
    VARIANT, DECLARED, WHO = "five-hundred-four", DECLARED_OPTIONS, "rlcard-500"
    NO_FIRST_DEALER = "rlcard-500 cannot cut for the first deal"

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

    def seat_view(self, state: dict[str, Any], seat: int) -> dict[str, Any]:
        """What the game's ``get_state(seat)`` tells that player (its id, the seat to act and
        its hand: the engine's one per-player state; the environment's richer observation,
        which shows an open misère hand, is built for the player to act alone), beside the
        public part of the state. Between hands the game has already started a round of its
        own (see ``step``), so a view then carries no engine state."""
        if self.round is None:
            return seat_view(state, seat, 4, None)
        return seat_view(state, seat, 4, plain(self.game.get_state(seat), engine_state_card))

    def new_game(self, message: dict[str, Any], dealer: int, scores: list[int]) -> dict[str, Any]:
        self.game = self.module.FiveHundredGame()
        self.rng = _Scripted()
        self.game.np_random = self.rng
        self.game.scores = tuple(scores)
        self.round, self.pending_joker = None, None
        self.state = {**blank_state(2), "dealer": dealer, "scores": list(scores)}
        return self.observation()

    def in_game(self) -> bool:
        return self.game is not None

    def deal(self, message: dict[str, Any]) -> None:
        """Start the engine's round with its ``np_random`` scripted to deal the runner's cards
        and make the game's dealer the dealer."""
        check_deal_awaited(self.state["game_over"], self.round is None)
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
        """The protocol's legal actions: the judger's, or the joker's suits while it is held."""
        if self.round is None:
            return []
        if self.pending_joker is not None:
            return [f"name:{a.card.suit}" for a in self.pending_joker]
        return list(self.engine_legal())

    def act(self, seat: int, action: str) -> None:
        """Step an action the judger lists; the joker led at no-trumps is held until its suit
        is named."""
        check_turn(seat, self.round.current_player_id if self.round is not None else None, self.state["game_over"])
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
        """Step a card's play, noting the trick's winner when the engine's trick count grows."""
        tricks = self.state["tricks"]
        add_play(tricks, seat, card)
        done = sum(self.round.won_trick_counts)
        rnd = self.round
        self.step(move)
        if sum(rnd.won_trick_counts) > done:
            tricks[-1]["winner"] = rnd.current_player_id

    def step(self, move: Any) -> None:
        """Step the engine, noting the contract once the auction is won and the scores once
        the hand is over (``step`` has already started the next round by then)."""
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
        """The side that won by reaching 500, else the one left when the other fell to -500."""
        high = [side for side in (0, 1) if scores[side] >= 500]
        if len(high) == 1:
            return high[0]
        low = [side for side in (0, 1) if scores[side] <= -500]
        return 1 - low[0] if len(low) == 1 else None

    def observation(self) -> dict[str, Any]:
        """The protocol's state: the record kept here, with the round's seat, legal actions and hands."""
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
        state["tricks"] = copied_tricks(state["tricks"])
        if rnd is not None and self.pending_joker is not None:
            # The joker is led (the engine takes it with its suit, asked next): shown played, as it is.
            seat = rnd.current_player_id
            state["hands"][seat] = [c for c in state["hands"][seat] if c != "JK"]
            add_play(state["tricks"], seat, "JK")
        return state


def start() -> Handler:
    """The protocol handler on the engine's modules."""
    module, commit = load_engine()
    return Adapter(module, commit).handle


def main() -> int:
    """Serve the protocol."""
    return run_adapter(start)


if __name__ == "__main__":
    sys.exit(main())
