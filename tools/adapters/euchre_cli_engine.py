#!/usr/bin/env python3
"""Drive euchre-cli 0.7.0 (PyPI ``euchre-cli``, module ``euchre``) over the Euchre Spec protocol.

euchre-cli is a terminal game: ``euchre.command.play.game(players, teams)`` is a procedural
loop (deal, two bidding rounds, five tricks, score, until a side reaches 10) that calls out
to player objects. This adapter runs that very loop, unchanged, in a worker thread with four
scripted players (subclasses of its ``Player``) whose decision methods block on a queue for
the action the runner sends in ``act``. The main thread answers the protocol; after each
``deal`` or ``act`` it waits until the loop blocks again (the next decision, the next deal,
the end of the game) and reports what euchre-cli holds at that point.

How euchre-cli is fed and read, with nothing of its rules replaced:

- Deals: ``create_deck`` builds the library's 24 cards and shuffles them with ``random.shuffle``
  imported into ``euchre.util.card_util``; that name is replaced by a function that waits for
  the runner's ``deal`` and orders the pack so the library's own ``deal_hand`` (five cards to
  each player in its play order, dealer last) and ``deck.pop(0)`` upcard give exactly the
  case's hands and upcard. A ``deal`` given as a pack order (command ``deal-deck``) is laid
  out as is, top first, and dealt by ``deal_hand`` as euchre-cli deals. A thrown-in hand makes
  the loop call ``create_deck`` again, so the next ``deal`` is awaited in the same place, with
  whatever dealer euchre-cli keeps.
- First dealer: ``dealer`` places that seat last in the player list with ``is_dealer`` set (as
  ``setup`` leaves it); ``first_dealer`` cards are dealt by the library's own ``set_dealer``
  (first black jack) from seat ``start``.
- Decisions: the choices a scripted player is offered are the ones euchre-cli's ``Human``
  player offers at the terminal: round 1 yes/no (``pass``/``order``); the dealer's discard,
  any of the six cards once the upcard is in hand; round 2 the suits held other than the
  turned-down suit (compared by identity, as ``Human`` does) or pass; in play the cards of the
  hand that the library's ``valid_play`` (the check its ``trick`` loop applies) accepts.
- Reading: trick winners and hand points are recorded by thin wrappers around the library's
  ``trick_winner`` and ``hand_winner`` (called as before, results passed on unchanged); scores
  are the ``Team.game_score`` values, the dealer the player with ``is_dealer``.
- Side effects neutralised: ``output`` (print to stdout and ``time.sleep(0.75-1.25)`` unless
  ``pytest`` is in ``sys.modules``) is replaced, in every module that imported it, by a
  version that neither sleeps nor prints; the loguru logger is disabled for ``euchre``; the
  CLI module ``euchre.root`` (whose ``logger_init`` writes under /var/log unless ``CI`` is
  set) is never imported. The process's own stdout is kept for the protocol (``sys.stdout``
  points at stderr) and ``sys.stdin`` is emptied so a stray ``input()`` fails instead of
  eating requests.

euchre-cli has no going alone, no stick the dealer, no choice of target, no Benny: it declares
standard ``euchre`` (the game it claims to play, documenting no variation) with the options it
can play, and refuses what it cannot do: ``alone``/``defend-alone`` and any other action it
never offers are ``illegal_action``; rules outside the declaration are ``unsupported``.
A worker that crashes or fails to reach its next decision within ``WORKER_TIMEOUT`` seconds
turns into an ``internal`` error reply, never a silent hang; the game is then dead until the
next ``new_game``.

Not offered: ``perft``. euchre-cli's position lives in the stack frames of a running loop
(``game`` -> ``hand`` -> ``set_trump_suit``/``trick``), which cannot be copied or undone; counting
sequences would mean replaying the whole game from its start for every node.

Needs ``pip install euchre-cli==0.7.0``.
"""

from __future__ import annotations

import io
import os
import queue
import sys
import threading
import traceback
from typing import Any

from jsonl_server import Refused, serve

# The protocol owns the real stdout and stdin; the library gets neither.
_PROTOCOL_OUT = sys.stdout
_PROTOCOL_IN = sys.stdin
sys.stdout = sys.stderr
sys.stdin = io.StringIO("")

from loguru import logger  # noqa: E402  (euchre-cli's own dependency)

