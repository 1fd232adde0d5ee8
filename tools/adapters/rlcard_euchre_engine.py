#!/usr/bin/env python3
"""Drive RLCard-Euchre, the reinforcement-learning environment ``EuchreGame`` (``init_game``,
``get_legal_actions``, ``step``, its ``judger``), over the Euchre Spec protocol.

Two copies are known and both are driven by this one adapter, chosen by the checkout's layout:

- MichiganDataScienceTeam/W23-Euchre-Reinforcement-Learning, ``rlcard/games/euchre/``
  (it takes a ``custom_deck`` and ``custom_dealer_id`` in its config);
- mbrine555/euchre_rl, ``euchre_trick/`` (it imports ``rlcard.core`` from rlcard 0.1.17, found
  through ``RLCARD_DIR``; its dealer shuffles with ``random.shuffle`` and picks the dealer with
  ``random.randrange``, both replaced in its modules by functions that lay out the runner's deal).

``RLCARD_EUCHRE_DIR`` names the checkout. The package ``rlcard`` is registered as a bare
namespace over the checkout's folder, so its ``__init__`` (which imports every environment
and their dependencies) is never run; the euchre modules themselves are imported unchanged.

What the environment plays, and so what the adapter declares: one hand of four-handed Euchre
with no going alone and the dealer stuck in round 2 (its ``get_legal_actions`` offers him no
pass). The legal actions of every step are the engine's ``get_legal_actions`` (``pick`` is
``order``, ``call-H`` is ``call:H``, ``discard-HA`` is ``discard:AH``, ``HA`` is ``play:AH``);
an action it does not list is refused as ``illegal_action`` (its ``step`` checks nothing).
Trick winners are the seat ``step`` gives the lead to after a trick; the hand's points are its
judger's ``judge_hand`` (``(winning seats, points)``).

RLCard plays one hand and has no game: the adapter keeps the game around it, as a host would
(each hand a new ``EuchreGame`` with the next dealer on the left, the judger's points added to
the scores, the game over at the table's target). Those game-level checks therefore measure
the adapter, not RLCard; every rule of the hand is RLCard's. It cannot choose a first dealer:
``first_dealer`` is refused as ``unsupported``.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from adapter_support import (EngineMissing, bare_package, blank_state, checked_deal, checkout_commit,  # noqa: E402
                             engine_dir, Handler, pack, run_adapter)
from jsonl_server import Refused  # noqa: E402
from protocol_adapter import OneVariantAdapter, check_deal_awaited, check_turn, hello_reply, table_target  # noqa: E402
from rlcard_views import SeatViews, plain, seat_view  # noqa: E402
from trick_log import add_play, copied_tricks  # noqa: E402

PACK = pack()
SUITS = "CDHS"
DECLARED_OPTIONS = {
    "stick-the-dealer": [True],
    "going-alone": [False],
    "first-dealer": ["random"],
    "game-target": [10],
}
# The game around RLCard's one hand is this adapter's loop: what `identify` finds of these is
# the adapter's doing, never credited to the engine (tests/test_adapter_declarations.py).
ADAPTER_PLAYS = frozenset({"game-target", "fast-break", "fixed-deals"})
HOW = ("a checkout of MichiganDataScienceTeam/W23-Euchre-Reinforcement-Learning or of mbrine555/euchre_rl"
       " (the latter also needs RLCARD_DIR: the unpacked rlcard 0.1.17 sdist)")


# -- the mapping between the engine's tokens and the protocol's (no engine needed) -----------------
def engine_card(token: str) -> str:
    """``AH`` (protocol: rank, suit) as RLCard's index ``HA`` (suit, rank)."""
    return token[1] + token[0]


def protocol_card(index: str) -> str:
    """RLCard's card index (``HA``: suit, rank) as the protocol's ``AH``."""
    return index[1] + index[0]


def protocol_action(action: str) -> str:
    """An RLCard action (``pick``, ``call-H``, ``discard-HA``, ``HA``) as the protocol's."""
    if action == "pick":
        return "order"
    if action == "pass":
        return "pass"
    if action.startswith("call-"):
        return "call:" + action[5:]
    if action.startswith("discard-"):
        return "discard:" + protocol_card(action[8:])
    return "play:" + protocol_card(action)


def engine_state_card(value: Any) -> str | None:
    """A card in RLCard's state (a ``Card``, or its index ``HA``) as the protocol's token; None
    for anything else."""
    if hasattr(value, "get_index"):
        value = value.get_index()
    if isinstance(value, str) and len(value) == 2 and value[0] in SUITS and protocol_card(value) in PACK:
        return protocol_card(value)
    return None


