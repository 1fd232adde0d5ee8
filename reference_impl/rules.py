"""Compile a resolved rule table into flat, precomputed tables.

Everything the game loop asks more than once is answered here in advance, by index, so the
hot path never looks up a string or walks YAML: cards are small integers and hands are
bitmasks; for every trump context (each suit, then no-trumps) there is a list giving each
card's effective suit, a bitmask of each effective suit, and for every led suit a list
giving each card's power in the trick (0 when it cannot win). Action tokens are made once;
turning a hand's bitmask into its list of ``play:`` tokens is three table lookups.
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
from .resolve import ResolvedTable, resolve

# Kinds of action, decoded from tokens once.
PASS, ORDER, CALL, NAME, ALONE, DEFEND_ALONE, GIVE, TAKE, DISCARD, PLAY, BID = range(11)

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
            table = [()] * (1 << len(part))
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


@dataclass(frozen=True)
class ScoringRow:
    id: str
    maker_tricks: tuple[int, int] | None
    made: bool | None
    alone: bool | None
    defender_alone: bool | None
    contract: str | None
    bids: frozenset[str] | None
    awards: tuple[tuple[str, int, int, int, int | None], ...]  # (target, fixed, contract, per-trick, at-least)


@dataclass(frozen=True)
class Take:
    """One exchange rule: ``who`` takes the ``source`` cards when the conditions hold."""

    who: str                 # "dealer" or "maker"
    source: str              # "upcard" or "widow"
    round: int | None        # the bidding round trumps were made in, or any
    maker: str | None        # "dealer" / "not-dealer" / any
    unless_alone: bool
    optional: bool           # the taker may decline


@dataclass(frozen=True)
class Bid:
    id: str
    token: str
    strain: int          # suit index, or the no-trump context index
    value: int
    min_tricks: int
    max_tricks: int
    alone: bool


def _points(spec: Any) -> tuple[int, int, int, int | None]:
    if isinstance(spec, int):
        return spec, 0, 0, None
    return spec.get("fixed", 0), spec.get("contract-value", 0), spec.get("per-trick", 0), spec.get("at-least")


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
        self._compile_bidding(t)
        self._compile_play(t)
        self._compile_scoring(t["scoring"])
        self._compile_actions()
        self.max_hand_actions = self._longest_hand()
        self.clauses: dict[str, dict[str, Any]] = {c["id"]: c for c in t.get("clauses", [])}

    # -- players -------------------------------------------------------------------------
    def _compile_players(self, players: Mapping[str, Any]) -> None:
        n = self.n = players["count"]
        self.sides: str = players["sides"]
        if self.sides == "partnerships":
            self.units: tuple[tuple[int, ...], ...] = tuple(tuple(g) for g in players["partnerships"])
        else:
            self.units = tuple((s,) for s in range(n))
        self.unit_of: tuple[int, ...] = tuple(next(u for u, g in enumerate(self.units) if s in g) for s in range(n))
        self.left: tuple[int, ...] = tuple((s + 1) % n for s in range(n))

    # -- cards and ranking ---------------------------------------------------------------
    def _compile_cards(self, deck: Mapping[str, Any], ranking: Mapping[str, Any]) -> None:
        self.suits: tuple[str, ...] = tuple(deck["suits"])
        names = deck_cards(deck)
        self.card_names: tuple[str, ...] = tuple(names)
        self.card_index: dict[str, int] = {c: i for i, c in enumerate(names)}
        self.n_cards = len(names)
        self.bit: tuple[int, ...] = tuple(1 << i for i in range(self.n_cards))
        self.full_mask = (1 << self.n_cards) - 1
        suit_index = {s: i for i, s in enumerate(self.suits)}
        printed = [suit_index.get(notation.suit_of(c), -1) if notation.suit_of(c) else -1 for c in names]
        self.printed_suit: tuple[int, ...] = tuple(printed)
        self.NT = len(self.suits)                      # trump context index for no-trumps
        self.contexts = len(self.suits) + 1
        benny = ranking.get("benny")
        self.benny = self.card_index[benny] if benny else -1
        nt = ranking.get("no-trump") or {}
        master = nt.get("master")
        self.master = self.card_index[master] if master else -1
        self.master_bit = 1 << self.master if master else 0
        self.master_names_suit = nt.get("master-led") == "leader-names-suit"
        self.master_any_time = nt.get("master-play") == "any-time"
        colours = deck["colours"]
        trump_order = list(ranking["trump"])
        plain_order = list(ranking["plain"])
        nt_order = list(nt.get("plain", plain_order))
        has_bowers = "right-bower" in trump_order
        black = {s for s in self.suits if colours.get(s) == "black"}
        self.black_jacks = frozenset(self.card_index[f"J{s}"] for s in black if f"J{s}" in self.card_index)

        eff: list[list[int]] = []
        power: list[list[list[int]]] = []
        for ctx in range(self.contexts):
            trump = ctx if ctx < self.NT else -1
            left = -1
            if trump >= 0 and has_bowers:
                mate = [s for s in self.suits if s != self.suits[trump] and colours[s] == colours[self.suits[trump]]]
                left = self.card_index[f"J{mate[0]}"]
                right = self.card_index[f"J{self.suits[trump]}"]
            ctx_eff = []
            ctx_strength = []   # (is_trump, strength) per card
            for c, name in enumerate(names):
                rank = notation.rank_of(name)
                if trump >= 0 and c == self.benny:
                    e, strength = trump, len(trump_order) - trump_order.index("benny")
                elif trump >= 0 and has_bowers and c == right:
                    e, strength = trump, len(trump_order) - trump_order.index("right-bower")
                elif trump >= 0 and has_bowers and c == left:
                    e, strength = trump, len(trump_order) - trump_order.index("left-bower")
                elif trump < 0 and c == self.master:
                    e, strength = -1, 0
                elif printed[c] == trump and trump >= 0:
                    e, strength = trump, len(trump_order) - trump_order.index(rank)
                elif printed[c] >= 0 and rank in (plain_order if trump >= 0 else nt_order):
                    order = plain_order if trump >= 0 else nt_order
                    e, strength = printed[c], len(order) - order.index(rank)
                else:   # a Benny where there are no trumps: belongs to no suit, never wins
                    e, strength = -1, 0
                ctx_eff.append(e)
                ctx_strength.append(strength)
            eff.append(ctx_eff)
            per_led = []
            for led in range(len(self.suits)):
                row = []
                for c in range(self.n_cards):
                    if trump >= 0 and ctx_eff[c] == trump:
                        row.append(1000 + ctx_strength[c])
                    elif trump < 0 and c == self.master:
                        row.append(2000)
                    elif ctx_eff[c] == led:
                        row.append(100 + ctx_strength[c])
                    else:
                        row.append(0)
                per_led.append(row)
            power.append(per_led)
        self.eff: tuple[tuple[int, ...], ...] = tuple(tuple(e) for e in eff)
        self.power: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(tuple(r) for r in p) for p in power)
        self.suit_mask: tuple[tuple[int, ...], ...] = tuple(
            tuple(sum(1 << c for c in range(self.n_cards) if eff[ctx][c] == s) for s in range(len(self.suits)))
            for ctx in range(self.contexts))

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

    # -- bidding and exchange ----------------------------------------------------------------
    def _compile_bidding(self, t: Mapping[str, Any]) -> None:
        bidding = t["bidding"]
        self.procedure: str = bidding["procedure"]
        rounds = bidding.get("upcard-rounds", {})
        second = rounds.get("second-round", {})
        self.turned_down_allowed = second.get("turned-down-suit") == "allowed"
        self.round2_no_trump = bool(second.get("no-trump"))
        all_pass = rounds.get("all-pass") or bidding.get("auction", {}).get("all-pass", {})
        self.all_pass: str = all_pass.get("then", "redeal")
        self.all_pass_same_dealer = all_pass.get("next-dealer") == "same"
        self.benny_upcard: str = rounds.get("benny-upcard", "dealer-names-suit")
        auction = bidding.get("auction", {})
        bids = []
        for spec in auction.get("bids", []):
            if not spec.get("enabled", True):
                continue
            strain = self.NT if spec["strain"] == "NT" else self.suits.index(spec["strain"])
            bids.append(Bid(spec["id"], f"bid:{spec['id']}", strain, spec["value"],
                            spec.get("tricks", 0), spec.get("at-most", self.hand_size), spec.get("alone", False)))
        self.bids: tuple[Bid, ...] = tuple(bids)
        exchange = t["exchange"]
        self.takes: tuple[Take, ...] = tuple(
            Take(take["who"], take["from"], take.get("when", {}).get("round"), take.get("when", {}).get("maker"),
                 take.get("unless-alone", False), take.get("optional", False))
            for take in exchange["takes"])
        self.may_discard_taken: bool = exchange.get("may-discard-taken", True)
        self.sitting_out_takes: bool = exchange.get("sitting-out-takes", False)
        alone = t["alone"]
        self.alone_allowed: bool = alone["allowed"]
        self.alone_before_exchange = alone.get("declared", "before-exchange") == "before-exchange"
        self.alone_effect: str = alone.get("effect", "partner-sits-out")
        defend = alone.get("defend", {})
        self.defend_allowed: bool = defend.get("allowed", False)
        self.defend_any_maker = defend.get("against", "lone-maker") == "any-maker"
        self.defend_from_eldest = defend.get("first", "maker-left") == "eldest"
        self.partners_best: bool = alone.get("partners-best", {}).get("allowed", False)

    def _compile_play(self, t: Mapping[str, Any]) -> None:
        self.lead: str = t["play"]["lead"]
        self.lone_lead: str = t["play"].get("lone-lead", self.lead)
        game = t["game"]
        self.target: int = game["target"]
        self.first_dealer_method: str = game["first-dealer"]
        self.cut_order: tuple[str, ...] = tuple(game.get("cut-order", ()))
        self.simultaneous: tuple[str, ...] = tuple(game.get("simultaneous", ()))
        self.lose_at: int | None = game.get("lose-at")

    def _compile_scoring(self, scoring: Mapping[str, Any]) -> None:
        self.makers_need: int = scoring.get("makers-need", 0)
        rows = []
        for row in scoring["rows"]:
            if not row.get("enabled", True):
                continue
            when = row["when"]
            tricks = when.get("maker-tricks")
            if isinstance(tricks, int):
                tricks = (tricks, tricks)
            elif tricks is not None:
                tricks = (tricks[0], tricks[1])
            awards = tuple((target, *_points(points)) for target, points in row["award"].items())
            rows.append(ScoringRow(row["id"], tricks, when.get("made"), when.get("alone"),
                                   when.get("defender-alone"), when.get("contract"),
                                   frozenset(when["bid"]) if "bid" in when else None, awards))
        self.scoring_rows: tuple[ScoringRow, ...] = tuple(rows)

    def _longest_hand(self) -> int:
        """An upper bound on the decisions one hand can take (perft never looks further:
        every sequence ends with the hand): the longest bidding, every offer (going alone,
        the lone defence, the partner's best card given and taken), each optional take and
        one discard per card that can be taken, then every card played and, where the master
        card's leader names its suit, one naming per trick."""
        n = self.n
        bidding = len(self.bids) + n if self.procedure == "auction" else 1 + 2 * n
        offers = 1 + (n - 1) + 2
        takeable = (1 if self.has_upcard else 0) + self.widow_size + 1
        exchange = sum(1 for take in self.takes if take.optional) + takeable
        play = n * self.hand_size + (self.hand_size if self.master_names_suit else 0)
        return bidding + offers + exchange + play

    # -- actions -----------------------------------------------------------------------------
    def _compile_actions(self) -> None:
        suits = self.suits
        decode: dict[str, tuple[int, int]] = {"pass": (PASS, 0), "order": (ORDER, 0), "alone": (ALONE, 0),
                                              "defend-alone": (DEFEND_ALONE, 0), "take": (TAKE, 0)}
        self.call_token = tuple(f"call:{s}" for s in suits) + ("call:NT",)
        self.name_token = tuple(f"name:{s}" for s in suits)
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
            return rank[notation.JOKER if card == notation.JOKER else card[0]]

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