import euchre  # noqa: E402
import euchre.abstract.human as _human_module  # noqa: E402
import euchre.command.play as play  # noqa: E402
import euchre.util as _util_package  # noqa: E402
import euchre.util.card_util as card_util  # noqa: E402
import euchre.util.input_util as _input_util  # noqa: E402
import euchre.util.output_util as _output_util  # noqa: E402
from euchre.abstract import Card, Player, Suit, Team  # noqa: E402

WORKER_TIMEOUT = float(os.environ.get("EUCHRE_CLI_ADAPTER_TIMEOUT", "5"))   # below the runner's 10 s

SUIT_LETTER = {"Club": "C", "Diamond": "D", "Heart": "H", "Spade": "S"}
FACE_LETTER = {"Nine": "9", "Ten": "T", "Jack": "J", "Queen": "Q", "King": "K", "Ace": "A"}
CARD_TOKENS = {f + s for f in FACE_LETTER.values() for s in SUIT_LETTER.values()}


# -- neutralising the terminal ---------------------------------------------------------------------
def _quiet_output(message: str = "", delay: float = 1.25) -> None:
    """euchre-cli's ``output`` without its ``time.sleep(delay)`` and its print."""


for _module in (_output_util, _util_package, play, _human_module, _input_util):
    if getattr(_module, "output", None) is not None:
        _module.output = _quiet_output
logger.disable("euchre")


def token(card: Card) -> str:
    return FACE_LETTER[card.face.name] + SUIT_LETTER[card.suit.name]


def suit_letter(suit: Suit) -> str:
    return SUIT_LETTER[suit.name]


class Aborted(BaseException):
    """Raised inside the worker to end a game that is being abandoned."""


ABORT = object()


# -- hooks into euchre-cli's module globals -------------------------------------------------------
_real_shuffle = card_util.shuffle
_real_trick_winner = play.trick_winner
_real_hand_winner = play.hand_winner
_local = threading.local()


def _current_game() -> "Game | None":
    return getattr(threading.current_thread(), "euchre_game", None)


def _scripted_shuffle(deck: list) -> None:
    """Replaces ``random.shuffle`` in ``create_deck``: the pack is ordered as the runner deals."""
    game = _current_game()
    if game is None:                      # the main thread building cards for the first dealer
        order = getattr(_local, "order", None)
        if order is None:
            _real_shuffle(deck)
            return
        _order_deck(deck, order)
        return
    _order_deck(deck, game.await_deal())


def _order_deck(deck: list, order: list[str]) -> None:
    by_token = {token(card): card for card in deck}
    chosen = [by_token[t] for t in order]
    rest = [card for card in deck if token(card) not in set(order)]
    deck[:] = chosen + rest


def _recording_trick_winner(players, played_cards, trump_suit):
    winner = _real_trick_winner(players, played_cards, trump_suit)
    game = _current_game()
    if game is not None:
        game.trick_done(players, played_cards, winner)
    return winner


def _recording_hand_winner(teams):
    before = [team.game_score for team in teams]
    winning = _real_hand_winner(teams)
    game = _current_game()
    if game is not None:
        game.hand_scored(before, teams, winning)
    return winning


card_util.shuffle = _scripted_shuffle
play.trick_winner = _recording_trick_winner
play.hand_winner = _recording_hand_winner


# -- the scripted players -------------------------------------------------------------------------
class ScriptedPlayer(Player):
    """A euchre-cli player whose decisions come from the runner, offering what ``Human`` offers."""

    def __init__(self, game: "Game", seat: int, team: Team) -> None:
        super().__init__(f"seat{seat}", team)
        self.game = game
        self.seat = seat

    def call_pick_up(self, face_up_card: Card, partner_is_dealer: bool) -> bool:
        game = self.game
        game.upcard = token(face_up_card)
        game.upcard_suit = suit_letter(face_up_card.suit)
        choice = game.decide(self.seat, "bid-round-1", {"pass": False, "order": True})
        if choice:
            game.trump, game.maker = suit_letter(face_up_card.suit), self.seat
        return choice

    def pick_up_card(self, pick_up: Card) -> Card:
        # as Human.pick_up_card: the upcard joins the hand, then any card of the six goes
        self.hand.insert(0, pick_up)
        try:
            choices = {f"discard:{token(card)}": card for card in self.hand}
            card = self.game.decide(self.seat, "discard", choices)
        except BaseException:
            self.hand.pop(0)
            raise
        return self.hand.pop(self.hand.index(card))

    def call_trump_suit(self, unsuitable: Suit) -> Suit:
        game = self.game
        game.turned_down = suit_letter(unsuitable)
        # as Human.call_trump_suit: the suits in hand other than the turned-down one, by identity
        suits: list[Suit] = []
        for card in self.hand:
            if card.suit != unsuitable and card.suit not in suits:
                suits.append(card.suit)
        choices: dict[str, Suit] = {"pass": unsuitable}
        choices.update({f"call:{suit_letter(suit)}": suit for suit in suits})
        suit = game.decide(self.seat, "bid-round-2", choices)
        if suit is not unsuitable:
            game.trump, game.maker = suit_letter(suit), self.seat
        return suit

    def play_card(self, played_cards: list, trump_suit: Suit) -> Card:
        game = self.game
        game.trump = suit_letter(trump_suit)
        if not played_cards:
            game.current_trick = (list(game.players), played_cards)
        choices = {f"play:{token(card)}": card for card in self.hand
                   if play.valid_play(card, self.hand, played_cards, trump_suit)}
        return game.decide(self.seat, "play", choices)


