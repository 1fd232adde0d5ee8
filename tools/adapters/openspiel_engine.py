#!/usr/bin/env python3
"""Drive OpenSpiel's ``euchre`` (PyPI ``open-spiel``, module ``pyspiel``) over the Euchre Spec protocol.

Each hand is an OpenSpiel state fed the case's deal as its chance events: the dealer, then
twenty cards dealt one at a time (the k-th to seat (dealer + k) % 4), then the upcard.
Actions map both ways (cards 0-23 as rank * 4 + suit, 24 pass, 25-28 a trump suit, 29 go
alone, 30 play with the partner); every action is checked against OpenSpiel's legal actions
before it is applied, since an illegal one aborts OpenSpiel's process. Everything reported
is read from OpenSpiel's own accessors; the adapter adds no rule of its own. A seat's view
(``seat-view``) is OpenSpiel's information state for that player, so that ``fuzz --views``
tests what OpenSpiel itself tells each player.

OpenSpiel has two parameters, ``stick_the_dealer`` and ``allow_lone_defender``, taken from
the rule table; it declares the ``openspiel`` preset (spec/variants/openspiel.yaml, the
rules OpenSpiel implements) and, to show where it differs, standard ``euchre`` with those
two options. An OpenSpiel game is one hand: it cannot start from game scores, choose its
first dealer from cards, or deal a second hand.
"""

from __future__ import annotations

import sys
from typing import Any

from jsonl_server import Refused, serve

import pyspiel

RANKS, SUITS = "9TJQKA", "CDHS"
PASS, ALONE, WITH_PARTNER = 24, 29, 30
Phase = pyspiel.euchre.Phase


def card_id(token: str) -> int:
    if len(token) != 2 or token[0] not in RANKS or token[1] not in SUITS:
        raise Refused("illegal_action", f"OpenSpiel has no card {token!r}")
    return RANKS.index(token[0]) * 4 + SUITS.index(token[1])


