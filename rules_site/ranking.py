"""The order of the cards for each choice of trumps, read from the reference interpreter's
compiled tables (:mod:`reference_impl.ranking`), never re-derived here: so the site shows
exactly the orders engines are checked against, the bowers and the Benny included."""

from __future__ import annotations

from typing import Any

from reference_impl.ranking import trump_order
from reference_impl.rules import Rules


def no_trumps_possible(table: dict[str, Any]) -> list[str]:
    """The no-trump strains a hand of this table can be played at (``NT``, ``NL``)."""
    found: list[str] = []
    for step in table.get("hand") or []:
        strains = list(step.get("names") or [])
        strains += [b.get("strain") for b in step.get("bids") or [] if b.get("enabled", True)]
        if step.get("no-trump"):
            strains.append("NT")
        if step.get("kind") == "set-trumps":
            strains.append(step.get("trumps"))
        for strain in strains:
            if strain in ("NT", "NL") and strain not in found:
                found.append(strain)
    return found


def suit_order(rules: Rules, ctx: int, suit: int) -> list[str]:
    """The cards that follow ``suit`` under trump context ``ctx``, highest first."""
    members = [c for c in range(rules.n_cards) if rules.eff[ctx][c] == suit]
    return [rules.card_names[c] for c in sorted(members, key=lambda c: -rules.power[ctx][suit][c])]


def orders(rules: Rules) -> list[tuple[str, list[str], list[tuple[str, list[str]]]]]:
    """For each suit as trumps (then each no-trump strain the table can play): the trump
    suit's cards highest first, and each other suit's."""
    out = []
    names = list(rules.card_names)
    for ctx, suit in enumerate(rules.suits):
        trumps = trump_order(names, rules.cards, ctx)
        others = [(s, suit_order(rules, ctx, i)) for i, s in enumerate(rules.suits) if i != ctx]
        out.append((suit, trumps, others))
    for strain in no_trumps_possible(rules.table):
        ctx = rules.NT if strain == "NT" else rules.NL
        out.append((strain, [], [(s, suit_order(rules, ctx, i)) for i, s in enumerate(rules.suits)]))
    return out
