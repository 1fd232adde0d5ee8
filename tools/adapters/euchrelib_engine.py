#!/usr/bin/env python3
"""Drive euchrelib 0.0.2 (PyPI ``euchrelib``) over the Euchre Spec protocol.

euchrelib is a state container for a web game: it deals, takes calls and plays cards, and
leaves almost every rule to its caller. This adapter drives it exactly as a web app would
(``pass_trump``, ``call_trump``, ``play_card``, clearing each finished trick with
``Trick.clear``) and reports its state; it adds no rule of its own. What euchrelib has no
notion of (going alone, the dealer's discard, a game target, choosing the first dealer)
it cannot do: such requests are refused (``illegal_action`` for an action it has no call
for, ``unsupported`` for a setup it cannot take). It declares standard Euchre with the
default options only. A known non-conformant engine: the suite must reject it.

Needs ``pip install euchrelib==0.0.2 dacite importlib_resources`` (euchrelib imports the
last two without declaring them).
"""

from __future__ import annotations

import sys
from typing import Any

from jsonl_server import Refused, serve

from euchrelib.deck import Card, Number, Suit
from euchrelib.game import Game, Round, RoundStatus

SUITS = {"C": Suit.clubs, "D": Suit.diamonds, "H": Suit.hearts, "S": Suit.spades}
LETTER = {suit: letter for letter, suit in SUITS.items()}
NUMBERS = {"9": Number.nine, "T": Number.ten, "J": Number.jack, "Q": Number.queen, "K": Number.king, "A": Number.ace}
RANK = {number.value: rank for rank, number in NUMBERS.items()}   # Number has no hash: key by value
PHASES = {RoundStatus.CALLING_PICKUP: "bid-round-1", RoundStatus.CALLING_OPEN: "bid-round-2", RoundStatus.PLAYING: "play"}


def to_card(token: str) -> Card:
    if len(token) != 2 or token[0] not in NUMBERS or token[1] not in SUITS:
        raise Refused("illegal_action", f"euchrelib has no card {token!r}")
    return Card(number=NUMBERS[token[0]], suit=SUITS[token[1]])


def token(card: Card) -> str:
    return RANK[card.number.value] + LETTER[card.suit]


