"""Compile a resolved rule table into flat, precomputed tables.

Everything the game loop asks more than once is answered here in advance, by index, so the
hot path never looks up a string or walks YAML: cards are small integers and hands are
bitmasks; the ranking is a set of lookup tables per trump context (:mod:`ranking`); the
hand's steps, conditions, seat references and scoring rows are closures and records
(:mod:`steps`, :mod:`conditions`, :mod:`scoring`). Action tokens are made once; turning a
hand's bitmask into its list of ``play:`` tokens is three table lookups.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Sequence

from . import cards as notation
from .checks import deck_cards
from .errors import SpecError
from .ranking import compile_cards
from .resolve import ResolvedTable, resolve
from .scoring import compile_counters, compile_rows
from .steps import CONCEDE, OFFER, Bid, compile_steps, offer_tokens

# Kinds of action, decoded from tokens once.
WORD, CALL, NAME, GIVE, DISCARD, PLAY, BID = range(7)
SIDES = {"teams": 0, "maker-against-rest": 1, "maker-and-called": 2, "each-alone": 3}
TEAMS, AGAINST_REST, CALLED, EACH_ALONE = range(4)

MAX_CHUNK_BITS = 9


@lru_cache(maxsize=64)
def mask_tokens(prefix: str, card_names: tuple[str, ...]) -> "MaskTokens":
    """Shared token tables: every resolution of a variant has the same pack."""
    return MaskTokens(prefix, card_names)


class MaskTokens:
    """Turns a bitmask of cards into the list of ``<prefix>:<card>`` tokens (or of bare card
    names, for an empty prefix), in card order.

    The pack is cut into equal chunks of at most 9 cards (three for a 24- or 25-card pack);
    each chunk has a table from every subset to its tuple of tokens, so a hand's list is
    three lookups, and the tables cost a millisecond to build.
    """

    __slots__ = ("chunks", "bits", "low_mask")

    def __init__(self, prefix: str, card_names: Sequence[str]):
        tokens = [f"{prefix}:{name}" if prefix else name for name in card_names]
        pieces = -(-len(tokens) // MAX_CHUNK_BITS)
        self.bits = max(1, -(-len(tokens) // pieces))
        self.low_mask = (1 << self.bits) - 1
        self.chunks = []
        for base in range(0, pieces * self.bits, self.bits):
            part = tokens[base:base + self.bits]
            table: list[tuple[str, ...]] = [()] * (1 << len(part))
            for mask in range(1, 1 << len(part)):
                top = mask.bit_length() - 1          # extend the list without the top card
                table[mask] = table[mask ^ (1 << top)] + (part[top],)
            self.chunks.append(table)

    def __call__(self, mask: int) -> list[str]:
        chunks, bits = self.chunks, self.bits
        if len(chunks) == 3:
            low = self.low_mask
            return [*chunks[0][mask & low], *chunks[1][mask >> bits & low], *chunks[2][mask >> 2 * bits]]
        out: list[str] = []
        for table in chunks:
            out += table[mask & self.low_mask]
            mask >>= bits
        return out


@dataclass(frozen=True)
class Deal:
    """One hand's cards, by seat, as card tokens.

    ``hands[s]`` is seat ``s``'s hand; ``upcard`` is None where the variant turns none up;
    ``widow`` holds the set-aside cards (dummy, widow) and ``kitty`` the undealt rest.
    """

    hands: tuple[tuple[str, ...], ...]
    upcard: str | None = None
    widow: tuple[str, ...] = ()
    kitty: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"hands": [list(h) for h in self.hands]}
        if self.upcard is not None:
            data["upcard"] = self.upcard
        if self.widow:
            data["widow"] = list(self.widow)
        if self.kitty:
            data["kitty"] = list(self.kitty)
        return data


class Rules:
    """A variant ready to play: the resolved table plus its precomputed tables."""

    def __init__(self, resolved: ResolvedTable):
        t = resolved.table
        self.resolved = resolved
        self.table: dict[str, Any] = t
        self.id: str = t["id"]
        self.sha256: str = resolved.sha256
        self.selected: dict[str, Any] = resolved.selected
        self._compile_players(t["players"])
        self._compile_cards(t["deck"], t["ranking"])
        self._compile_deal(t["deal"])
        self.bid_list: list[Bid] = []
        self.steps = compile_steps(self, t)
        self.bids: tuple[Bid, ...] = tuple(self.bid_list)
        # Whether a side may concede a hand here (an offer with effect: concede): the
        # observation then carries `conceded`.
        self.concessions: bool = any(step.kind == OFFER and step.effect == CONCEDE for step in self.steps)
        self.makers_need: int = t["scoring"].get("makers-need", 0)
        self.scoring_rows = compile_rows(self, t["scoring"])
        self.counters = compile_counters(self, t.get("counters", []))
        self.counter_per_player = {c.id: c.per_player for c in self.counters}
        self._compile_game(t["game"])
        self._compile_actions()
        self.max_hand_actions = self._longest_hand()
        self.clauses: dict[str, dict[str, Any]] = {c["id"]: c for c in t.get("clauses", [])}

    # -- players -------------------------------------------------------------------------
    def _compile_players(self, players: Mapping[str, Any]) -> None:
        n = self.n = players["count"]
        self.sides: int = SIDES[players["sides"]]
        teams = players.get("teams")
        self.teams = teams is not None
        if teams is not None:
            self.units: tuple[tuple[int, ...], ...] = tuple(tuple(g) for g in teams)
        else:
            self.units = tuple((s,) for s in range(n))
        self.unit_of: tuple[int, ...] = tuple(next(u for u, g in enumerate(self.units) if s in g) for s in range(n))
        self.left: tuple[int, ...] = tuple((s + 1) % n for s in range(n))
        self.team_mates: tuple[tuple[int, ...], ...] = tuple(
            tuple(m for m in self.units[self.unit_of[s]] if m != s) if self.teams else () for s in range(n))

    # -- cards and ranking ---------------------------------------------------------------
    def _compile_cards(self, deck: Mapping[str, Any], ranking: Mapping[str, Any]) -> None:
        self.suits: tuple[str, ...] = tuple(deck["suits"])
        names = deck_cards(dict(deck))
        self.card_names: tuple[str, ...] = tuple(names)
        self.card_index: dict[str, int] = {c: i for i, c in enumerate(names)}
        self.n_cards = len(names)
        self.bit: tuple[int, ...] = tuple(1 << i for i in range(self.n_cards))
        self.full_mask = (1 << self.n_cards) - 1
        suit_index = {s: i for i, s in enumerate(self.suits)}
        self.printed_suit: tuple[int, ...] = tuple(suit_index.get(notation.suit_of(c) or "", -1) for c in names)
        self.NT = len(self.suits)                      # the trump context of no-trumps
        self.NL = len(self.suits) + 1                  # of low no-trumps
        self.contexts = len(self.suits) + 2
        self.copies: int = deck.get("copies", 1)
        tables = self.cards = compile_cards(names, self.suits, ranking, deck["colours"], notation.rank_order(deck))
        self.eff, self.power, self.suit_mask = tables.eff, tables.power, tables.suit_mask
        self.benny, self.master = tables.benny, tables.master
        self.master_bit = tables.master_mask
        self.master_names_suit = tables.master_names_suit
        self.master_any_time = tables.master_any_time
        self.later_equal_wins: bool = ranking.get("equal-cards", "first-played") == "last-played"
        black = {f"J{s}" for s in self.suits if deck["colours"].get(s) == "black"}
        self.black_jacks = frozenset(c for c, name in enumerate(names) if notation.base_of(name) in black)

    # -- deal ------------------------------------------------------------------------------
    def _compile_deal(self, deal: Mapping[str, Any]) -> None:
        plan: list[int] = []           # per deck position: seat offset from the eldest, -1 widow, -2 upcard
        for packet in deal["packets"]:
            if packet["to"] == "players":
                for offset in range(self.n):
                    plan += [offset] * packet["count"]
            else:
                plan += [-1] * packet["count"]
        self.hand_size = sum(p["count"] for p in deal["packets"] if p["to"] == "players")
        self.widow_size = sum(p["count"] for p in deal["packets"] if p["to"] == "widow")
        self.has_upcard: bool = deal["upcard"]
        if self.has_upcard:
            plan.append(-2)
        self.deal_plan: tuple[int, ...] = tuple(plan)
        self.kitty_size = self.n_cards - len(plan)
        self.widow_name: str = deal.get("widow-name", "widow")

    # -- the end of the game -------------------------------------------------------------
    def _compile_game(self, game: Mapping[str, Any]) -> None:
        from .conditions import compile_condition
        self.target: int = game.get("target", 0)
        # Every number of points counts this many to a point (`scoring.unit: half`: 2): scores stay integers.
        self.points_per_point: int = 2 if self.table["scoring"].get("unit") == "half" else 1
        self.count_down = game.get("direction", "up") == "down"
        self.start_score: int = game.get("start-score", 0)
        self.deals: int = game.get("deals", 0)
        self.lose_at: int | None = game.get("lose-at")
        self.win_requires = compile_condition(self, game["win-requires"]) if "win-requires" in game else None
        self.first_dealer_method: str = game["first-dealer"]
        self.cut_order: tuple[str, ...] = tuple(game.get("cut-order", ()))
        self.simultaneous: tuple[str, ...] = tuple(game.get("simultaneous", ()))

    def _longest_hand(self) -> int:
        """An upper bound on the decisions one hand can take (perft never looks further:
        every sequence ends with the hand): every step's most decisions, then every card
        played and, where the master card's leader names its suit, one naming per trick."""
        from .steps import AUCTION, EXCHANGE, GIVE, MAKE_TRUMPS, NAME, OFFER, PROPOSE
        n, total = self.n, 0
        for step in self.steps:
            if step.kind == NAME:
                total += 1
            elif step.kind == MAKE_TRUMPS:
                total += n
            elif step.kind == AUCTION:
                total += len(step.bids) + n
            elif step.kind == OFFER:
                total += n + (step.swap_count if step.swap_count else 0)
            elif step.kind == EXCHANGE:
                total += sum(1 for take in step.takes if take.optional) + (1 if self.has_upcard else 0) + self.widow_size
            elif step.kind == GIVE:
                total += 3 * max(1, max((len(u) for u in self.units), default=1))
            elif step.kind == PROPOSE:         # each exchange takes a card of the stock at least
                stock = self.n_cards - self.n * self.hand_size
                total += 1 + stock * (2 + 2 * (self.hand_size + 1))
        play = n * self.hand_size + (self.hand_size if self.master_names_suit else 0)
        return total + play

    # -- actions -----------------------------------------------------------------------------
    def _compile_actions(self) -> None:
        strains = self.suits + ("NT", "NL")
        decode: dict[str, tuple[int, int]] = {word: (WORD, 0) for word in ("pass", "order", "take")}
        for word in offer_tokens(self.table):
            decode[word] = (WORD, 0)
        self.call_token = tuple(f"call:{s}" for s in strains)
        self.name_token = tuple(f"name:{s}" for s in strains)
        self.strain_names = strains
        for i, token in enumerate(self.call_token):
            decode[token] = (CALL, i)
        for i, token in enumerate(self.name_token):
            decode[token] = (NAME, i)
        for c, name in enumerate(self.card_names):
            decode[f"play:{name}"] = (PLAY, c)
            decode[f"discard:{name}"] = (DISCARD, c)
            decode[f"give:{name}"] = (GIVE, c)
        for i, bid in enumerate(self.bids):
            decode[bid.token] = (BID, i)
        self.decode: dict[str, tuple[int, int]] = decode
        self.card_tokens = mask_tokens("", self.card_names)
        self.play_tokens = mask_tokens("play", self.card_names)
        self.discard_tokens = mask_tokens("discard", self.card_names)
        self.give_tokens = mask_tokens("give", self.card_names)

    # -- helpers for deals -------------------------------------------------------------------
    def cards_of(self, mask: int) -> list[str]:
        """The card tokens in a bitmask, in pack order."""
        return self.card_tokens(mask)

    def mask_of(self, tokens: Sequence[str]) -> int:
        mask = 0
        for token in tokens:
            mask |= 1 << self.card_index[token]
        return mask

    def deal_from_order(self, order: Sequence[str], dealer: int) -> Deal:
        """Deal a given pack order (top card first) by the table's packets."""
        problems = self.check_pack(order)
        if problems:
            raise SpecError("; ".join(problems))
        hands: list[list[str]] = [[] for _ in range(self.n)]
        widow: list[str] = []
        upcard = None
        for position, destination in enumerate(self.deal_plan):
            card = order[position]
            if destination >= 0:
                hands[(dealer + 1 + destination) % self.n].append(card)
            elif destination == -1:
                widow.append(card)
            else:
                upcard = card
        return Deal(tuple(tuple(h) for h in hands), upcard, tuple(widow), tuple(order[len(self.deal_plan):]))

    def _card_problems(self, cards: Sequence[str], verb: str) -> tuple[list[str], bool]:
        """Unknown and repeated cards among ``cards``; and whether any was unknown."""
        problems = []
        unknown = [c for c in cards if c not in self.card_index]
        if unknown:
            problems.append(f"not cards of this pack: {', '.join(map(str, unknown))}")
        repeated = sorted(c for c, k in Counter(cards).items() if k > 1)
        if repeated:
            problems.append(f"cards {verb} twice: {', '.join(repeated)}")
        return problems, bool(unknown)

    def check_pack(self, order: Sequence[str]) -> list[str]:
        """Why ``order`` is not a full pack of this variant (empty when it is)."""
        problems, unknown = self._card_problems(order, "given")
        missing = [c for c in self.card_names if c not in order]
        if missing and not unknown:
            problems.append(f"cards missing from the pack: {', '.join(missing)}")
        return problems

    def check_deal(self, deal: Deal) -> list[str]:
        """Why ``deal`` cannot start a hand of this variant (empty when it can)."""
        problems = []
        if len(deal.hands) != self.n:
            return [f"{len(deal.hands)} hands given for {self.n} players"]
        for seat, hand in enumerate(deal.hands):
            if len(hand) != self.hand_size:
                problems.append(f"seat {seat} holds {len(hand)} cards, not {self.hand_size}")
        if self.has_upcard != (deal.upcard is not None):
            problems.append("an upcard is required" if self.has_upcard else "this variant turns up no upcard")
        if len(deal.widow) != self.widow_size:
            problems.append(f"the {self.widow_name} holds {len(deal.widow)} cards, not {self.widow_size}")
        given = [c for h in deal.hands for c in h] + ([deal.upcard] if deal.upcard else []) + list(deal.widow) + list(deal.kitty)
        problems += self._card_problems(given, "dealt")[0]
        if len(given) > self.n_cards:
            problems.append(f"{len(given)} cards dealt from a pack of {self.n_cards}")
        return problems

    def shuffled(self, rng: random.Random) -> list[int]:
        """A uniformly random order of the pack's card indices.

        Sorting by one ``random()`` key per card gives every order with equal probability
        (ties have probability zero) at a fraction of ``shuffle``'s cost, which draws a
        bounded integer per card in Python code."""
        keys = [rng.random() for _ in range(self.n_cards)]
        return sorted(range(self.n_cards), key=keys.__getitem__)

    def random_deal(self, rng: random.Random, dealer: int) -> Deal:
        """Shuffle the pack with ``rng`` and deal it by the table's packets."""
        return self.deal_from_order([self.card_names[c] for c in self.shuffled(rng)], dealer)

    def first_dealer_by_black_jack(self, order: Sequence[str], start: int = 0) -> int:
        """Deal ``order`` face up one card at a time clockwise from seat ``start``; the
        seat that receives the first black jack deals first."""
        for position, card in enumerate(order):
            if self.card_index.get(card) in self.black_jacks:
                return (start + position) % self.n
        raise SpecError("no black jack in the cards dealt to choose the first dealer")

    def first_dealer_by_cut(self, order: Sequence[str]) -> int:
        """Each player in seat order cuts the next card of ``order``; the lowest by the
        table's cut order deals, players tied for lowest cutting again from the next cards."""
        rank = {r: i for i, r in enumerate(self.cut_order)}

        def key(card: str) -> int:
            return rank[notation.rank_of(card) or notation.JOKER]

        contenders = list(range(self.n))
        position = 0
        while True:
            if position + len(contenders) > len(order):
                raise SpecError("not enough cards to settle the cut for the first deal")
            cut = {seat: key(order[position + i]) for i, seat in enumerate(contenders)}
            position += len(contenders)
            low = min(cut.values())
            contenders = [seat for seat in contenders if cut[seat] == low]
            if len(contenders) == 1:
                return contenders[0]


def load_rules(variant: str, options: Mapping[str, Any] | None = None) -> Rules:
    """Resolve and compile a variant by id or path."""
    return Rules(resolve(variant, options))
