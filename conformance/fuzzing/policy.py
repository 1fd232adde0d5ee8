"""How the fuzzer chooses: setups, deals and moves biased towards the rare parts of the rules.

Uniform random moves almost never pass a hand round to a stuck dealer (0.14% of hands),
nor go alone and defend alone in the same hand. So each hand draws a *mood*: how keen the
seats are to pass in each bidding phase and to accept each offer (go alone, defend alone,
give or take a card, take the widow), from "always pass" to "always accept"; moves are then
random within those odds. Among the remaining moves, each kind of action is as likely as
any other (a misère bid as likely as the whole family of six-bids). Games mostly start a
few points short of the target, so that game ends are frequent; some deals turn up a card
that changes the bidding (a Benny). Every choice draws from the game's own random
generator, so a game is reproduced from the seed and its number alone.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from reference_impl import Deal, Rules
from reference_impl.state import new_game

from .lockstep import Reference

BIDDING_PHASES = ("bid-round-1", "bid-round-2", "auction")
PASS_ODDS = {"bid-round-1": (0.3, 0.7, 0.9, 1.0), "bid-round-2": (0.3, 0.7, 0.95), "auction": (0.3, 0.6, 0.85, 1.0)}
OFFER_ODDS = (0.0, 0.3, 0.8)                     # chance of accepting an offer (anything but pass)
NEAR_TARGET = 0.6                                # games that start a few points short of the target
LEVEL_SCORES = 0.3                               # of those, games in which every side has the same score
FIRST_DEALER_BY_CARDS = 0.25                     # games whose first dealer is chosen by cards
SPECIAL_UPCARD = 0.15                            # deals that turn up a card changing the bidding
VIEWS = 0.05                                     # steps after which a seat's view is compared (seat-view engines)
SPECIAL_DEAL = 0.1                               # deals that start a hand unlike most deals do
SPECIAL_SAMPLES = 200                            # random deals looked at to find those
OPENING = 3                                      # steps (passing where one may) that tell how a hand starts


@dataclass
class Mood:
    """One hand's odds: of passing in each bidding phase, of accepting each offer."""

    rng: random.Random
    passing: dict[str, float] = field(default_factory=dict)
    accepting: dict[str, float] = field(default_factory=dict)

    def pass_odds(self, phase: str) -> float:
        if phase not in self.passing:
            self.passing[phase] = self.rng.choice(PASS_ODDS.get(phase, PASS_ODDS["auction"]))
        return self.passing[phase]

    def accept_odds(self, phase: str) -> float:
        if phase not in self.accepting:
            self.accepting[phase] = self.rng.choice(OFFER_ODDS)
        return self.accepting[phase]


def _kind(token: str) -> str:
    """Actions of one kind: all cards of a play, all bids of one strain (``bid:7H`` -> ``bid:H``)."""
    head, _, argument = token.partition(":")
    if head in ("play", "discard", "give"):
        return head
    return head + ":" + re.sub(r"[0-9]", "", argument) if argument else head


def choose(rng: random.Random, legal: Sequence[str], phase: str, mood: Mood) -> str:
    """A move among ``legal`` under this hand's mood."""
    if len(legal) == 1:
        return legal[0]
    if "pass" in legal:
        odds = mood.pass_odds(phase) if phase in BIDDING_PHASES else 1.0 - mood.accept_odds(phase)
        if rng.random() < odds:
            return "pass"
        legal = [a for a in legal if a != "pass"]
    kinds: dict[str, list[str]] = {}
    for token in legal:
        kinds.setdefault(_kind(token), []).append(token)
    group = kinds[rng.choice(sorted(kinds))] if len(kinds) > 1 else legal
    return rng.choice(group)