def engine_action(action: str) -> str:
    """A protocol action as RLCard's (a token it has no action for stays out of its legal list)."""
    kind, _, arg = action.partition(":")
    if kind == "order" and not arg:
        return "pick"
    if kind == "pass" and not arg:
        return "pass"
    if kind == "call" and arg in SUITS:
        return "call-" + arg
    if kind == "discard" and arg in PACK:
        return "discard-" + engine_card(arg)
    if kind == "play" and arg in PACK:
        return engine_card(arg)
    return "?" + action          # a token RLCard has no action for: never in its legal list


def deal_order(hands: list[list[str]], upcard: str, kitty: list[str], dealer: int) -> list[str]:
    """The custom deck of the W23 copy: the dealer's left, across, right, the dealer, then the upcard."""
    order = [c for k in range(4) for c in hands[(dealer + 1 + k) % 4]]
    return [engine_card(c) for c in order + [upcard] + kitty]


def pop_order(hands: list[list[str]], upcard: str, kitty: list[str]) -> list[str]:
    """The shuffled deck of the euchre_rl copy, which deals five to seats 0-3 and then the upcard
    with ``deck.pop()`` from the end: the same cards in the reverse order."""
    return [engine_card(c) for c in reversed([c for hand in hands for c in hand] + [upcard] + kitty)]


# -- loading the engine ---------------------------------------------------------------------------
class Engine:
    """The engine's modules and how a hand is started with a given deal and dealer."""

    def __init__(self) -> None:
        root = engine_dir("RLCARD_EUCHRE_DIR", "RLCard-Euchre", HOW)
        if (root / "rlcard" / "games" / "euchre" / "game.py").exists():
            self.layout, base = "rlcard.games.euchre", root
        elif (root / "euchre_trick" / "game.py").exists():
            self.layout = "euchre_trick"
            base = engine_dir("RLCARD_DIR", "rlcard 0.1.17 (imported by euchre_rl as rlcard.core)",
                              "the unpacked sdist of rlcard 0.1.17 (pip download --no-deps rlcard==0.1.17)",
                              ["rlcard/core.py"])
        else:
            raise EngineMissing("RLCARD_EUCHRE_DIR", f"no rlcard/games/euchre/ nor euchre_trick/ in {root}", HOW)
        bare_package("rlcard", base / "rlcard")
        sys.path.insert(0, str(root))
        self.root = root
        self.game_module = importlib.import_module(self.layout + ".game")
        self.dealer_module = importlib.import_module(self.layout + ".dealer")
        self.commit = checkout_commit(root)

    def start_hand(self, hands: list[list[str]], upcard: str, kitty: list[str], dealer: int) -> Any:
        """A new ``EuchreGame`` whose one hand is the runner's deal with the given dealer."""
        if self.layout == "rlcard.games.euchre":
            game = self.game_module.EuchreGame(config={"custom_deck": deal_order(hands, upcard, kitty, dealer),
                                                       "custom_dealer_id": dealer})
            game.init_game()
            return game
        order = pop_order(hands, upcard, kitty)
        self.dealer_module.random = _Scripted(order=order)
        self.game_module.random = _Scripted(dealer=dealer)
        game = self.game_module.EuchreGame()
        game.init_game()
        return game


class _Scripted:
    """Stands in for ``random`` in the euchre_rl modules: ``shuffle`` lays the deck out in a given
    order (by card index), ``randrange`` returns the given dealer."""

    def __init__(self, order: list[str] | None = None, dealer: int | None = None) -> None:
        self.order, self.dealer = order, dealer

    def shuffle(self, deck: list) -> None:
        """Lay ``deck`` out in the given order."""
        by_index = {card.get_index(): card for card in deck}
        deck[:] = [by_index[index] for index in self.order]

    def randrange(self, *args: int) -> int:
        """The given dealer, whatever the range."""
        return self.dealer


