#!/usr/bin/env python3
"""Drive euchre-plt (crashka/euchre-plt, ``euchplt``) over the Euchre Spec protocol.

euchre-plt calls its players: ``Game.play`` deals (``Deal.deal_cards``), runs ``do_bidding``
and ``play_cards``, which ask each ``Player`` for a ``bid``, the dealer's ``discard`` and each
``play_card``, tabulates the score and moves the deal, until a side has ``game_points``. So
the adapter runs that very loop, unchanged, in a worker thread with four scripted players
whose decisions block on a queue for the action the runner sends; the main thread answers
the protocol and, after each ``deal`` or ``act``, waits until the loop blocks again.

How it is fed and read, with none of its rules replaced:

- Deals: ``get_deck`` (imported into ``euchplt.game``) is replaced by a function that waits for
  the runner's deal and lays the pack out as ``deal_cards`` deals it (one card at a time round
  the table from the opening bidder, then the turn card, then the buries).
- Seats: ``Game`` seats the first players of both teams, then the second ones, so seat ``s``
  is ``teams[s % 2].players[s // 2]`` and partners are opposite; ``Deal`` positions count from
  the opening bidder, so position ``p`` is seat ``(dealer + 1 + p) % 4``.
- Decisions. euchre-plt has no list of legal bids: ``do_bidding`` raises ``ImplementationError``
  for a bid it does not accept. The choices offered are exactly the ones it accepts: in round
  1 ``pass`` or the turn card's suit, in round 2 ``pass`` or another suit; asked with
  ``def_bid`` (a loner's opponent), ``pass`` or ``DEFEND_ALONE``. A bid carries ``alone``, so
  ``order``/``call`` is held and the protocol's ``alone`` step decides it. The dealer may
  discard any card of his six; a card is played from the ``valid_plays`` the engine passes.
- Reading: tricks, winners (``winning_pos``), the turn card, the contract and the lone
  defender are read from the ``Deal``; scores from ``Game.score`` (teams by seat parity);
  the winner from ``Game.winner`` once the loop ends.

It declares ``euchre`` as it plays it: its game of 10, no stick the dealer, the eldest hand
leading against a loner and a lone defender's euchre worth 4 (what ``identify`` finds); it
cannot choose a first dealer from cards, so it declares ``first-dealer=random`` only
(``first_dealer``: ``unsupported``).
``euchplt.strategy`` is registered with only its ``base`` module, so the strategies (one
imports pandas) are not loaded; the scripted players need none.
"""

from __future__ import annotations

import importlib
import os
import queue
import sys
import threading
import traceback
import types
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from adapter_support import blank_state, checked_deal, checkout_commit, engine_dir, Handler, pack, run_adapter  # noqa: E402
from jsonl_server import Refused  # noqa: E402
from protocol_adapter import OneVariantAdapter, check_deal_awaited, check_turn, table_target  # noqa: E402

PACK = pack()
WORKER_TIMEOUT = float(os.environ.get("EUCHRE_PLT_ADAPTER_TIMEOUT", "5"))
RANK_TOKEN = {"9": "9", "10": "T", "J": "J", "Q": "Q", "K": "K", "A": "A"}
SUIT_TOKEN = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
# What it plays, reconciled with `euchre-spec identify` (tests/test_adapter_declarations.py): the
# eldest hand leads against a loner, a lone defender's euchre scores 4; the first dealer is given.
DECLARED_OPTIONS = {"first-dealer": ["random"], "game-target": [10], "lone-lead": ["eldest"],
                    "lone-defender-scoring": ["four-for-euchre"]}
HOW = "a checkout of crashka/euchre-plt (it needs PyYAML, which the venv has)"


class Aborted(BaseException):
    """Ends a worker whose game is abandoned."""


ABORT = object()


def load_engine() -> tuple[dict[str, Any], str]:
    """The engine's modules by name (its strategies left unloaded), and the checkout's commit."""
    root = engine_dir("EUCHRE_PLT_DIR", "euchre-plt", HOW, ["euchplt/deal.py", "euchplt/game.py"])
    sys.path.insert(0, str(root))
    importlib.import_module("euchplt")
    strategy = types.ModuleType("euchplt.strategy")
    strategy.__path__ = [str(root / "euchplt" / "strategy")]
    sys.modules["euchplt.strategy"] = strategy
    base = importlib.import_module("euchplt.strategy.base")
    strategy.Strategy, strategy.StrategyNotice = base.Strategy, base.StrategyNotice
    modules = {name: importlib.import_module(f"euchplt.{name}") for name in ("card", "euchre", "player", "team", "game", "deal")}
    return modules, checkout_commit(root)