class Policy:
    """Setups, deals and moves for one rule table."""

    def __init__(self, rules: Rules, reference: Reference, probes: float = 0.03):
        self.rules = rules
        self.start = list(reference.handle({"type": "new_game", "dealer": 0})["state"]["scores"])
        self.probes = probes
        self.target = game_target(rules)
        self.first_dealer_by_cards = _first_dealer_by_cards(rules, reference)
        self.special_upcards = _special_upcards(rules, reference)
        self.special_deals = _special_deals(rules, reference)
        suits = sorted({name[-1] for name in rules.card_names if name != "JK"})
        cards = list(rules.card_names)
        self.vocabulary = (["pass", "order", "alone", "defend-alone", "take"] + [f"call:{s}" for s in suits + ["NT"]]
                           + [f"name:{s}" for s in suits] + [f"{verb}:{c}" for verb in ("play", "discard", "give") for c in cards])

    def setup(self, rng: random.Random, refused: set[str], by_cards: bool | None = None,
              near_target: float = NEAR_TARGET) -> dict[str, Any]:
        """The new_game fields of a game: its first dealer (chosen by cards now and then, where
        the table, or ``by_cards``, says so), and often (``near_target``) scores a few points
        short of the target."""
        setup: dict[str, Any]
        by_cards = self.first_dealer_by_cards if by_cards is None else by_cards
        if by_cards and "first_dealer" not in refused and rng.random() < FIRST_DEALER_BY_CARDS:
            cards = list(self.rules.card_names)
            rng.shuffle(cards)
            setup = {"first_dealer": {"cards": cards, "start": rng.randrange(self.rules.n)}}
        else:
            setup = {"dealer": rng.randrange(self.rules.n)}
        if "scores" not in refused and self.target is not None and rng.random() < near_target:
            scores = [self._near_target(rng, start) for start in self.start]
            if None not in scores:
                if rng.random() < LEVEL_SCORES:
                    scores = [scores[0]] * len(scores)      # level scores: several may reach the target together
                setup["scores"] = scores
        return setup

    def _near_target(self, rng: random.Random, start: int) -> int | None:
        """A score a few points short of the target, counting up from ``start`` or down."""
        span = abs(self.target - start)
        if span == 0:
            return None                                    # no target to approach (a game of fixed deals)
        step = rng.randint(1, max(1, span // 2))
        return self.target - step if start < self.target else self.target + step

    def deal(self, rng: random.Random, dealer: int) -> dict[str, Any]:
        """A random deal, as the protocol's deal fields (see :meth:`deal_cards`)."""
        return self.deal_cards(rng, dealer).to_json()

    def deal_cards(self, rng: random.Random, dealer: int) -> Deal:
        """A random deal; now and then one that starts the hand unusually (a weak hand its
        holder may throw in, say), or one with a card that changes the bidding turned up."""
        if self.special_deals and rng.random() < SPECIAL_DEAL:
            return self.special_deal(rng, dealer, rng.choice(sorted(self.special_deals)))
        deal = self.rules.random_deal(rng, dealer)
        if self.special_upcards and deal.upcard is not None and rng.random() < SPECIAL_UPCARD:
            deal = with_upcard(deal, rng.choice(self.special_upcards))
        return deal

    def special_deal(self, rng: random.Random, dealer: int, start: tuple) -> Deal:
        """One of the deals after which a hand starts as ``start`` says, for ``dealer``."""
        return rotated(rng.choice(self.special_deals[start]), dealer, self.rules.n)

    def mood(self, rng: random.Random) -> Mood:
        return Mood(rng)

    def view(self, rng: random.Random) -> int | None:
        """Now and then, a seat whose view of the game (``state`` with a ``seat``) is compared."""
        return rng.randrange(self.rules.n) if rng.random() < VIEWS else None

    def probe(self, rng: random.Random, state: dict[str, Any]) -> tuple[int, str] | None:
        """Now and then, a request the rules must refuse: a token that is not legal, or a
        legal one from a seat that is not to act."""
        if self.probes <= 0 or rng.random() >= self.probes:
            return None
        seat, legal = state["to_act"], state["legal"]
        if rng.random() < 0.3 and self.rules.n > 1:
            other = rng.choice([s for s in range(self.rules.n) if s != seat])
            return other, rng.choice(legal)
        wrong = [t for t in self.vocabulary if t not in legal]
        return (seat, rng.choice(wrong)) if wrong else None


def with_upcard(deal: Deal, card: str) -> Deal:
    """The same deal with ``card`` turned up: it changes places with the upcard."""
    old = deal.upcard

    def swap(cards: Sequence[str]) -> tuple[str, ...]:
        return tuple(old if c == card else c for c in cards)

    return Deal(tuple(swap(h) for h in deal.hands), card, swap(deal.widow), swap(deal.kitty))


def rotated(deal: Deal, dealer: int, players: int) -> Deal:
    """A deal made for dealer 0, given to the same seats counted from ``dealer``."""
    return Deal(tuple(deal.hands[(seat - dealer) % players] for seat in range(players)), deal.upcard, deal.widow,
                deal.kitty)


def game_target(rules: Rules) -> int | None:
    """The table's game target (0 where the game counts down to it, or has none), if it has one."""
    game = rules.table.get("game") or {}
    target = game.get("target") if isinstance(game, dict) else None
    if isinstance(target, dict):
        target = target.get("points", target.get("value"))
    if not isinstance(target, int) or isinstance(target, bool):
        target = getattr(rules, "target", None)
    return target if isinstance(target, int) and not isinstance(target, bool) else None


def _first_dealer_by_cards(rules: Rules, reference: Reference) -> bool:
    """Whether this table chooses the first dealer from cards (the reference accepts them)."""
    reply = reference.handle({"type": "new_game", "first_dealer": {"cards": list(rules.card_names), "start": 0}})
    return bool(reply.get("ok"))


def _special_upcards(rules: Rules, reference: Reference) -> list[str]:
    """The cards that, turned up, lead to another phase than most cards do (a Benny)."""
    deal = rules.random_deal(random.Random(0), 0)
    if deal.upcard is None:
        return []
    phases: dict[str, list[str]] = {}
    for card in rules.card_names:
        reference.handle({"type": "new_game", "dealer": 0})
        reply = reference.handle({"type": "deal", **with_upcard(deal, card).to_json()})
        phase = reply["state"]["phase"] if reply.get("ok") else "refused"
        phases.setdefault(phase, []).append(card)
    usual = max(phases.values(), key=len)
    return sorted(card for cards in phases.values() if cards is not usual for card in cards)


def _special_deals(rules: Rules, reference: Reference, samples: int = SPECIAL_SAMPLES) -> dict[tuple, list[Deal]]:
    """Deals (for dealer 0) after which the hand starts unlike after most deals, by how its
    first few steps go when everyone passes where they may: other phases, or other kinds of
    move (found among ``samples`` random deals and some lopsided ones, the same each time).
    Each way of starting is then drawn as often as any other."""
    rng = random.Random(0)
    starts: dict[tuple, list[Deal]] = {}
    deals = [rules.random_deal(rng, 0) for _ in range(samples)] + _lopsided_deals(rules, rng)
    for deal in deals:
        starts.setdefault(_opening(reference, deal), []).append(deal)
    usual = max(starts, key=lambda k: len(starts[k]))
    return {start: deals for start, deals in starts.items() if start != usual}


def _opening(reference: Reference, deal: Deal) -> tuple:
    """How a hand starts after ``deal`` (for dealer 0) on the reference: the phase and the
    kinds of move of its first few steps, everyone passing where they may (``refused``
    where the reference refuses the deal or a move).

    The reference's game is asked directly, as its ``new_game``, ``deal`` and ``act``
    handlers ask it, reading only the three fields a reply's full state would be read for:
    a table's policy looks at some two hundred deals, and building (then dropping) each
    step's whole observation was most of the cost of making one."""
    rules = reference.engine.rules
    start: tuple = ()
    try:
        game = new_game(rules, 0)
        if not game.is_chance_node():
            return ("refused",)
        game.deal(deal)
    except Exception:  # noqa: BLE001 - refused (a rule, or a bug of the interpreter), as the handler's reply says
        return ("refused",)
    for _ in range(OPENING):
        legal = game.legal_actions()
        start += (game.phase, tuple(sorted({_kind(a) for a in legal})))
        to_act = game.current_player()
        if to_act is None or not legal:
            break
        try:
            game.apply("pass" if "pass" in legal else legal[0], to_act)
        except Exception:  # noqa: BLE001
            start += ("refused",)
            break
    return start


RANK_ORDER = "23456789TJQKA"


def _rank(card: str) -> int:
    return RANK_ORDER.index(card[0]) if len(card) == 2 and card[0] in RANK_ORDER else len(RANK_ORDER)


def _lopsided_deals(rules: Rules, rng: random.Random, skips: tuple[int, ...] = (0, 1, 2, 4)) -> list[Deal]:
    """Deals in which one seat holds the lowest (or the highest) cards of the pack, but for
    the first few of them (a Benny may be the lowest card by its rank): rules about what a
    hand holds (nothing but nines and tens, say) are rare in random deals."""
    found = []
    for seat in range(rules.n):
        for highest in (False, True):
            for skip in skips:
                deal = rules.random_deal(rng, 0)
                cards = [c for h in deal.hands for c in h] + ([deal.upcard] if deal.upcard else []) \
                    + list(deal.widow) + list(deal.kitty)
                rng.shuffle(cards)
                cards.sort(key=_rank, reverse=highest)
                size = len(deal.hands[seat])
                mine = cards[skip:skip + size]
                rest = cards[:skip] + cards[skip + size:]
                rng.shuffle(rest)
                hands = []
                for s, hand in enumerate(deal.hands):
                    if s == seat:
                        hands.append(tuple(mine))
                    else:
                        hands.append(tuple(rest[:len(hand)]))
                        rest = rest[len(hand):]
                upcard = rest.pop(0) if deal.upcard is not None else None
                widow, rest = tuple(rest[:len(deal.widow)]), rest[len(deal.widow):]
                found.append(Deal(tuple(hands), upcard, widow, tuple(rest)))
    return found