# -- one game: euchre-cli's loop in a worker thread -----------------------------------------------
class Game:
    def __init__(self, scores: list[int]) -> None:
        self.teams = [Team("Team 1"), Team("Team 2")]
        for team, score in zip(self.teams, scores):
            team.game_score = score
        self.seats = [ScriptedPlayer(self, seat, self.teams[seat % 2]) for seat in range(4)]
        self.players: list[ScriptedPlayer] = []         # euchre-cli's play-order list (dealer last)
        self.to_worker: queue.Queue = queue.Queue()
        self.from_worker: queue.Queue = queue.Queue()
        self.pending: dict[str, Any] = {"kind": "starting"}
        self.broken: str | None = None
        self.thread: threading.Thread | None = None
        # what the protocol reports
        self.hand_number = 0
        self.hand_live = False
        self.hand_points: list[int] | None = None
        self.winner: int | None = None
        self.last_hand_winner: int | None = None
        self.reset_hand()

    def reset_hand(self) -> None:
        self.upcard = self.upcard_suit = self.turned_down = self.trump = None
        self.maker: int | None = None
        self.tricks: list[dict[str, Any]] = []
        self.current_trick: tuple[list, list] | None = None

    # -- setup (main thread, before the worker starts) --
    def seat_dealer(self, dealer: int) -> None:
        self.players = [self.seats[(dealer + 1 + k) % 4] for k in range(4)]
        self.players[-1].is_dealer = True

    def first_black_jack(self, cards: list[str], start: int) -> None:
        if not all(isinstance(c, str) and c in CARD_TOKENS for c in cards) or len(set(cards)) != len(cards):
            raise Refused("bad_deal", "first_dealer cards must be distinct cards of the 24-card pack")
        _local.order = list(cards)
        try:
            deck = card_util.create_deck()[:len(cards)]
        finally:
            _local.order = None
        self.players = [self.seats[(start + k) % 4] for k in range(4)]
        try:
            play.set_dealer(self.players, deck)         # euchre-cli's own first-black-jack deal
        except IndexError:
            raise Refused("bad_deal", "no black jack among the first_dealer cards") from None

    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, name="euchre-cli game", daemon=True)
        self.thread.euchre_game = self
        self.thread.start()
        self.wait()

    def _run(self) -> None:
        try:
            play.game(self.players, self.teams)
        except Aborted:
            return
        except BaseException:
            self.from_worker.put({"kind": "crashed", "error": traceback.format_exc(limit=8)})
            return
        self.winner = self.last_hand_winner
        self.from_worker.put({"kind": "over"})

    # -- worker side --
    def decide(self, seat: int, phase: str, choices: dict[str, Any]) -> Any:
        self.from_worker.put({"kind": "decide", "seat": seat, "phase": phase, "choices": choices})
        action = self.to_worker.get()
        if action is ABORT:
            raise Aborted()
        return choices[action]

    def await_deal(self) -> list[str]:
        if self.hand_live and self.hand_points is None:
            self.hand_points = [0, 0]         # all passed: euchre-cli redeals without scoring
        self.hand_live = False
        self.from_worker.put({"kind": "deal"})
        deal = self.to_worker.get()
        if deal is ABORT:
            raise Aborted()
        if "deck" in deal:        # a pack order: euchre-cli's own deal_hand deals it
            return deal["deck"]
        hands = deal["hands"]
        order = [card for player in self.players for card in hands[player.seat]]
        order.append(deal["upcard"])
        order.extend(deal.get("kitty") or [])
        return order

    def trick_done(self, players: list, played_cards: list, winner: ScriptedPlayer) -> None:
        self.tricks.append({"leader": players[0].seat,
                            "cards": [[players[i].seat, token(card)] for i, card in enumerate(played_cards)],
                            "winner": winner.seat})
        self.current_trick = None

    def hand_scored(self, before: list[int], teams: list[Team], winning: Team | None) -> None:
        self.hand_points = [team.game_score - b for team, b in zip(teams, before)]
        self.last_hand_winner = teams.index(winning) if winning in teams else None

    # -- main side --
    def wait(self) -> None:
        try:
            event = self.from_worker.get(timeout=WORKER_TIMEOUT)
        except queue.Empty:
            self.broken = f"euchre-cli's game loop did not reach its next decision within {WORKER_TIMEOUT:g} s"
            self.abort()
            raise Refused("internal", self.broken) from None
        self.pending = event
        if event["kind"] == "crashed":
            self.broken = "euchre-cli raised an exception: " + event["error"].strip().splitlines()[-1]
            print(event["error"], file=sys.stderr)
            raise Refused("internal", self.broken + "\n" + event["error"])

    def check_usable(self) -> None:
        if self.broken:
            raise Refused("internal", f"this game cannot go on ({self.broken}); start a new game")

    def deal(self, message: dict[str, Any]) -> None:
        self.check_usable()
        if self.pending["kind"] != "deal":
            raise Refused("wrong_phase", "no deal is awaited: " + ("the game is over" if self.pending["kind"] == "over"
                                                                 else "a hand is in progress"))
        if "deck" in message:
            deck = message["deck"]
            if (not isinstance(deck, list) or len(deck) != 24 or len(set(map(str, deck))) != 24
                    or not all(isinstance(c, str) and c in CARD_TOKENS for c in deck)):
                raise Refused("bad_deal", "a pack order is the 24 cards of the pack, each once")
            self.start_hand({"deck": list(deck)})
            return
        hands, upcard, kitty = message.get("hands"), message.get("upcard"), message.get("kitty")
        if (not isinstance(hands, list) or len(hands) != 4
                or any(not isinstance(hand, list) or len(hand) != 5 for hand in hands)):
            raise Refused("bad_deal", "four hands of five cards are needed")
        if message.get("widow"):
            raise Refused("bad_deal", "standard Euchre deals no widow")
        if not isinstance(upcard, str):
            raise Refused("bad_deal", "an upcard is needed")
        cards = [card for hand in hands for card in hand] + [upcard] + list(kitty or [])
        unknown = [c for c in cards if not isinstance(c, str) or c not in CARD_TOKENS]
        if unknown:
            raise Refused("bad_deal", f"not cards of the 24-card pack: {unknown}")
        if len(set(cards)) != len(cards):
            raise Refused("bad_deal", "a card is dealt twice")
        if kitty is not None and len(cards) != 24:
            raise Refused("bad_deal", "the kitty must hold the three cards left")
        self.start_hand({"hands": hands, "upcard": upcard, "kitty": kitty})

    def start_hand(self, deal: dict[str, Any]) -> None:
        self.reset_hand()
        self.hand_points = None
        self.hand_number += 1
        self.hand_live = True
        self.to_worker.put(deal)
        self.wait()

    def act(self, seat: Any, action: Any) -> None:
        self.check_usable()
        pending = self.pending
        if pending["kind"] != "decide":
            raise Refused("wrong_phase", "no one is to act: " + ("the game is over" if pending["kind"] == "over"
                                                               else "a deal is awaited"))
        if seat != pending["seat"]:
            raise Refused("out_of_turn", f"seat {seat} acted but seat {pending['seat']} is to act")
        if not isinstance(action, str) or action not in pending["choices"]:
            raise Refused("illegal_action", f"euchre-cli does not offer {action!r} now "
                                            f"(it offers {sorted(pending['choices'])})")
        self.to_worker.put(action)
        self.wait()

    def abort(self) -> None:
        self.to_worker.put(ABORT)

    def observation(self) -> dict[str, Any]:
        kind = self.pending["kind"]
        deciding = kind == "decide"
        over = kind == "over"
        phase = self.pending["phase"] if deciding else "game-over" if over else "deal"
        dealer = next((p.seat for p in self.seats if p.is_dealer), None)
        tricks = list(self.tricks)
        if self.current_trick is not None and self.current_trick[1]:
            order, played = self.current_trick
            tricks.append({"leader": order[0].seat,
                           "cards": [[order[i].seat, token(card)] for i, card in enumerate(played)], "winner": None})
        return {
            "phase": phase,
            "hand_number": self.hand_number,
            "dealer": dealer,
            "to_act": self.pending["seat"] if deciding else None,
            "legal": list(self.pending["choices"]) if deciding else [],
            "upcard": self.upcard,
            "upcard_suit": self.upcard_suit,
            "turned_down": self.turned_down,
            "trump": self.trump,
            "maker": self.maker,
            "alone": False,
            "defender_alone": None,
            "sitting_out": [],
            "hands": [[token(card) for card in p.hand] for p in self.seats],
            "tricks": tricks,
            "hand_points": self.hand_points,
            "scores": [team.game_score for team in self.teams],
            "next_dealer": dealer if kind == "deal" and self.hand_number > 0 else None,
            "game_over": over,
            "winner": self.winner if over else None,
        }


