"""Random legal self-play, and a readable transcript of a game from its event log.

Self-play is how the interpreter is exercised across every option combination: each
decision is a uniformly random legal action, each deal a seeded shuffle, so a seed
reproduces a game exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from .cards import pretty
from .rules import Rules
from .state import State, new_game

MAX_HANDS = 10_000   # a game that lasts longer than this is a bug in the table, not bad luck
PASS_BIAS = 0.7      # random bidders pass this often, as real bidders mostly do


class EndlessGame(Exception):
    """A game that does not end: the table's target cannot be reached by play."""


LOWEST_BIDS = 3      # in an auction a random bidder raises by little: one of the three lowest bids


def random_action(rng: random.Random, state: State) -> str:
    """A random legal action of the seat to act; while bidding it passes more often and,
    in an auction, raises to one of the lowest bids (uniformly random auctions bid ten
    tricks so often that games with an auction never end)."""
    legal = state.legal_actions()
    if state.phase in BIDDING_PHASES and "pass" in legal:
        if rng.random() < PASS_BIAS:
            return "pass"
        if state.phase == "auction":
            bids = [action for action in legal if action != "pass"]
            return rng.choice(bids[:LOWEST_BIDS]) if bids else "pass"
    return rng.choice(legal)


BIDDING_PHASES = frozenset({"bid-round-1", "bid-round-2", "auction"})


def play_random_game(rules: Rules, rng: random.Random) -> State:
    """Play one whole game with random legal actions; return the final state."""
    state = new_game(rules, rng=rng)
    while not state.is_terminal():
        if state.is_chance_node():
            if state.hand_number >= MAX_HANDS:
                raise EndlessGame(f"{rules.id}: game not over after {MAX_HANDS} hands (scores {state.scores})")
            state.deal_random(rng)
        else:
            state.apply(random_action(rng, state))
    return state


@dataclass
class Summary:
    """What many random games did, for the ``play --games N`` table."""

    games: int = 0
    hands: int = 0
    throw_ins: int = 0
    rows: Counter = field(default_factory=Counter)
    winners: Counter = field(default_factory=Counter)
    alone: int = 0
    defended_alone: int = 0
    endless: list[int] = field(default_factory=list)     # the seeds of games that did not end

    def add(self, state: State) -> None:
        self.games += 1
        self.winners[state.winner] += 1
        for event in state.events:
            kind = event[0]
            if kind == "deal":
                self.hands += 1
            elif kind == "throw-in":
                self.throw_ins += 1
            elif kind == "score":
                self.rows[event[1]] += 1
            elif kind == "alone":
                self.alone += 1
            elif kind == "defend-alone":
                self.defended_alone += 1


def play_many(rules: Rules, seed: int | None, games: int, summary: Summary) -> None:
    """Play ``games`` random games into ``summary``, each from a seed of its own drawn from
    ``seed``: a game that does not end is counted with its seed (``play --games 1 --seed S``
    replays it), and the other games are summed all the same."""
    seeds = random.Random(seed)
    for _ in range(games):
        game_seed = seeds.randrange(2 ** 32)
        try:
            summary.add(play_random_game(rules, random.Random(game_seed)))
        except EndlessGame:
            summary.endless.append(game_seed)


def unit_name(rules: Rules, unit: int | None) -> str:
    if unit is None:
        return "nobody (a tie)"
    seats = rules.units[unit]
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + " & ".join(str(s) for s in seats)


def transcript(rules: Rules, events: Iterable[tuple]) -> list[str]:
    """Render an event log as text lines, one decision or result per line."""
    names = rules.card_names

    def cards(mask: int) -> str:
        return " ".join(pretty(c) for c in rules.cards_of(mask))

    lines: list[str] = []
    for event in events:
        kind = event[0]
        if kind == "first-dealer":
            lines.append(f"First dealer: seat {event[1]}")
        elif kind == "deal":
            _, number, dealer, hands, upcard, widow = event
            lines.append("")
            lines.append(f"Hand {number}, dealer seat {dealer}")
            for seat, hand in enumerate(hands):
                lines.append(f"  seat {seat}: {cards(hand)}")
            if widow:
                lines.append(f"  {rules.widow_name}: {cards(widow)}")
            if upcard >= 0:
                lines.append(f"  upcard: {pretty(names[upcard])}")
        elif kind == "action":
            _, seat, token = event
            if not token.startswith("play:"):
                lines.append(f"  seat {seat}: {token}")
        elif kind == "trump":
            lines.append(f"  -> trumps {event[1]}, maker seat {event[2]}")
        elif kind == "benny-suit":
            lines.append(f"  -> the Benny stands for {event[1]}")
        elif kind == "contract":
            lines.append(f"  -> contract {event[1]} by seat {event[2]}")
        elif kind == "no-contract":
            lines.append(f"  -> trumps {event[1]} without a contract or a maker")
        elif kind == "alone":
            lines.append(f"  -> seat {event[1]} plays alone")
        elif kind == "defend-alone":
            lines.append(f"  -> seat {event[1]} defends alone")
        elif kind == "take":
            lines.append(f"  -> seat {event[1]} takes the {event[2]}: {' '.join(pretty(c) for c in event[3])}")
        elif kind == "decline":
            lines.append(f"  -> seat {event[1]} leaves the {event[2]}")
        elif kind == "master-suit":
            lines.append(f"  -> the master card is led as {event[1]}")
        elif kind == "trick":
            _, leader, played, winner = event
            shown = "  ".join(f"{seat}:{pretty(names[card])}" for seat, card in played)
            lines.append(f"  trick: {shown}  -> seat {winner}")
        elif kind == "score":
            _, row, points, scores = event
            lines.append(f"  scored by {row}: {list(points)}; game {list(scores)}")
        elif kind == "throw-in":
            lines.append("  all passed: thrown in")
        elif kind == "game-over":
            lines.append("")
            lines.append(f"Game over: {unit_name(rules, event[1])} won")
    return lines
