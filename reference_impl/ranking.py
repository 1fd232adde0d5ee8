"""How cards rank, compiled once per table into flat lookup tables.

The orders are derived from the pack, never listed: plain suits in the pack's rank order
(``deck.ranks`` exactly as written, lowest first: ace high for most tables, but a table may
put the king above the ace or the ace between jack and ten, and may have elevens and
twelves); the trump suit headed by the Benny, then the right and left bowers, then the rest
of its rank order; no-trumps (``NT``) in rank order; low no-trumps (``NL``) reversed. So an
option that changes the pack and one that adds the Benny compose. Every copy of a card in a
doubled pack has the same power: which of two equal cards wins a trick is the table's
``ranking.equal-cards`` rule, applied by the trick.

For every trump context (each suit, then ``NT``, then ``NL``) there is a list giving each
card's effective suit (-1 for a card of no suit: the master card, or a Benny at no-trumps),
a bitmask of each effective suit, and for every led suit a list of each card's power in the
trick (0 when it cannot win).
"""

from __future__ import annotations

import json

from dataclasses import dataclass
from typing import Any, Mapping

from . import cards as notation

TRUMP_POWER, MASTER_POWER, SUIT_POWER = 1000, 2000, 100


@dataclass(frozen=True)
class CardTables:
    eff: tuple[tuple[int, ...], ...]                      # [context][card] -> effective suit, -1 for none
    power: tuple[tuple[tuple[int, ...], ...], ...]        # [context][led suit][card] -> power in the trick
    suit_mask: tuple[tuple[int, ...], ...]                # [context][suit] -> bitmask of that effective suit
    benny: int                                            # the Benny (its first copy), or -1
    master: int                                           # the card of no suit at no-trumps (first copy), or -1
    benny_mask: int                                       # every copy of the Benny
    master_mask: int                                      # every copy of the master card
    master_names_suit: bool
    master_any_time: bool


def compile_cards(names: list[str], suits: tuple[str, ...], ranking: Mapping[str, Any],
                  colours: Mapping[str, str], order: tuple[str, ...] = notation.CONVENTIONAL) -> CardTables:
    """The lookup tables of a pack ``names`` (card tokens) under the table's ``ranking``,
    its ranks in ``order`` (lowest first), worked out once for each pack and ranking: a
    check run compiles hundreds of tables (option combinations) that mostly share both, and
    the tables are immutable."""
    try:
        key = (tuple(names), tuple(suits), json.dumps(ranking, sort_keys=True), tuple(sorted(colours.items())),
               tuple(order))
    except (TypeError, ValueError):
        return _compile_cards(names, suits, ranking, colours, order)
    tables = _compiled_cards.get(key)
    if tables is None:
        tables = _compiled_cards[key] = _compile_cards(names, suits, ranking, colours, tuple(order))
    return tables


_compiled_cards: dict[tuple[Any, ...], CardTables] = {}