class Adapter:
    def __init__(self) -> None:
        self.game: Game | None = None
        self.tricks: list[dict[str, Any]] = []
        self.maker: int | None = None
        self.hand_number = 0
        self.hand_points: list[int] | None = None
        self.in_hand = False
        self.dealer = 0

    def seat_name(self, seat: int) -> str:
        return f"seat{seat}"

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        kind = message.get("type")
        if kind == "hello":
            return {"protocol": 1, "engine": {"name": "euchrelib (adapter)", "version": "0.0.2", "language": "Python"},
                    "variants": {"euchre": {}}, "commands": []}
        if kind == "rules":
            selected = message.get("options", {})
            defaults = {k: o["default"] for k, o in message.get("table", {}).get("options", {}).items()}
            if message.get("variant") != "euchre" or selected != defaults:
                raise Refused("unsupported", "euchrelib plays standard Euchre with the default options only")
            return {}
        if kind == "new_game":
            if "dealer" not in message:
                raise Refused("unsupported", "euchrelib cannot choose the first dealer from cards")
            game = Game()
            for seat in range(4):
                game.add_player(self.seat_name(seat), sid=None)
            game.score = list(message.get("scores") or [0, 0])
            game.live = True
            self.game, self.dealer, self.tricks, self.maker = game, message["dealer"], [], None
            self.hand_number, self.hand_points, self.in_hand = 0, None, False
            return {"state": self.state()}
        if self.game is None:
            raise Refused("wrong_phase", "no game")
        if kind == "deal":
            if "hands" not in message:
                raise Refused("unsupported", "euchrelib deals only from explicit hands")
            game = self.game
            for seat, cards in enumerate(message["hands"]):
                game.players[seat].hand = [to_card(c) for c in cards]
            game.rnd = Round(dealer_index=self.dealer, status=RoundStatus.CALLING_PICKUP, pickup_card=to_card(message["upcard"]))
            game.turn_index = (self.dealer + 1) % 4
            self.tricks, self.maker, self.hand_points, self.in_hand = [], None, None, True
            self.hand_number += 1
            return {"state": self.state()}
        if kind == "act":
            self.act(message["seat"], message["action"])
            return {"state": self.state()}
        if kind == "legal":
            state = self.state()
            return {"to_act": state["to_act"], "legal": state["legal"]}
        if kind == "state":
            return {"state": self.state()}
        if kind == "bye":
            return {}
        raise Refused("bad_message", f"unknown message type {kind!r}")

    def act(self, seat: int, action: str) -> None:
        game = self.game
        if not self.in_hand:
            raise Refused("wrong_phase", "no hand in progress")
        status = game.rnd.status
        name = self.seat_name(seat)
        kind, _, arg = action.partition(":")
        if status in (RoundStatus.CALLING_PICKUP, RoundStatus.CALLING_OPEN) and kind == "pass":
            game.pass_trump(player=name)
        elif status == RoundStatus.CALLING_PICKUP and kind == "order":
            game.call_trump(game.rnd.pickup_card.suit, username=name)
            self.maker = seat
        elif status == RoundStatus.CALLING_OPEN and kind == "call" and arg in SUITS:
            game.call_trump(SUITS[arg], username=name)
            self.maker = seat
        elif status == RoundStatus.PLAYING and kind == "play":
            card = to_card(arg)
            if card not in game.players[seat].hand:
                raise Refused("illegal_action", f"{name} does not hold {arg}")
            before = list(game.score)
            game.play_card(None, card, username=name)
            trick = game.rnd.trick
            if trick.done:
                self.tricks.append({"leader": None, "cards": [[int(p.name[4:]), token(c)] for p, c in trick.cards.items()],
                                    "winner": int(trick.winner.name[4:])})
                trick.clear()
            if game.rnd.done:
                self.hand_points = [after - b for after, b in zip(game.score, before)]
                self.in_hand = False
                self.dealer = (self.dealer + 1) % 4
        else:
            raise Refused("illegal_action", f"euchrelib has no call for {action!r} now")

    def state(self) -> dict[str, Any]:
        game = self.game
        rnd = game.rnd
        in_hand = self.in_hand
        tricks = [dict(t, leader=t["cards"][0][0]) for t in self.tricks]
        current = rnd.trick.cards if in_hand else {}
        if current:
            cards = [[int(p.name[4:]), token(c)] for p, c in current.items()]
            tricks.append({"leader": cards[0][0], "cards": cards, "winner": None})
        phase = PHASES.get(rnd.status, "deal") if in_hand else "deal"
        to_act = game.turn_index if in_hand else None
        if phase == "bid-round-1":
            legal = ["pass", "order"]
        elif phase == "bid-round-2":
            legal = ["pass"] + [f"call:{s}" for s in SUITS]
        elif phase == "play":
            legal = [f"play:{token(c)}" for c in game.players[to_act].hand]
        else:
            legal = []
        return {"phase": phase, "hand_number": self.hand_number, "dealer": self.dealer, "to_act": to_act, "legal": legal,
                "upcard": token(rnd.pickup_card) if rnd.pickup_card else None,
                "trump": LETTER[rnd.trump] if rnd.trump else None, "maker": self.maker, "alone": False,
                "defender_alone": None, "sitting_out": [], "tricks": tricks, "hand_points": self.hand_points,
                "scores": list(game.score), "next_dealer": None if in_hand or self.hand_number == 0 else self.dealer,
                "game_over": False, "winner": None,
                "hands": [[token(c) for c in p.hand] for p in game.players]}


def main() -> int:
    return serve(Adapter().handle)


if __name__ == "__main__":
    sys.exit(main())