class Engine:
    """The engine's modules and the hooks the adapter puts in them."""

    def __init__(self, modules: dict[str, Any]) -> None:
        self.m = modules
        card_module = modules["card"]
        self.by_token = {self.token(card): card for card in card_module.CARDS}
        modules["game"].get_deck = self.scripted_deck

    @staticmethod
    def token(card: Any, ctx: Any = None) -> str:
        """A card as the protocol's token (a bower as the card it is, given the deal as ``ctx``)."""
        if card.rank.tag in ("L", "R") and ctx is not None:
            card = card.realcard(ctx)
        return RANK_TOKEN[card.rank.tag] + SUIT_TOKEN[card.suit.name]

    def scripted_deck(self) -> list:
        """The engine's ``get_deck``: the runner's deal, waited for by the game of this thread."""
        game = getattr(threading.current_thread(), "euchre_game", None)
        if game is None:
            raise RuntimeError("get_deck called outside an adapted game")
        return game.await_deal()


# -- the scripted players ---------------------------------------------------------------------------
def scripted_player_class(player_module: Any) -> type:
    """A subclass of the engine's ``Player`` whose decisions are the runner's actions."""
    class ScriptedPlayer(player_module.Player):
        """A euchre-plt player whose decisions come from the runner."""

        def __init__(self, game: "Game", seat: int) -> None:
            self.name, self.strategy, self.game, self.seat = f"seat{seat}", None, game, seat

        def priv(self) -> bool:
            return False

        def notify(self, deal: Any, notice: Any) -> None:
            pass

        def bid(self, deal: Any, def_bid: bool = False) -> Any:
            return self.game.bid(self.seat, def_bid)

        def discard(self, deal: Any) -> Any:
            return self.game.discard(self.seat)

        def play_card(self, deal: Any, trick: Any, valid_plays: list) -> Any:
            return self.game.play(self.seat, valid_plays)

    return ScriptedPlayer