# -- the protocol ---------------------------------------------------------------------------------
# What euchre-cli plays, as values of the standard table's options (the defaults, bar none:
# listed explicitly so the declaration documents them).
DECLARED_OPTIONS = {
    "stick-the-dealer": [False],
    "game-target": [10],
    "first-dealer": ["first-black-jack"],
    "dealer-discard": ["any"],
    "super-euchre": [False],
    "benny": ["none"],
    "railroading": [False],
}


class Adapter:
    def __init__(self) -> None:
        self.rules_ok = False
        self.game: Game | None = None

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        kind = message.get("type")
        if kind == "hello":
            return {"protocol": 1,
                    "engine": {"name": "euchre-cli (adapter)", "version": euchre.__version__, "language": "Python",
                               "url": "https://github.com/boldandbrad/euchre-cli"},
                    "variants": {"euchre": {"options": DECLARED_OPTIONS}}, "commands": ["deal-deck"]}
        if kind == "rules":
            self.rules_ok = False
            if message.get("variant") != "euchre":
                raise Refused("unsupported", "euchre-cli plays four-handed Euchre only")
            defaults = {key: option.get("default")
                        for key, option in ((message.get("table") or {}).get("options") or {}).items()}
            for key, value in (message.get("options") or {}).items():
                allowed = DECLARED_OPTIONS.get(key, [defaults.get(key)])
                if value not in allowed:
                    raise Refused("unsupported", f"euchre-cli cannot play {key}={value!r}")
            self.rules_ok = True
            return {}
        if kind == "new_game":
            return {"state": self.new_game(message)}
        if kind == "bye":
            self.drop_game()
            return {}
        if kind not in ("deal", "act", "state", "legal"):
            raise Refused("bad_message", f"unknown message type {kind!r}")
        if self.game is None:
            raise Refused("wrong_phase", "no game: send rules and new_game first")
        if kind == "deal":
            self.game.deal(message)
        elif kind == "act":
            if "seat" not in message or "action" not in message:
                raise Refused("bad_message", "act needs seat and action")
            self.game.act(message["seat"], message["action"])
        else:
            self.game.check_usable()
        state = self.game.observation()
        if kind == "legal":
            return {"to_act": state["to_act"], "legal": state["legal"]}
        return {"state": state}

    def new_game(self, message: dict[str, Any]) -> dict[str, Any]:
        if not self.rules_ok:
            raise Refused("wrong_phase", "no rules: send rules first")
        scores = message.get("scores") or [0, 0]
        if not isinstance(scores, list) or len(scores) != 2 or not all(isinstance(s, int) for s in scores):
            raise Refused("bad_message", "scores must be two integers, one per partnership")
        self.drop_game()
        game = Game(scores)
        if "dealer" in message:
            dealer = message["dealer"]
            if not isinstance(dealer, int) or not 0 <= dealer < 4:
                raise Refused("bad_message", "dealer must be a seat 0-3")
            game.seat_dealer(dealer)
        elif isinstance(message.get("first_dealer"), dict):
            first = message["first_dealer"]
            start = first.get("start", 0)
            if not isinstance(first.get("cards"), list) or not isinstance(start, int) or not 0 <= start < 4:
                raise Refused("bad_message", "first_dealer needs cards and a start seat 0-3")
            game.first_black_jack(first["cards"], start)
        else:
            raise Refused("bad_message", "new_game needs dealer or first_dealer")
        game.start()
        self.game = game
        if game.pending["kind"] != "deal":
            raise Refused("internal", f"euchre-cli's game did not wait for a deal first ({game.pending['kind']})")
        return game.observation()

    def drop_game(self) -> None:
        if self.game is not None:
            self.game.abort()
            self.game = None


def main() -> int:
    return serve(Adapter().handle, _PROTOCOL_IN, _PROTOCOL_OUT)


if __name__ == "__main__":
    sys.exit(main())