def card_token(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


class Adapter:
    def __init__(self) -> None:
        self.game = None
        self.state = None
        self.dealer = 0
        self.hand_number = 0

    # -- messages --------------------------------------------------------------------------------
    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        kind = message.get("type")
        if kind == "hello":
            return {"protocol": 1, "engine": {"name": "OpenSpiel euchre (adapter)", "version": _version(), "language": "C++/Python"},
                    "variants": {"openspiel": {"options": {"defending-alone": [False, True]}},
                                 "euchre": {"options": {"stick-the-dealer": [False, True], "defending-alone": [True, False]}}},
                    "commands": ["perft", "seat-view"]}
        if kind == "rules":
            options = message.get("options") or {}
            if message.get("variant") not in ("openspiel", "euchre"):
                raise Refused("unsupported", "OpenSpiel plays four-handed Euchre only")
            # OpenSpiel's two parameters, from the option values it declared in hello.
            stick = bool(options.get("stick-the-dealer"))
            lone_defender = bool(options.get("defending-alone"))
            self.game = pyspiel.load_game(f"euchre(stick_the_dealer={str(stick).lower()},"
                                          f"allow_lone_defender={str(lone_defender).lower()})")
            self.state = None
            return {}
        if kind == "new_game":
            if self.game is None:
                raise Refused("wrong_phase", "no rules")
            if "dealer" not in message:
                raise Refused("unsupported", "OpenSpiel draws its dealer by chance; it cannot choose one from cards")
            if any(message.get("scores") or []):
                raise Refused("unsupported", "an OpenSpiel game is one hand: it cannot start from game scores")
            self.dealer, self.hand_number, self.state = message["dealer"], 0, None
            return {"state": self.observation()}
        if self.game is None:
            raise Refused("wrong_phase", "no game")
        if kind == "deal":
            return {"state": self.deal(message)}
        if kind == "act":
            self.act(message["seat"], message["action"])
            return {"state": self.observation()}
        if kind == "state":
            if "seat" in message:
                return {"state": self.seat_view(message["seat"])}
            return {"state": self.observation()}
        if kind == "legal":
            obs = self.observation()
            return {"to_act": obs["to_act"], "legal": obs["legal"]}
        if kind == "perft":
            if self.state is None:
                raise Refused("wrong_phase", "no hand")
            return {"nodes": _perft(self.state, message["depth"])}
        if kind == "bye":
            return {}
        raise Refused("bad_message", f"unknown message type {kind!r}")

    def deal(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.state is not None:
            raise Refused("wrong_phase", "an OpenSpiel game is one hand; this one has been dealt")
        if "hands" not in message or message.get("upcard") is None:
            raise Refused("unsupported", "OpenSpiel is dealt explicit hands and an upcard")
        hands = [[card_id(c) for c in hand] for hand in message["hands"]]
        if len(hands) != 4 or any(len(h) != 5 for h in hands):
            raise Refused("bad_deal", "four hands of five cards are needed")
        state = self.game.new_initial_state()
        chance = [self.dealer] + [hands[(self.dealer + k) % 4][k // 4] for k in range(20)] + [card_id(message["upcard"])]
        for action in chance:
            if action not in state.legal_actions():
                raise Refused("bad_deal", f"OpenSpiel refuses the chance outcome {action} (a card dealt twice?)")
            state.apply_action(action)
        self.state = state
        self.hand_number += 1
        return self.observation()

    def act(self, seat: int, token: str) -> None:
        state = self.state
        if state is None or state.is_terminal():
            raise Refused("wrong_phase", "no one is to act")
        if seat != state.current_player():
            raise Refused("out_of_turn", f"seat {seat} acted but seat {state.current_player()} is to act")
        action = self.action_id(token)
        if action is None or action not in state.legal_actions():
            raise Refused("illegal_action", f"{token} is not among OpenSpiel's legal actions")
        state.apply_action(action)

    # -- mapping ----------------------------------------------------------------------------------
    def action_id(self, token: str) -> int | None:
        phase = self.state.current_phase()
        kind, _, arg = token.partition(":")
        if phase == Phase.BIDDING:
            if token == "pass":
                return PASS
            if kind == "order" and self.state.num_passes() < 4:
                return 25 + self.state.upcard() % 4
            if kind == "call" and arg in SUITS and self.state.num_passes() >= 4:
                return 25 + SUITS.index(arg)
            return None
        if phase == Phase.GO_ALONE:
            deciding_maker = self.state.declarer_go_alone() is None
            if token == ("alone" if deciding_maker else "defend-alone"):
                return ALONE
            return WITH_PARTNER if token == "pass" else None
        if phase in (Phase.DISCARD, Phase.PLAY) and kind == ("discard" if phase == Phase.DISCARD else "play"):
            return card_id(arg)
        return None

    def token(self, action: int) -> str:
        phase = self.state.current_phase()
        if phase == Phase.BIDDING:
            if action == PASS:
                return "pass"
            return "order" if self.state.num_passes() < 4 else f"call:{SUITS[action - 25]}"
        if phase == Phase.GO_ALONE:
            if action == WITH_PARTNER:
                return "pass"
            return "alone" if self.state.declarer_go_alone() is None else "defend-alone"
        return ("discard:" if phase == Phase.DISCARD else "play:") + card_token(action)

    def legal_tokens(self) -> list[str]:
        """The legal actions of the seat to act, as our tokens."""
        if self.state is None or self.state.is_terminal():
            return []
        return [self.token(a) for a in self.state.legal_actions()]

    def observation(self) -> dict[str, Any]:
        state = self.state
        if state is None:
            return {"phase": "deal", "hand_number": self.hand_number, "dealer": self.dealer, "to_act": None, "legal": [],
                    "trump": None, "maker": None, "alone": False, "defender_alone": None, "sitting_out": [],
                    "tricks": [], "hand_points": None, "scores": [0, 0], "next_dealer": None,
                    "game_over": False, "winner": None}
        phase = state.current_phase()
        names = {Phase.BIDDING: "bid-round-1" if state.num_passes() < 4 else "bid-round-2", Phase.DISCARD: "discard",
                 Phase.PLAY: "play", Phase.GAME_OVER: "game-over"}
        name = names.get(phase, "alone" if state.declarer_go_alone() is None else "defend-alone")
        terminal = state.is_terminal()
        to_act = None if terminal else state.current_player()
        active = state.active_players()
        points = [max(0, int(state.returns()[0])), max(0, int(state.returns()[1]))] if terminal else None
        declarer = state.declarer()
        return {
            "phase": name, "hand_number": self.hand_number, "dealer": state.dealer(), "to_act": to_act,
            "legal": self.legal_tokens(),
            "upcard": card_token(state.upcard()),
            "trump": SUITS[int(state.trump_suit())] if int(state.trump_suit()) >= 0 else None,
            "maker": declarer if declarer >= 0 else None,
            "alone": bool(state.declarer_go_alone()),
            "defender_alone": state.lone_defender() if state.lone_defender() >= 0 else None,
            "sitting_out": [p for p in range(4) if not active[p]],
            "tricks": self.tricks(),
            "hand_points": points, "scores": points or [0, 0], "next_dealer": None,
            "game_over": terminal,
            "winner": (0 if points[0] > 0 else 1 if points[1] > 0 else None) if terminal else None,
        }

    def seat_view(self, seat: Any) -> dict[str, Any]:
        """One seat's view: the public fields, and what OpenSpiel's own information state for
        that seat holds (``information_state``: its string; ``information_state_tensor``: its
        tensor, as the indices of its non-zero entries), with the seat's hand read from the
        state's card holders. Nothing else: a view tells the seat what OpenSpiel tells its
        player, so what OpenSpiel forgets (the dealer's buried card) the view forgets."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise Refused("bad_message", f"state: seat {seat!r} is not a seat of 4 players")
        view = self.observation()
        if view["to_act"] != seat:
            view["legal"] = []
        state = self.state
        if state is None:
            return view
        holders = state.card_holder()
        view["hands"] = [[card_token(c) for c, holder in enumerate(holders) if holder == seat] if s == seat else None
                         for s in range(4)]
        view["information_state"] = state.information_state_string(seat)
        view["information_state_tensor"] = [i for i, x in enumerate(state.information_state_tensor(seat)) if x]
        return view

    def tricks(self) -> list[dict[str, Any]]:
        state = self.state
        if state.current_phase() not in (Phase.PLAY, Phase.GAME_OVER) or state.num_cards_played() == 0:
            return []
        players = 4 - sum(1 for a in state.active_players() if not a)
        out = []
        for index, trick in enumerate(state.tricks()):
            played = state.num_cards_played() - index * players
            if played <= 0:
                break
            seats, seat = [], trick.leader()
            for _ in range(min(played, players)):
                seats.append(seat)
                seat = (seat + 1) % 4
                while not state.active_players()[seat]:
                    seat = (seat + 1) % 4
            cards = trick.cards()[:len(seats)]
            out.append({"leader": trick.leader(), "cards": [[s, card_token(c)] for s, c in zip(seats, cards)],
                        "winner": trick.winner() if played >= players else None})
        return out


def _perft(state, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += _perft(child, depth - 1)
    return total


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("open-spiel")
    except Exception:
        return "unknown"


def main() -> int:
    return serve(Adapter().handle)


if __name__ == "__main__":
    sys.exit(main())