class Game:
    """One game: euchre-plt's ``Game.play`` in a worker thread."""

    def __init__(self, engine: Engine, dealer: int, scores: list[int], target: int) -> None:
        m = engine.m
        self.engine = engine
        Player = scripted_player_class(m["player"])
        self.seats = [Player(self, seat) for seat in range(4)]
        teams = [m["team"].Team(f"team{t}", [self.seats[t], self.seats[t + 2]]) for t in (0, 1)]
        self.game = m["game"].Game(teams, dealer=dealer, game_points=target)
        self.game.score = list(scores)
        self.to_worker: queue.Queue = queue.Queue()
        self.from_worker: queue.Queue = queue.Queue()
        self.pending: dict[str, Any] = {"kind": "starting"}
        self.broken: str | None = None
        self.hand_number = 0
        self.hand_points: list[int] | None = None
        self.before = list(scores)
        self.deal_obj: Any = None
        self.dealer = dealer
        self.held: tuple[int, Any] | None = None       # (seat, suit) of an order or call awaiting alone
        self.thread = threading.Thread(target=self.run, daemon=True, name="euchre-plt game")
        self.thread.euchre_game = self
        self.thread.start()
        self.wait()

    # -- worker side --
    def run(self) -> None:
        """(Worker) euchre-plt's own game loop, its crash reported to the main side."""
        try:
            self.game.play()
        except Aborted:
            return
        except BaseException:
            self.from_worker.put({"kind": "crashed", "error": traceback.format_exc(limit=8)})
            return
        self.finish_previous()
        self.from_worker.put({"kind": "over"})

    def decide(self, seat: int, phase: str, choices: dict[str, Any]) -> Any:
        """(Worker) Offer ``choices`` to ``seat`` and block until the runner chooses one."""
        self.from_worker.put({"kind": "decide", "seat": seat, "phase": phase, "choices": choices})
        action = self.to_worker.get()
        if action is ABORT:
            raise Aborted()
        return choices[action]

    def finish_previous(self) -> None:
        """Called when the next deal is awaited (or the game ended): the last deal is scored."""
        if self.hand_number and self.hand_points is None:
            self.hand_points = [a - b for a, b in zip(self.game.score, self.before)]

    def await_deal(self) -> list:
        """(Worker) Block until the runner deals; the pack laid out as it dealt."""
        self.finish_previous()
        self.from_worker.put({"kind": "deal"})
        deal = self.to_worker.get()
        if deal is ABORT:
            raise Aborted()
        self.before = list(self.game.score)
        self.deal_obj = None
        return deal

    def current_deal(self) -> Any:
        """The engine's ``Deal`` in progress (or the last one, kept while the next is awaited)."""
        if self.game.deals:
            self.deal_obj = self.game.deals[-1]
        return self.deal_obj

    def position_seat(self, position: int) -> int:
        """The seat of a ``Deal`` position (counted from the opening bidder)."""
        return (self.dealer + 1 + position) % 4

    def bid(self, seat: int, def_bid: bool) -> Any:
        """(Worker) The bids euchre-plt accepts, then alone or not for an order or call."""
        euchre, card = self.engine.m["euchre"], self.engine.m["card"]
        deal = self.current_deal()
        if def_bid:
            return self.decide(seat, "defend-alone", {"pass": euchre.PASS_BID, "defend-alone": euchre.DEFEND_ALONE})
        suits = {SUIT_TOKEN[s.name]: s for s in card.SUITS}
        turn = deal.turn_card.suit
        round_one = len(deal.bids) < 4
        if round_one:
            choices = {"pass": None, "order": turn}
        else:
            choices = {"pass": None, **{f"call:{letter}": s for letter, s in suits.items() if s != turn}}
        suit = self.decide(seat, "bid-round-1" if round_one else "bid-round-2", choices)
        if suit is None:
            return euchre.PASS_BID
        self.held = (seat, suit)
        alone = self.decide(seat, "alone", {"pass": False, "alone": True})
        self.held = None
        return euchre.Bid(suit, alone)

    def discard(self, seat: int) -> Any:
        """(Worker) The dealer's discard: any card of the six."""
        deal = self.current_deal()
        hand = deal.hands[-1]
        return self.decide(seat, "discard", {f"discard:{self.engine.token(c, deal)}": c for c in hand.cards})

    def play(self, seat: int, valid_plays: list) -> Any:
        """(Worker) A card of the valid plays euchre-plt passes."""
        deal = self.current_deal()
        return self.decide(seat, "play", {f"play:{self.engine.token(c, deal)}": c for c in valid_plays})

    # -- main side --
    def wait(self) -> None:
        """Wait until the worker blocks again; a game that hangs or raises is broken for good."""
        try:
            event = self.from_worker.get(timeout=WORKER_TIMEOUT)
        except queue.Empty:
            self.broken = f"euchre-plt's game did not reach its next decision within {WORKER_TIMEOUT:g} s"
            self.to_worker.put(ABORT)
            raise Refused("internal", self.broken) from None
        self.pending = event
        if event["kind"] == "crashed":
            self.broken = "euchre-plt raised an exception: " + event["error"].strip().splitlines()[-1]
            print(event["error"], file=sys.stderr)
            raise Refused("internal", self.broken)

    def usable_observation(self) -> dict[str, Any]:
        """The state, refused as ``check_usable`` says (after a ``deal`` or ``act`` that was
        answered the game is usable: a game breaks only by refusing the request that broke it)."""
        self.check_usable()
        return self.observation()

    def check_usable(self) -> None:
        """Refuse (``internal``) every request of a game that hung or raised."""
        if self.broken:
            raise Refused("internal", f"this game cannot go on ({self.broken}); start a new game")

    def deal(self, message: dict[str, Any]) -> None:
        """Hand the worker the pack laid out as ``deal_cards`` deals it, and wait for its next decision."""
        self.check_usable()
        check_deal_awaited(self.pending["kind"] == "over", self.pending["kind"] == "deal")
        hands, upcard, _, kitty = checked_deal(message, 4, 5, PACK)
        by_position = [hands[(self.game.dealer + 1 + p) % 4] for p in range(4)]
        order = [by_position[p][k] for k in range(5) for p in range(4)] + [upcard] + kitty
        self.hand_number += 1
        self.hand_points = None
        self.dealer = self.game.dealer        # the dealer of this deal, kept while the next is awaited
        self.to_worker.put([self.engine.by_token[t] for t in order])
        self.wait()

    def act(self, seat: int, action: str) -> None:
        """Hand the worker one of the choices it offered, and wait for its next decision."""
        self.check_usable()
        pending = self.pending
        check_turn(seat, pending["seat"] if pending["kind"] == "decide" else None, pending["kind"] == "over")
        if action not in pending["choices"]:
            raise Refused("illegal_action", f"euchre-plt does not accept {action!r} now (it accepts {sorted(pending['choices'])})")
        self.to_worker.put(action)
        self.wait()

    def abort(self) -> None:
        """End the worker of an abandoned game at its next wait."""
        self.to_worker.put(ABORT)

    def observation(self) -> dict[str, Any]:
        """The protocol's state, read from the engine's ``Game`` and ``Deal``."""
        kind = self.pending["kind"]
        deciding, over = kind == "decide", kind == "over"
        state = blank_state(2)
        deal = self.current_deal() if self.hand_number else None
        state.update(phase=self.pending["phase"] if deciding else "game-over" if over else "deal",
                     hand_number=self.hand_number, to_act=self.pending["seat"] if deciding else None,
                     legal=list(self.pending["choices"]) if deciding else [], scores=list(self.game.score),
                     hand_points=self.hand_points, game_over=over)
        state["dealer"] = self.game.dealer if kind != "decide" and not over else self.dealer
        if over:
            state["winner"] = self.game.winner[0] if self.game.winner else None
            state["dealer"] = self.dealer
        if kind == "deal" and self.hand_number:
            state["next_dealer"] = self.game.dealer
        if deal is not None:
            seat_of = self.position_seat
            state["upcard"] = self.engine.token(deal.turn_card)
            if deal.caller_pos is not None and not deal.is_passed():
                state.update(maker=seat_of(deal.caller_pos), trump=SUIT_TOKEN[deal.contract.suit.name],
                             alone=bool(deal.go_alone))
                out = []
                if deal.go_alone:
                    out.append(seat_of(deal.caller_pos ^ 2))
                if deal.def_alone:
                    state["defender_alone"] = seat_of(deal.def_pos)
                    out.append(seat_of(deal.def_pos ^ 2))
                state["sitting_out"] = out
            if self.held is not None:
                seat, suit = self.held
                state.update(maker=seat, trump=SUIT_TOKEN[suit.name])
            if len(deal.bids) >= 4 and deal.caller_pos is None and deciding:
                state["turned_down"] = SUIT_TOKEN[deal.turn_card.suit.name]
            tricks = []
            playing = 4 - len(state["sitting_out"])
            for trick in deal.tricks:
                cards = [[seat_of(pos), self.engine.token(card, deal)] for pos, card in trick.plays if card is not None]
                if cards:
                    tricks.append({"leader": cards[0][0], "cards": cards,
                                   "winner": seat_of(trick.winning_pos) if len(cards) == playing else None})
            state["tricks"] = tricks
            state["hands"] = [[self.engine.token(c, deal if deal.contract else None) for c in deal.hands[(s - self.dealer - 1) % 4].cards]
                              for s in range(4)] if deal.hands else None
            if state["hands"] is None:
                state.pop("hands")
        return state