# -- the protocol ---------------------------------------------------------------------------------
class Adapter(SeatViews, OneVariantAdapter):
    """The protocol's side: the game around RLCard's one hand, and the hand's record (maker,
    tricks) kept beside the engine, which keeps none it could be read from."""

    LANGUAGE, VARIANT, DECLARED, WHO = "Python", "euchre", DECLARED_OPTIONS, "RLCard-Euchre"
    NO_FIRST_DEALER = "RLCard-Euchre cannot choose the first dealer from cards"
    ADAPTER_PLAYS = ADAPTER_PLAYS

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine = engine
        self.rules_ok = False
        self.target = 10
        self.game: Any = None
        self.finished: Any = None            # the hand just over, whose players' states the views still read
        self.state = blank_state(2)
        self.started = False

    def hello(self) -> dict[str, Any]:
        """The ``hello`` reply, naming the copy the checkout is."""
        engine = self.engine
        w23 = engine.layout.startswith("rlcard")
        name = "RLCard-Euchre (" + ("W23-Euchre-Reinforcement-Learning" if w23 else "euchre_rl") + ")"
        url = ("https://github.com/MichiganDataScienceTeam/W23-Euchre-Reinforcement-Learning" if w23
               else "https://github.com/mbrine555/euchre_rl")
        return hello_reply(name, engine.commit, self.LANGUAGE, url, self.VARIANT, self.DECLARED, self.NO_FIRST_DEALER)

    def seat_view(self, state: dict[str, Any], seat: int) -> dict[str, Any]:
        """What RLCard's ``get_state(seat)`` tells that player (``information_state``), beside
        the public part of the state; the W23 copy keeps the dealer's discard in every
        player's state (``discarded_card``), so every seat's view names it."""
        game = self.game or self.finished
        if game is None:
            return seat_view(state, seat, 4, None)
        history = None
        buried = getattr(game, "discarded_card", None)
        if buried is not None:
            dealer = game.dealer_player_id
            history = {"discards": [[protocol_card(buried)] if owner == dealer else None for owner in range(4)]}
        return seat_view(state, seat, 4, plain(game.get_state(seat), engine_state_card), history)

    def take_rules(self, message: dict[str, Any]) -> None:
        self.target = table_target(message)

    def new_game(self, message: dict[str, Any], dealer: int, scores: list[int]) -> dict[str, Any]:
        self.state = {**blank_state(2), "dealer": dealer, "scores": scores}
        self.game, self.finished, self.started = None, None, True
        return self.observation()

    def in_game(self) -> bool:
        return self.started

    def deal(self, message: dict[str, Any]) -> None:
        """Start a new ``EuchreGame`` (RLCard's one hand) on the runner's deal."""
        check_deal_awaited(self.state["game_over"], self.game is None)
        hands, upcard, _, kitty = checked_deal(message, 4, 5, PACK)
        dealer = self.state["dealer"]
        self.game, self.finished = self.engine.start_hand(hands, upcard, kitty, dealer), None
        self.state.update(hand_number=self.state["hand_number"] + 1, upcard=upcard, trump=None, maker=None,
                          tricks=[], hand_points=None, next_dealer=None, turned_down=None)

    def legal_engine(self) -> list[str]:
        """RLCard's legal actions, in its own tokens."""
        return list(self.game.get_legal_actions()) if self.game is not None else []

    def act(self, seat: int, action: str) -> None:
        """Step an action RLCard lists, noting the maker and the tricks it does not keep."""
        game = self.game
        check_turn(seat, game.current_player if game is not None else None, self.state["game_over"])
        move = engine_action(action)
        if move not in self.legal_engine():
            raise Refused("illegal_action", f"RLCard does not list {action!r} among its legal actions")
        phase = self.phase()
        if phase in ("bid-round-1", "bid-round-2") and move != "pass":
            self.state["maker"] = seat
        if phase == "play":
            add_play(self.state["tricks"], seat, action[5:])
        game.step(move)
        if phase == "play" and len(game.center) == 0:
            self.state["tricks"][-1]["winner"] = game.current_player
        if game.is_over():
            self.finish_hand()

    def finish_hand(self) -> None:
        """Score the hand by its judger's points and move the deal on, as a host would."""
        winners, points = self.game.winner, self.game.points
        hand_points = [points if 0 in winners else 0, points if 1 in winners else 0]
        scores = [s + p for s, p in zip(self.state["scores"], hand_points)]
        next_dealer = (self.state["dealer"] + 1) % 4
        over = max(scores) >= self.target
        self.state.update(hand_points=hand_points, scores=scores, game_over=over, trump=self.game.trump,
                          turned_down=self.game.turned_down,
                          winner=(0 if scores[0] > scores[1] else 1) if over else None,
                          hands=[[protocol_card(c.get_index()) for c in p.hand] for p in self.game.players])
        if not over:
            self.state.update(dealer=next_dealer, next_dealer=next_dealer)
        self.game, self.finished = None, self.game

    def phase(self) -> str:
        """The protocol's phase, read from the hand (six cards in hand: the dealer's discard)."""
        game = self.game
        if game is None:
            return "game-over" if self.state["game_over"] else "deal"
        if len(game.players[game.current_player].hand) == 6:
            return "discard"
        if game.trump is None:
            return "bid-round-1" if game.turned_down is None else "bid-round-2"
        return "play"

    def observation(self) -> dict[str, Any]:
        """The protocol's state: the record kept here, with the hand's seat, legal actions and hands."""
        state = dict(self.state)
        game = self.game
        state["phase"] = self.phase()
        if game is not None:
            state.update(to_act=game.current_player, legal=[protocol_action(a) for a in self.legal_engine()],
                         trump=game.trump, turned_down=game.turned_down,
                         hands=[[protocol_card(c.get_index()) for c in p.hand] for p in game.players])
        else:
            state.update(to_act=None, legal=[])
        state["tricks"] = copied_tricks(state["tricks"])
        return state


def start() -> Handler:
    """The protocol handler on the copy the checkout is."""
    return Adapter(Engine()).handle


def main() -> int:
    """Serve the protocol."""
    return run_adapter(start)


if __name__ == "__main__":
    sys.exit(main())