def _compile_cards(names: list[str], suits: tuple[str, ...], ranking: Mapping[str, Any],
                   colours: Mapping[str, str], order: tuple[str, ...]) -> CardTables:
    base = [notation.base_of(c) for c in names]           # every copy of a card plays as that card
    index = {c: i for i, c in enumerate(names)}
    suit_index = {s: i for i, s in enumerate(suits)}
    printed = [suit_index.get(notation.suit_of(c) or "", -1) for c in names]
    n_suits = len(suits)
    benny_name = ranking.get("benny")
    benny = index[benny_name] if benny_name else -1
    nt = ranking.get("no-trump") or {}
    master_name = nt.get("master") or benny_name          # a Benny at no-trumps is its master card
    master = index[master_name] if master_name else -1
    benny_mask = sum(1 << c for c in range(len(names)) if benny_name and base[c] == benny_name)
    master_mask = sum(1 << c for c in range(len(names)) if master_name and base[c] == master_name)
    strength_of = {rank: i for i, rank in enumerate(order)}
    # Orders by colour ("highest in red, lowest in black"): a suit of a colour
    # listed ranks its cards in that colour's order, as a plain suit or as trumps.
    by_colour = ranking.get("colour-orders") or {}
    plain_of = {s: _strengths(by_colour.get("plain", {}).get(colours.get(s, "")), strength_of) for s in suits}
    trump_of = {s: _strengths(by_colour.get("trump", {}).get(colours.get(s, "")), plain_of[s]) for s in suits}
    top = ranking.get("top-trumps") or []
    bowers = ranking["bowers"]
    contexts = n_suits + 2                                # each suit, then NT, then NL
    eff: list[tuple[int, ...]] = []
    power: list[tuple[tuple[int, ...], ...]] = []
    for ctx in range(contexts):
        trump = ctx if ctx < n_suits else -1
        low = ctx == n_suits + 1
        right = left = ""
        if trump >= 0 and bowers:
            right = "J" + suits[trump]
            mates = [s for s in suits if s != suits[trump] and colours.get(s) == colours.get(suits[trump])]
            left = "J" + mates[0] if mates else ""
        fixed = _top_trumps(top, suits[trump]) if trump >= 0 else {}
        ctx_eff, strength = [], []
        for c, name in enumerate(names):
            card = base[c]
            rank, suit = notation.rank_of(card) or "", notation.suit_of(card) or ""
            natural = (trump_of if trump >= 0 and printed[c] == trump else plain_of).get(suit, strength_of).get(rank, -1)
            if trump >= 0 and benny_mask >> c & 1:
                e, s = trump, 300
            elif card in fixed:                           # a card above the trump ace, of the trump suit
                e, s = trump, fixed[card]
            elif trump >= 0 and card == right:
                e, s = trump, 200
            elif trump >= 0 and card == left:
                e, s = trump, 199
            elif trump < 0 and master_mask >> c & 1:
                e, s = -1, 0
            elif printed[c] >= 0:
                e, s = printed[c], (len(order) - natural if low else natural + 1)
            else:                                         # a joker that is neither Benny nor master
                e, s = -1, 0
            ctx_eff.append(e)
            strength.append(s)
        eff.append(tuple(ctx_eff))
        per_led = []
        for led in range(n_suits):
            row = []
            for c in range(len(names)):
                if trump >= 0 and ctx_eff[c] == trump:
                    row.append(TRUMP_POWER + strength[c])
                elif trump < 0 and master_mask >> c & 1:
                    row.append(MASTER_POWER)
                elif ctx_eff[c] == led:
                    row.append(SUIT_POWER + strength[c])
                else:
                    row.append(0)
            per_led.append(tuple(row))
        power.append(tuple(per_led))
    suit_mask = tuple(tuple(sum(1 << c for c in range(len(names)) if eff[ctx][c] == s) for s in range(n_suits))
                      for ctx in range(contexts))
    return CardTables(tuple(eff), tuple(power), suit_mask, benny, master, benny_mask, master_mask,
                      nt.get("master-led", "leader-names-suit") == "leader-names-suit" if master >= 0 else False,
                      nt.get("master-play") == "any-time")


def _strengths(ranks: Any, default: dict[str, int]) -> dict[str, int]:
    """Rank -> place (lowest 0) from a colour's order, lowest first; ``default`` where none."""
    return {rank: i for i, rank in enumerate(ranks)} if ranks else default


def _top_trumps(top: list[Mapping[str, str]], trump: str) -> dict[str, int]:
    """The cards ``ranking.top-trumps`` puts above the rest of ``trump`` (highest first): a
    rank of the trump suit (the five, the jack of trumps) or a card trump in every suit (the
    ace of hearts), each with its strength (below the Benny, above the bowers)."""
    fixed: dict[str, int] = {}
    for i, entry in enumerate(top):
        card = entry["card"] if "card" in entry else entry["rank"] + trump
        fixed.setdefault(card, 290 - i)
    return fixed


def trump_order(names: list[str], tables: CardTables, ctx: int) -> list[str]:
    """The cards of the trump suit of context ``ctx``, highest first (for prose and tests)."""
    members = [c for c in range(len(names)) if tables.eff[ctx][c] == ctx]
    led = ctx
    return [names[c] for c in sorted(members, key=lambda c: -tables.power[ctx][led][c])]