class Adapter(OneVariantAdapter):
    """The protocol's side: one ``Game`` at a time, abandoned games' workers ended."""

    NAME, LANGUAGE, URL = "euchre-plt (crashka)", "Python", "https://github.com/crashka/euchre-plt"
    VARIANT, DECLARED, WHO = "euchre", DECLARED_OPTIONS, "euchre-plt"
    NO_FIRST_DEALER = "euchre-plt cannot choose the first dealer from cards"
    TOLD = frozenset({"game-target"})

    def __init__(self, engine: Engine, commit: str = "unknown") -> None:
        self.engine = engine
        self.commit = commit
        self.rules_ok = False
        self.target = 10
        self.game: Game | None = None

    def take_rules(self, message: dict[str, Any]) -> None:
        self.target = table_target(message)

    def end(self) -> None:
        self.drop()

    def new_game(self, message: dict[str, Any], dealer: int, scores: list[int]) -> dict[str, Any]:
        self.drop()
        self.game = Game(self.engine, dealer, scores, self.target)
        return self.game.observation()

    def in_game(self) -> bool:
        return self.game is not None

    def deal(self, message: dict[str, Any]) -> None:
        self.game.deal(message)

    def act(self, seat: int, action: str) -> None:
        self.game.act(seat, action)

    def observation(self) -> dict[str, Any]:
        return self.game.usable_observation()

    def drop(self) -> None:
        """End the game in progress, if any."""
        if self.game is not None:
            self.game.abort()
            self.game = None


def start() -> Handler:
    """The protocol handler on the engine's modules; from here on the engine's printing goes to
    stderr, as the protocol keeps stdout."""
    modules, commit = load_engine()
    sys.stdout = sys.stderr
    return Adapter(Engine(modules), commit).handle


def main() -> int:
    """Serve the protocol on the real stdout (euchre-plt's prints go to stderr)."""
    return run_adapter(start, sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
