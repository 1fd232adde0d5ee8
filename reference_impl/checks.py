"""Semantic checks a JSON Schema cannot express: cross references between parts of a table.

Run on a *resolved* table (schema-valid, options applied), they make sure the interpreter
never meets a table it cannot play: every card named exists, the deal fits the pack, every
step can find the seats and cards it names, every cited bid, counter, source and clause
exists, and the game can end.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from .cards import pack_cards, rank_of, suit_of
from .cards import rank_order as notation_order
from .patches import VALUE

PathAndMessage = tuple[tuple[Any, ...], str]

NATURAL = "23456789TJQKA"
MAKER_REFS = {"maker", "maker-left", "maker-partner", "defender-alone"}
BIDDING_KINDS = {"make-trumps", "auction", "force-bid", "set-trumps", "throw-in"}


def deck_cards(deck: dict[str, Any]) -> list[str]:
    """Every card of the pack, suit by suit in the table's order, then the extras (with
    their copies, in a pack that holds every card more than once: :func:`cards.pack_cards`)."""
    return pack_cards(deck)


def _players(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    players = t["players"]
    n = players["count"]
    teams = players.get("teams")
    if teams is not None:
        seats = [s for team in teams for s in team]
        if sorted(seats) != list(range(n)):
            yield ("players", "teams"), f"teams must list each seat 0..{n - 1} exactly once, got {seats}"
    if players["sides"] == "teams" and teams is None:
        yield ("players", "sides"), "sides: teams needs players.teams"
    if players["sides"] == "maker-and-called" and not any(
            s.get("kind") == "name" and s.get("effect") == "partner" for s in t["hand"]):
        yield ("players", "sides"), "sides: maker-and-called needs a `name` step with effect: partner (the call)"
    names = players.get("names")
    if names is not None and len(names) != n:
        yield ("players", "names"), f"{len(names)} seat names for {n} players"


def _deck_and_ranking(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    deck, ranking = t["deck"], t["ranking"]
    benny = ranking.get("benny")
    master = (ranking.get("no-trump") or {}).get("master")
    cards = deck_cards(dict(deck, copies=1))          # the table names cards, never one copy of a card
    for i, card in enumerate(deck.get("extra", [])):
        if cards.count(card) > 1:
            yield ("deck", "extra", i), f"{card} is already in the pack"
        elif card not in (benny, master) and (card == "JK" or suit_of(card) not in deck["suits"]):
            yield ("deck", "extra", i), f"the extra card {card} has no role: make it the Benny or the no-trump master, or a card of a suit in the pack"
    missing = [s for s in deck["suits"] if s not in deck["colours"]]
    if missing:
        yield ("deck", "colours"), f"no colour for suit(s) {', '.join(missing)}"
    if benny is not None and benny not in cards:
        yield ("ranking", "benny"), f"the Benny {benny} is not in the pack"
    if master is not None and master not in deck.get("extra", []):
        yield ("ranking", "no-trump", "master"), f"the master card {master} must be an extra card of the pack (it belongs to no suit)"
    if master is not None and benny is not None and benny != master:
        yield ("ranking", "no-trump"), "at no-trumps the Benny must be the master card"
    whole = {rank + suit for suit in deck["suits"] for rank in deck["ranks"]} | set(deck.get("extra", []))
    for i, card in enumerate(deck.get("without", [])):
        if card not in whole:
            yield ("deck", "without", i), f"{card} is not a card of ranks x suits or of the extra cards, so it cannot be left out"
    if ranking.get("equal-cards", "first-played") != "first-played" and deck.get("copies", 1) == 1:
        yield ("ranking", "equal-cards"), "equal-cards decides between copies of a card: this pack holds each card once (deck.copies)"
    if ranking["bowers"]:
        if "J" not in deck["ranks"]:
            yield ("ranking", "bowers"), "bowers need jacks in the pack"
        for suit in deck["suits"]:
            same = [s for s in deck["suits"] if s != suit and deck["colours"].get(s) == deck["colours"].get(suit)]
            if len(same) != 1:
                yield ("deck", "colours"), f"the left bower needs exactly one other suit of {suit}'s colour, found {same}"
                break


def _dealt(t: dict[str, Any]) -> tuple[int, int]:
    """The cards the deal gives out (the upcard too) and the cards of the pack, by arithmetic
    alone: a packet's count is never walked card by card, so a count of a billion costs
    nothing to refuse (and the checks that weigh each number of tricks wait for a deal that fits)."""
    n = t["players"]["count"]
    dealt = sum(p["count"] * (n if p["to"] == "players" else 1) for p in t["deal"]["packets"])
    return dealt + (1 if t["deal"]["upcard"] else 0), len(deck_cards(t["deck"]))


def _hand_size(t: dict[str, Any]) -> int:
    """The cards the deal gives each player (the packets dealt to the players)."""
    return sum(p["count"] for p in t["deal"]["packets"] if p["to"] == "players")


def _deal(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    dealt, size = _dealt(t)
    if dealt > size:
        yield ("deal", "packets"), f"the deal needs {dealt} cards but the pack has {size}"
    if not any(p["to"] == "players" for p in t["deal"]["packets"]):
        yield ("deal", "packets"), "no packet deals cards to the players"


def _conditions(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Every condition object under ``node`` (the keys that hold one), with its path."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("when", "forced", "eligible", "win-requires", "not") and isinstance(value, dict):
                yield path + (key,), value
            if key in ("any", "all") and isinstance(value, list):
                for i, item in enumerate(value):
                    yield path + (key, i), item
            yield from _conditions(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _conditions(item, path + (i,))


def _hand(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    steps = t["hand"]
    deal = t["deal"]
    has_widow = any(p["to"] == "widow" for p in deal["packets"])
    clause_ids = {c["id"] for c in t.get("clauses", [])}
    bid_ids: set[str] = set()
    bid_steps: dict[str, str] = {}       # bid id -> the auction step that first offers it
    seen: dict[str, int] = {}
    trumps_made_by = False
    for i, step in enumerate(steps):
        where = ("hand", i)
        if step["id"] in seen:
            yield where + ("id",), f"duplicate step id {step['id']!r} (also step {seen[step['id']]})"
        seen[step["id"]] = i
        if "clause" in step and step["clause"] not in clause_ids:
            yield where + ("clause",), f"no clause {step['clause']!r}"
        kind = step["kind"]
        if kind in ("make-trumps", "auction") and step.get("from") in MAKER_REFS:
            yield where + ("from",), f"{step['from']} is not known before trumps are made"
        if kind == "auction" and "stuck-from" in step and step["stuck-from"] not in [b["id"] for b in step["bids"]]:
            yield where + ("stuck-from",), f"no bid {step['stuck-from']!r} in this auction"
        if kind == "auction" and "stuck-from" in step and "stuck" not in step:
            yield where + ("stuck-from",), "`stuck-from` is for an auction with a `stuck` seat"
        if kind == "auction" and "rounds" in step and step.get("turns") == "once":
            yield where + ("rounds",), "`rounds` caps an auction that goes round until passed: `turns: once` already plays one round"
        if kind in ("make-trumps", "auction") and step.get("stuck") in MAKER_REFS:
            yield where + ("stuck",), f"{step['stuck']} is not known before trumps are made: no seat would be stuck"
        if kind == "make-trumps" and step["action"] == "order" and not deal["upcard"]:
            yield where + ("action",), "ordering up needs an upcard (deal.upcard)"
        if kind == "make-trumps" and step.get("no-trump") and step["action"] != "call":
            yield where + ("no-trump",), "no-trumps can only be named (action: call)"
        if kind == "name" and step["effect"] == "proposal" and not deal["upcard"]:
            yield where + ("effect",), "a proposal stands for the upcard's suit: the deal has no upcard"
        if kind == "name" and step["effect"] in ("proposal", "partner") and any(s in ("NT", "NL") for s in step["names"]):
            yield where + ("names",), f"a {step['effect']} is a suit: no-trumps cannot be named for it"
        if kind == "auction":
            ids = [b["id"] for b in step["bids"]]
            for j, bid in enumerate(step["bids"]):
                if ids.count(bid["id"]) > 1:
                    yield where + ("bids", j, "id"), f"duplicate bid id {bid['id']!r}"
                elif bid["id"] in bid_steps:
                    # a bid is named by its id alone (force-bid, the `bid` atom, the contract):
                    # the same id in two auctions would read one step's bid for the other's
                    yield where + ("bids", j, "id"), (f"bid id {bid['id']!r} is also a bid of step {bid_steps[bid['id']]!r}: "
                                                      "a bid is named by its id across the table, give each its own")
                if "tricks" not in bid and "at-most" not in bid:
                    yield where + ("bids", j), "a bid needs `tricks` or `at-most`"
                if "after" in bid and bid["after"] not in ids:
                    yield where + ("bids", j, "after"), f"no bid {bid['after']!r}"
                if bid.get("strain") and bid["strain"] not in ("NT", "NL") and bid["strain"] not in t["deck"]["suits"]:
                    yield where + ("bids", j, "strain"), f"no suit {bid['strain']} in the pack"
            bid_ids.update(ids)
            bid_steps.update({b: step["id"] for b in ids if b not in bid_steps})
            if not all(b.get("strain") for b in step["bids"]) and not any(
                    (s["kind"] == "name" and s.get("effect") == "trumps") or (s["kind"] == "play" and s.get("trumps-by"))
                    for s in steps[i + 1:]):
                yield where + ("bids",), ("bids without a strain need a later `name` step with effect: trumps "
                                          "(or a play whose first lead fixes them, trumps-by: first-lead)")
        if kind == "force-bid" and step["bid"] not in bid_ids:
            yield where + ("bid",), f"no bid {step['bid']!r} in an earlier auction"
        if kind == "exchange":
            for j, take in enumerate(step["takes"]):
                if take["from"] == "widow" and not has_widow:
                    yield where + ("takes", j, "from"), "no packet deals a widow"
                if take["from"] == "upcard" and not deal["upcard"]:
                    yield where + ("takes", j, "from"), "the deal has no upcard"
        if kind == "offer":
            if step["effect"] == "swap-with-kitty" and "swap" not in step:
                yield where, "a swap with the kitty needs `swap` (how many cards)"
            target = step["to"]
            if kind == "offer" and not trumps_made_by and (
                    (isinstance(target, str) and target in MAKER_REFS) or (isinstance(target, dict) and (
                        target["from"] in MAKER_REFS or target["seats"] in ("defenders", "maker-partners", "others")))):
                yield where + ("to",), "this offer is made before trumps: it cannot name the maker or his side"
        if kind in ("make-trumps", "auction", "force-bid", "set-trumps") or (kind == "name" and step.get("effect") == "trumps") \
                or (kind == "play" and step.get("trumps-by")):
            trumps_made_by = True
        if kind == "play" and step.get("trumps-by") and any(
                c == "JK" or suit_of(c) not in t["deck"]["suits"] for c in t["deck"].get("extra", [])):
            yield where + ("trumps-by",), "a card of no suit (the joker) could be led first and name no trumps"
        if kind == "set-trumps" and step["trumps"] == "upcard" and not deal["upcard"]:
            yield where + ("trumps",), "trumps: upcard needs a card turned up (deal.upcard)"
        if kind == "give" and t["players"]["sides"] not in ("teams", "maker-and-called"):
            yield where + ("givers",), "the partner's best card needs partners (sides: teams)"
    plays = [i for i, s in enumerate(steps) if s["kind"] == "play"]
    after_play = steps[plays[0] + 1:] if len(plays) == 1 else []
    if len(plays) != 1 or any(s["kind"] != "offer" or s.get("effect") != "claim-renege" for s in after_play):
        yield ("hand",), "a hand has exactly one `play` step, the last but for renege claims after it (offers with effect: claim-renege)"
    for i, step in enumerate(steps):
        if step["kind"] == "offer" and step.get("effect") == "claim-renege" and not (
                after_play and step in after_play and steps[plays[0]].get("renege") == "allowed"):
            yield ("hand", i, "effect"), "a renege claim comes after a `play` step with renege: allowed"
        if step["kind"] == "offer" and step.get("effect") == "score" and "points" not in step:
            yield ("hand", i), "a declaration (effect: score) needs `points`"
        if step["kind"] == "make-trumps" and step.get("low-no-trump") and step["action"] != "call":
            yield ("hand", i, "low-no-trump"), "low no-trumps can only be named (action: call)"
    if not trumps_made_by:
        yield ("hand",), "no step makes trumps"
    for path, condition in _conditions(steps, ("hand",)):
        for j, bid in enumerate(condition.get("bid", [])):
            if bid not in bid_ids:
                yield path + ("bid", j), f"no bid {bid!r}"


# Which step kinds read each property of a step (beyond id, kind, clause and when). A table that
# gives a property to a step of another kind would be accepted by the schema and then ignored:
# the table would say a rule the game does not play. A property missing here is let through.
STEP_PROPERTIES: dict[str, tuple[str, ...]] = {
    "phase": ("name", "make-trumps", "auction", "offer", "exchange", "give", "play", "propose"),
    "who": ("name", "force-bid"), "names": ("name",), "effect": ("name", "offer"),
    "from": ("make-trumps", "auction"), "action": ("make-trumps",), "turned-down": ("make-trumps",),
    "no-trump": ("make-trumps",), "low-no-trump": ("make-trumps",), "stuck": ("make-trumps", "auction"), "stuck-from": ("auction",),
    "bids": ("auction",), "turns": ("auction",), "rounds": ("auction",), "bid": ("force-bid",), "trumps": ("set-trumps",),
    "next-dealer": ("throw-in",),
    "to": ("offer",), "accept": ("offer",), "decline": ("offer",), "stop": ("offer",), "eligible": ("offer",),
    "forced": ("offer",), "swap": ("offer",), "points": ("offer",), "decision": ("offer",),
    "takes": ("exchange",), "may-discard-taken": ("exchange",), "sitting-out-takes": ("exchange",),
    "givers": ("give",), "giver-may-pass": ("give",), "receiver-may-refuse": ("give",), "give-count": ("give",),
    "give-order": ("give",),
    "lead": ("play",), "must": ("play",), "partner-winning-frees": ("play",), "renege": ("play",), "all-sit-out": ("play",), "trumps-by": ("play",),
    "may-trump": ("play",), "privileged-trumps": ("play",),
    "proposer": ("propose",), "responder": ("propose",), "exchange": ("propose",), "exchanges": ("propose",),
}
CALL_ONLY = ("turned-down", "no-trump", "low-no-trump")     # make-trumps with action: call
NAME_EFFECTS = ("proposal", "trumps", "partner")


def _step_properties(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """Every property of a step is one its kind reads: anything else would validate and then
    be ignored (a `trumps` on a throw-in, `turned-down` on an order round, `stop` on an offer
    to one seat, `swap` on an offer that swaps nothing)."""
    for i, step in enumerate(t["hand"]):
        kind = step["kind"]
        for key in step:
            kinds = STEP_PROPERTIES.get(key)
            if kinds is not None and kind not in kinds:
                owners = ", ".join(kinds) if len(kinds) < 6 else "steps that wait for a decision"
                yield ("hand", i, key), f"a {kind} step does not read `{key}` (it is for {owners}): remove it"
        if kind == "make-trumps" and step.get("action") == "order":
            for key in CALL_ONLY:
                if key in step:
                    yield ("hand", i, key), f"`{key}` is for a round that names suits (action: call), not one that orders up"
        if kind == "offer":
            if "stop" in step and not isinstance(step.get("to"), dict):
                yield ("hand", i, "stop"), "`stop` is for an offer to a queue of seats; this offer asks one seat"
            if "decision" in step and not isinstance(step.get("to"), dict):
                yield ("hand", i, "decision"), "`decision` is for an offer to a queue of seats; this offer asks one seat"
            elif "stop" in step and step.get("decision", "each-seat") != "each-seat":
                yield ("hand", i, "stop"), (f"`stop` is for seats deciding each for itself (decision: each-seat); with "
                                            f"decision: {step['decision']} one decision is made for the side")
            if step.get("effect") == "concede" and not any(
                    s["kind"] in ("make-trumps", "auction", "force-bid") for s in t["hand"][:i]):
                yield ("hand", i, "effect"), "a concession needs a maker (a side to concede to): put it after the bidding"
            if "swap" in step and step.get("effect") != "swap-with-kitty":
                yield ("hand", i, "swap"), f"`swap` is for an offer with effect: swap-with-kitty, not {step.get('effect')}"
            if step.get("effect") in NAME_EFFECTS:
                yield ("hand", i, "effect"), f"effect: {step['effect']} is for a name step, not an offer"
        if kind == "give" and (step.get("give-count", 1) > 1 or step.get("give-order") == "discard-first"):
            packet = "a packet of cards" if step.get("give-count", 1) > 1 else "a card passed after the discard"
            for key in ("giver-may-pass", "receiver-may-refuse"):
                if step.get(key, True):
                    yield ("hand", i, key), f"{packet} is passed and taken whole: `{key}` must be false"
            hand_size = _hand_size(t)
            if step.get("give-count", 1) > hand_size:
                yield ("hand", i, "give-count"), f"a giver holds {hand_size} cards: he cannot pass {step['give-count']}"
        if kind == "name" and step.get("effect") not in NAME_EFFECTS:
            yield ("hand", i, "effect"), f"a name step's effect is one of {', '.join(NAME_EFFECTS)}, not {step.get('effect')}"


def _card_names(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """Ranks and cards a table names must be the pack's: ranks are the table's own vocabulary
    (any digit, number from 11 or capital letter passes the schema), so a rank or card no
    card of the pack has would silently match nothing. The cut order must rank every rank of
    the pack (and the joker, where the pack has one), or a cut could find no place for a card."""
    deck = t["deck"]
    cards = set(pack_cards(dict(deck, copies=1)))
    ranks = {rank_of(c) for c in cards} - {None}

    def card_sets(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("of", "upcard") and isinstance(value, dict):
                    yield path + (key,), value
                yield from card_sets(value, path + (key,))
        elif isinstance(node, list):
            for i, item in enumerate(node):
                yield from card_sets(item, path + (i,))

    sections = {key: t[key] for key in ("hand", "scoring", "counters", "game") if key in t}
    for path, spec in card_sets(sections, ()):
        for j, rank in enumerate(spec.get("ranks", [])):
            if rank not in ranks:
                yield path + ("ranks", j), f"no card of rank {rank} in the pack (its ranks: {', '.join(notation_order(deck))})"
        for j, card in enumerate(spec.get("cards", [])):
            if card not in cards:
                yield path + ("cards", j), f"{card} is not a card of the pack"
    game = t["game"]
    if game.get("first-dealer") == "cut" and "cut-order" in game:
        order = game["cut-order"]
        needed = ranks | ({"JK"} if "JK" in cards else set())
        missing = [r for r in notation_order(deck) if r in needed and r not in order] + (
            ["JK"] if "JK" in needed and "JK" not in order else [])
        if missing:
            yield ("game", "cut-order"), f"the cut order leaves out rank(s) of the pack: {', '.join(missing)}"
        for j, rank in enumerate(order):
            if rank not in needed:
                yield ("game", "cut-order", j), f"no card of rank {rank} in the pack"


def _rank_orders(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """Cards above the trump ace and orders by colour name ranks and cards of the pack, each
    order every rank once (a rank left out would never win, one named twice is ambiguous)."""
    deck, ranking = t["deck"], t["ranking"]
    ranks = list(deck["ranks"])
    cards = deck_cards(dict(deck, copies=1))
    top = ranking.get("top-trumps") or []
    fixed_ranks = [e["rank"] for e in top if "rank" in e]
    named: list[str] = []
    for i, entry in enumerate(top):
        key = "rank" if "rank" in entry else "card"
        value = entry[key]
        if key == "rank" and value not in ranks:
            yield ("ranking", "top-trumps", i, "rank"), f"no rank {value} in the pack (deck.ranks)"
        if key == "card" and value not in cards:
            yield ("ranking", "top-trumps", i, "card"), f"{value} is not in the pack"
        if key == "card" and value == ranking.get("benny"):
            yield ("ranking", "top-trumps", i, "card"), f"{value} is the Benny, which heads the trumps already"
        if key == "rank" and value == "J" and ranking["bowers"]:
            yield ("ranking", "top-trumps", i, "rank"), "the jack of trumps is the right bower (ranking.bowers): it cannot be a top trump too"
        if f"{key}:{value}" in named:
            yield ("ranking", "top-trumps", i), f"{value} is named twice"
        named.append(f"{key}:{value}")
    orders = ranking.get("colour-orders") or {}
    colours = set(deck["colours"].values())
    for kind, by_colour in orders.items():
        for colour, order in by_colour.items():
            where = ("ranking", "colour-orders", kind, colour)
            if colour not in colours:
                yield where, f"no suit of the pack is {colour} (deck.colours: {', '.join(sorted(colours))})"
                continue
            allowed = [ranks] + ([[r for r in ranks if r not in fixed_ranks]] if kind == "trump" and fixed_ranks else [])
            if any(sorted(order) == sorted(a) for a in allowed):
                continue
            missing = [r for r in allowed[-1] if r not in order]
            extra = [r for r in order if r not in ranks]
            twice = sorted({r for r in order if order.count(r) > 1})
            yield where, ("an order lists every rank of the pack once"
                          + (" (the ranks top-trumps fixes may be left out)" if len(allowed) > 1 else "")
                          + (f"; missing: {', '.join(missing)}" if missing else "")
                          + (f"; not in the pack: {', '.join(extra)}" if extra else "")
                          + (f"; twice: {', '.join(twice)}" if twice else ""))


def _play_rules(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """Rules a partner's winning lifts must be rules the play has, in a game with partners."""
    trumps_made = any(s["kind"] in ("make-trumps", "auction", "set-trumps", "name") for s in t["hand"])
    for i, step in enumerate(t["hand"]):
        if step["kind"] == "play" and step.get("privileged-trumps") and not trumps_made:
            yield ("hand", i, "privileged-trumps"), "no step makes a suit trumps, so no trump is privileged"
        if step["kind"] == "play" and step.get("privileged-trumps", 0) >= len(t["deck"]["ranks"]):
            yield ("hand", i, "privileged-trumps"), "every trump would be privileged: a trump lead would bind no one"
        frees = step.get("partner-winning-frees")
        if step["kind"] != "play" or not frees:
            continue
        if not t["players"].get("teams"):
            yield ("hand", i, "partner-winning-frees"), "a partner winning the trick needs fixed partnerships (players.teams)"
        for j, rule in enumerate(frees):
            if rule not in step.get("must", []):
                yield ("hand", i, "partner-winning-frees", j), f"{rule} is not one of the play's must rules, so nothing lifts it"


PARTNER_REFS = ("dealer-partner", "maker-partner")


def _partner_refs(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """`dealer-partner` and `maker-partner` are the seat opposite in a game of teams of two;
    elsewhere they are no seat, and a rule naming one would apply to no one without a word."""
    teams = t["players"].get("teams")
    if teams and all(len(team) == 2 for team in teams):
        return
    why = "this table has no teams of two: it names no seat"
    for i, step in enumerate(t["hand"]):
        where = ("hand", i)
        refs: list[tuple[tuple[Any, ...], Any]] = [((key,), step[key]) for key in ("who", "from", "stuck")
                                                   if isinstance(step.get(key), str)]
        target = step.get("to")
        refs += [(("to",), target)] if isinstance(target, str) else [(("to", "from"), target["from"])] if target else []
        refs += [(("takes", j, "who"), take["who"]) for j, take in enumerate(step.get("takes", []))]
        refs += [(("lead", j, "seat"), rule["seat"]) for j, rule in enumerate(step.get("lead", []))]
        for path, ref in refs:
            if ref in PARTNER_REFS:
                yield where + path, f"{ref}: {why}"
    sections = {key: t[key] for key in ("hand", "scoring", "counters", "game") if key in t}
    for path, condition in _conditions(sections, ()):
        for key in ("maker", "self"):
            if condition.get(key) == "dealer-partner":
                yield path + (key,), f"{key}: dealer-partner: {why}"


def _called_partner_refs(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """`partner` (an award's or a count's recipient, or the condition) is the called card's
    holder, who exists only with `sides: maker-and-called`: elsewhere an award to him goes to
    no one and the condition never changes."""
    if t["players"]["sides"] == "maker-and-called":
        return
    why = "the called partner exists only with players.sides: maker-and-called"
    for i, row in enumerate(t["scoring"]["rows"]):
        for j, award in enumerate(row["award"]):
            if award["to"] == "partner":
                yield ("scoring", "rows", i, "award", j, "to"), f"to: partner: {why}"
    for i, counter in enumerate(t.get("counters", [])):
        for j, entry in enumerate(counter["count"]):
            if entry["to"] == "partner":
                yield ("counters", i, "count", j, "to"), f"to: partner: {why}"
    sections = {key: t[key] for key in ("hand", "scoring", "counters", "game") if key in t}
    for path, condition in _conditions(sections, ()):
        if "partner" in condition:
            yield path + ("partner",), f"partner: {condition['partner']}: {why}"


def _lone_defender_refs(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """`defender-alone` is a seat only while a defender defends alone: a lead, a take or an
    offer naming it must say so in its own `when` (`defender-alone: true`), or the hand would
    stop at it with no seat to act for."""
    def guarded(*conditions: Any) -> bool:
        return any(isinstance(c, dict) and c.get("defender-alone") is True for c in conditions)
    for i, step in enumerate(t["hand"]):
        where = ("hand", i)
        for key in ("who", "stuck", "to", "from"):
            ref = step.get(key)
            ref = ref.get("from") if isinstance(ref, dict) else ref
            if ref == "defender-alone" and not guarded(step.get("when")):
                yield where + (key,), "defender-alone names no seat unless a defender defends alone: give the step when: {defender-alone: true}"
        for j, take in enumerate(step.get("takes", [])):
            if take["who"] == "defender-alone" and not guarded(take.get("when"), step.get("when")):
                yield where + ("takes", j, "who"), "defender-alone names no seat unless a defender defends alone: give the take when: {defender-alone: true}"
        for j, rule in enumerate(step.get("lead", [])):
            if rule["seat"] == "defender-alone" and not guarded(rule.get("when"), step.get("when")):
                yield where + ("lead", j, "seat"), "defender-alone names no seat unless a defender defends alone: give the rule when: {defender-alone: true}"


def _forcing_steps(t: dict[str, Any]) -> list[str]:
    """The ids of the steps that can force a contract: a `force-bid`, or an auction or a
    make-trumps step with a `stuck` seat (a seat that may not pass)."""
    return [s["id"] for s in t["hand"] if s["kind"] == "force-bid" or (s["kind"] in ("auction", "make-trumps") and s.get("stuck"))]


def _forced_refs(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """`forced-contract` tells a forced contract from a free one: where no step can force a
    contract it is false in every hand, and a row or rule written with it could never apply
    (or always would): refused at the atom."""
    if _forcing_steps(t):
        return
    sections = {key: t[key] for key in ("hand", "scoring", "counters", "game") if key in t}
    for path, condition in _conditions(sections, ()):
        if "forced-contract" in condition:
            yield path + ("forced-contract",), ("forced-contract: no step of this table can force a contract (a force-bid "
                                                "step, or an auction or make-trumps step with a `stuck` seat): it is "
                                                "false in every hand")


def _vacuous_holds(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """`holds` with nothing but `of` asks for at least none of the cards, `counter` without
    `at-least` and an empty `score` for nothing: each always holds, so a rule written with it
    would apply to everyone."""
    sections = {key: t[key] for key in ("hand", "scoring", "counters", "game") if key in t}
    for path, condition in _conditions(sections, ()):
        holds = condition.get("holds")
        if isinstance(holds, dict) and not any(k in holds for k in ("at-least", "at-most", "only")):
            yield path + ("holds",), "holds with only `of` always holds: say how many (at-least, at-most) or only: true"
        counter = condition.get("counter")
        if isinstance(counter, dict) and "at-least" not in counter:
            yield path + ("counter",), "counter without at-least always holds: say how many (at-least)"
        score = condition.get("score")
        if isinstance(score, dict) and not score:
            yield path + ("score",), "score without at-least or at-most always holds"


# Atoms about "the seat or unit considered" (``self``): an award, a count, an offer's
# `eligible` and `forced`, a game end weigh them for a seat; a step's, a take's, a lead
# rule's and a scoring row's `when` are weighed for the hand, with no seat, where they would
# read no seat (every `holds` true, `self-tricks` 0) or the last seat's unit.
SEAT_ATOMS = ("self", "self-tricks", "self-in-hand", "holds", "reneged", "counter", "score")


def _seatless(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """A seat atom where no seat is considered: a scoring row's `when` (which picks the row
    for the hand), a step's, a take's or a lead rule's. The schema lets it through (one
    condition language), and it would be weighed for no seat: refused at the atom."""
    places: list[tuple[tuple[Any, ...], Any, str]] = []
    for i, row in enumerate(t["scoring"]["rows"]):
        places.append((("scoring", "rows", i, "when"), row.get("when"), "a scoring row is chosen for the hand"))
    for i, step in enumerate(t["hand"]):
        places.append((("hand", i, "when"), step.get("when"), "a step's `when` is weighed for the hand"))
        for j, take in enumerate(step.get("takes", []) if isinstance(step.get("takes"), list) else []):
            places.append((("hand", i, "takes", j, "when"), take.get("when"), "a take's `when` is weighed for the hand"))
        for j, rule in enumerate(step.get("lead", []) if isinstance(step.get("lead"), list) else []):
            places.append((("hand", i, "lead", j, "when"), rule.get("when"), "a lead rule's `when` is weighed for the hand"))
    for where, condition, why in places:
        if not isinstance(condition, dict):
            continue
        for path, part in [(where, condition), *_conditions(condition, where)]:
            for key, value in part.items() if isinstance(part, dict) else ():
                if key in SEAT_ATOMS or (key == "stood" and value in ("self", "other")):
                    yield path + (key,), (f"{key} is about the seat or unit considered, and {why}, for no seat: put it in an award's "
                                          f"`when`, weighed for each seat or side (the hand's tricks are maker-tricks "
                                          f"and defender-tricks)")


AFTER_PLAY = ("maker-tricks", "defender-tricks", "self-tricks", "trick-sequence", "made", "reneged", "renege-claimed")


MAKER_STEPS = ("make-trumps", "auction", "force-bid")       # the steps that can give the hand a maker
SETTLED_KINDS = BIDDING_KINDS                                # skipped once trumps are made


def _placement(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """Every step can run where it is placed. The interpreter passes over a bidding step once
    trumps are made, and over a seat that is not there (the maker's, in a hand with no maker):
    a step placed after a `set-trumps` with no condition, or a maker's step where no earlier
    step can make a maker, would be accepted and never happen."""
    fixed_by = None                   # an earlier set-trumps that always runs
    maker_by = None                   # an earlier step that can make a maker
    set_by = None                     # an earlier set-trumps
    sit_out = False
    always_by = None                  # an earlier step after which no hand goes on without trumps
    unstrained = False                # an earlier bid that makes a maker without trumps
    strained = {b["id"] for step in t["hand"] if step["kind"] == "auction" for b in step["bids"] if b.get("strain")}
    bid_rounds: set[str] = set()      # the make-trumps steps before this one
    for i, step in enumerate(t["hand"]):
        kind, where = step["kind"], ("hand", i)
        if kind != "play":            # a round not yet bid when the step is decided: the condition never holds
            for path, condition in _conditions(step, where):
                value = condition.get("round")
                if isinstance(value, str) and value not in bid_rounds and any(
                        s["id"] == value and s["kind"] == "make-trumps" for s in t["hand"]):
                    yield path + ("round",), f"round {value!r} is not bid yet when this step runs: the condition never holds"
        settles = kind in SETTLED_KINDS or (kind == "name" and step.get("effect") in ("proposal", "trumps"))
        if fixed_by is not None and settles:
            yield where, (f"this step never runs: trumps are always set before it (step {fixed_by!r} has no `when`), "
                          "and a hand whose trumps are made skips its bidding")
        no_maker = f"no step before it makes a maker ({', '.join(MAKER_STEPS)})"
        if maker_by is None:
            if kind == "give":
                yield where, f"the partner's best goes to the maker, and {no_maker}"
            if kind == "name" and step.get("effect") == "partner":
                yield where + ("effect",), f"the maker calls a partner, and {no_maker}"
            for key in ("who", "proposer", "responder"):
                if step.get(key) in MAKER_REFS and not (kind == "name" and step.get("effect") == "partner"):
                    yield where + (key,), f"{step[key]} names no seat: {no_maker}"
            for j, take in enumerate(step.get("takes", []) if kind == "exchange" else []):
                if take["who"] in MAKER_REFS:
                    yield where + ("takes", j, "who"), f"{take['who']} names no seat: {no_maker}"
            if kind == "offer" and step.get("effect") in ("alone", "defend-alone"):
                # the maker goes alone (or a defender against him): the seat that accepts is not
                # made the maker, so with none the hand would play "alone" for no seat
                who = "the maker plays alone" if step["effect"] == "alone" else "a defender defends alone against the maker"
                yield where + ("effect",), (f"effect: {step['effect']}: {who}, and {no_maker}; accepting does not make "
                                            "a seat the maker")
            target = step.get("to")
            if kind == "offer" and set_by is not None and ((isinstance(target, str) and target in MAKER_REFS) or (isinstance(target, dict) and (
                    target["from"] in MAKER_REFS or target["seats"] in ("defenders", "maker-partners")))):
                yield where + ("to",), f"this offer names the maker or his side, and {no_maker} (step {set_by!r} sets trumps with no maker)"
        if kind == "play":
            if step.get("trumps-by") and (fixed_by or always_by) is not None:
                yield where + ("trumps-by",), (f"a hand reaches the play only with trumps made (step {fixed_by or always_by!r} "
                                               "has no `when`): the first lead never fixes them")
            if step.get("all-sit-out") and not sit_out:
                yield where + ("all-sit-out",), "no seat can sit out before the play (no offer with effect: sit-out): remove it"
            if maker_by is None:
                for j, rule in enumerate(step["lead"]):
                    if rule["seat"] in MAKER_REFS:
                        yield where + ("lead", j, "seat"), f"{rule['seat']} names no seat: {no_maker}"
        if kind == "offer" and step.get("effect") == "sit-out":
            sit_out = True
        if kind in MAKER_STEPS:
            maker_by = step["id"]
        if kind == "make-trumps":
            bid_rounds.add(step["id"])
        if kind == "auction" and not all(b.get("strain") for b in step["bids"]):
            unstrained = True         # a maker may come without trumps (he names them later, or the lead does)
        if kind == "force-bid" and step.get("bid") not in strained:
            unstrained = True
        if "when" not in step and always_by is None and (
                (kind == "throw-in" and not unstrained) or (kind == "force-bid" and step.get("bid") in strained)):
            always_by = step["id"]
        if kind == "set-trumps":
            set_by = set_by or step["id"]
            if "when" not in step and fixed_by is None:
                fixed_by = step["id"]


def _too_early(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """A step up to the play (and the play's choice of leader) is decided before any trick:
    a condition there on tricks won, on the contract made or on a renege holds the same for
    every hand (no tricks, not made), so the rule it guards never varies as written."""
    plays = [i for i, s in enumerate(t["hand"]) if s["kind"] == "play"]
    last = plays[0] if plays else len(t["hand"]) - 1
    for i, step in enumerate(t["hand"][:last + 1]):
        places: list[tuple[tuple[Any, ...], Any]] = [((key,), step.get(key)) for key in ("when", "eligible", "forced")]
        places += [(("takes", j, "when"), take.get("when")) for j, take in enumerate(step.get("takes", []))]
        places += [(("lead", j, "when"), rule.get("when")) for j, rule in enumerate(step.get("lead", []))]
        for where, condition in places:
            if not isinstance(condition, dict):
                continue
            for path, inner in [((), condition)] + list(_conditions(condition, ())):
                for key in AFTER_PLAY:
                    if key in inner:
                        yield ("hand", i) + where + path + (key,), (
                            f"{key} is about the tricks, and no trick has been played when this is decided")


def _strains(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """A suit a step may name, or fixes as trumps, must be in the pack (the interpreter has no
    such suit to play)."""
    suits = set(t["deck"]["suits"])
    for i, step in enumerate(t["hand"]):
        for j, strain in enumerate(step.get("names", [])):
            if strain not in suits and strain not in ("NT", "NL"):
                yield ("hand", i, "names", j), f"no suit {strain} in the pack ({', '.join(t['deck']['suits'])})"
        trumps = step.get("trumps")
        if step["kind"] == "set-trumps" and isinstance(trumps, str) and len(trumps) == 1 and trumps not in suits:
            yield ("hand", i, "trumps"), f"no suit {trumps} in the pack ({', '.join(t['deck']['suits'])})"


def _subset(inner: dict[str, Any], outer: dict[str, Any]) -> bool:
    """Whether every card of the card set ``inner`` is surely in ``outer`` (by the keys both name)."""
    for key in ("ranks", "suits", "cards"):
        if key in outer and (key not in inner or not set(inner[key]) <= set(outer[key])):
            return False
    return True


def _swaps(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """A swap with the kitty that lays down cards ``of`` a set must only be offered to a seat
    holding enough of them: else the seat accepts and then has no card it may lay down."""
    for i, step in enumerate(t["hand"]):
        swap = step.get("swap") if step["kind"] == "offer" else None
        if not swap or "of" not in swap:
            continue
        holds = (step.get("eligible") or {}).get("holds") or {}
        enough = holds and _subset(holds["of"], swap["of"]) and (
            holds.get("at-least", 0) >= swap["count"] or holds.get("only"))
        if not enough:
            yield ("hand", i, "eligible"), (f"a seat offered this swap may hold fewer than {swap['count']} of the cards it "
                                            f"must lay down: eligible needs holds: {{of: <swap.of or fewer cards>, at-least: "
                                            f"{swap['count']}}}")


def _stock(t: dict[str, Any]) -> tuple[int, str]:
    """The cards left undealt (the kitty a swap draws from, the stock of an exchange by
    proposal), and how that follows from the pack, the deal and the number of players."""
    n = t["players"]["count"]
    dealt, size = _dealt(t)
    upcard = 1 if t["deal"]["upcard"] else 0
    said = f"a pack of {size}, less {dealt - upcard} dealt to {n} players" + (" and the upcard" if upcard else "")
    return size - dealt, said


def _stock_draws(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """A swap with the kitty, or an exchange by proposal, draws from the cards left undealt:
    a table asking for more than the deal leaves (or more than a seat holds) would be accepted
    and then stop at a seat with no legal action. The size follows from the deal, so each
    option value that changes the players or the packets is checked with its own table."""
    stock, said = _stock(t)
    if stock < 0:
        return                        # the deal does not fit the pack: reported as that
    hand_size = _hand_size(t)
    for i, step in enumerate(t["hand"]):
        swap = step.get("swap") if step["kind"] == "offer" and step.get("effect") == "swap-with-kitty" else None
        if isinstance(swap, dict) and isinstance(swap.get("count"), int):
            if swap["count"] > stock:
                yield ("hand", i, "swap", "count"), (f"the swap takes {swap['count']} card(s) from the kitty, which holds "
                                                     f"{max(stock, 0)} ({said})")
            elif swap["count"] > hand_size:
                yield ("hand", i, "swap", "count"), f"the swap lays down {swap['count']} card(s), and a seat holds {hand_size}"
        if step["kind"] == "propose":
            least = (step.get("exchange") or {}).get("proposer-at-least", 1)
            if stock <= 0:
                yield ("hand", i), f"an exchange draws from the stock, and the deal leaves none ({said}): this step never runs"
            elif least > min(stock, hand_size):
                yield ("hand", i, "exchange", "proposer-at-least"), (
                    f"the proposer must lay out {least} card(s), and the stock holds {stock} ({said}) and a seat "
                    f"{hand_size}: no exchange could ever be made")


def _truth(condition: dict[str, Any], outcome: dict[str, Any]) -> bool | None:
    """A condition weighed on a hand's outcome: True, False, or None where it speaks of what
    the outcome does not say (the trumps, a bid, the hand number...)."""
    result: bool | None = True
    for key, value in condition.items():
        if key in ("maker-tricks", "defender-tricks"):
            low, high = (value, value) if isinstance(value, int) else value
            tricks = outcome["tricks"] if key == "maker-tricks" else outcome["hand"] - outcome["tricks"]
            known: bool | None = outcome["contract"] == "any" and low <= tricks <= high
            if outcome["contract"] == "none":
                known = None
        elif key in ("alone", "defender-alone"):
            known = outcome[key] == value
        elif key == "conceded":
            known = outcome.get("conceded", "none") == value
        elif key == "contract":
            known = outcome["contract"] == value
        elif key == "made":
            known = None if outcome["made"] is None or outcome["contract"] == "none" else outcome["made"] == value
        elif key == "partner" and outcome["partner"] is not None:
            known = outcome["partner"] == value
        elif key == "maker":
            seat = outcome["maker"]
            if outcome["contract"] == "none":
                known = value == "none"
            elif seat is None:
                known = None
            else:
                known = value != "none" and (seat != "dealer" if value == "not-dealer" else seat == value)
        elif key == "any":
            parts = [_truth(part, outcome) for part in value]
            known = True if True in parts else None if None in parts else False
        elif key == "all":
            parts = [_truth(part, outcome) for part in value]
            known = False if False in parts else None if None in parts else True
        elif key == "not":
            inner = _truth(value, outcome)
            known = None if inner is None else not inner
        else:
            known = None
        if known is False:
            return False
        if known is None:
            result = None
    return result


SEAT_WORDS = {"dealer": "the dealer", "eldest": "the eldest hand", "dealer-partner": "the dealer's partner",
              "another seat": "another seat"}


def _mentions(node: Any, key: str) -> bool:
    """Whether a condition uses the atom ``key`` anywhere (inside `any`, `all`, `not` too)."""
    if isinstance(node, dict):
        return key in node or any(_mentions(v, key) for v in node.values())
    if isinstance(node, list):
        return any(_mentions(v, key) for v in node)
    return False


def _scoring_coverage(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """Every way a hand can end is scored by some row: a hand that no row can score would stop
    the game there. Only outcomes the table can reach are weighed (a lone hand only where some
    step or bid plays alone), and a row speaking of what an outcome does not say (the trumps,
    a bid, the hand number) is taken as possibly scoring it."""
    dealt, size = _dealt(t)
    if dealt > size:
        return                        # the deal's own problem; weighing every trick count of it would cost its size
    steps = t["hand"]
    hand = _hand_size(t)
    auction = any(s["kind"] == "auction" for s in steps)
    lone = any(s["kind"] == "offer" and s.get("effect") == "alone" for s in steps) or any(
        b.get("alone") for s in steps if s["kind"] == "auction" for b in s["bids"])
    lone_defence = any(s["kind"] == "offer" and s.get("effect") == "defend-alone" for s in steps)
    no_maker = any(s["kind"] == "set-trumps" for s in steps)
    called = t["players"]["sides"] == "maker-and-called"
    n = t["players"]["count"]
    teams = t["players"].get("teams")
    rows = [r for r in t["scoring"]["rows"] if r.get("enabled", True)]
    seats: list[str | None] = [None]          # where the maker sits, weighed only if a row asks
    if any(_mentions(r["when"], "maker") for r in rows):
        seats = ["dealer", "eldest"]
        seats += ["dealer-partner"] if teams and all(len(x) == 2 for x in teams) and n > 2 else []
        seats += ["another seat"] if n > len(seats) else []
    need = t["scoring"].get("makers-need", 0)
    outcomes: list[dict[str, Any]] = [{"contract": "none", "tricks": 0, "hand": hand, "alone": False, "defender-alone": False,
                 "made": None, "partner": None, "maker": None}] if no_maker else []
    for tricks in range(hand + 1):
        for alone in (False, True) if lone else (False,):
            for defence in (False, True) if lone_defence and alone else (False,):
                for partner in ("called", "none") if called else (None,):
                    for maker in seats:
                        outcomes.append({"contract": "any", "tricks": tricks, "hand": hand, "alone": alone,
                                         "defender-alone": defence, "made": None if auction else tricks >= need,
                                         "partner": partner, "maker": maker})
    for side in _conceding_sides(t):
        conceded = {"contract": "any", "tricks": 0, "hand": hand, "alone": False, "defender-alone": False,
                    "made": False, "partner": None, "maker": None, "conceded": side}
        if not any(_mentions(row["when"], "conceded") and _truth(row["when"], conceded) is not False for row in rows):
            yield ("scoring", "rows"), (f"no scoring row scores a hand the {side} concede (a row with `conceded: {side}`):"
                                        f" it would be scored as if played out, with no tricks")
    for outcome in outcomes:
        if all(_truth(row["when"], outcome) is False for row in rows):
            if outcome["contract"] == "none":
                said = "a hand played with no maker"
            else:
                said = f"a hand in which the makers take {outcome['tricks']} trick{'s' if outcome['tricks'] != 1 else ''}"
                said += " alone" if outcome["alone"] else ""
                said += " against a lone defender" if outcome["defender-alone"] else ""
                said += f" (partner: {outcome['partner']})" if outcome["partner"] else ""
                said += f", made by {SEAT_WORDS[outcome['maker']]}" if outcome["maker"] else ""
            yield ("scoring", "rows"), f"no scoring row scores {said}: play would stop there"
            return


def _conceding_sides(t: dict[str, Any]) -> list[str]:
    """The sides that can concede a hand of this table: those an offer with effect: concede
    asks (the defenders, the makers, or both where it asks others or everyone)."""
    sides: list[str] = []
    for step in t["hand"]:
        if step["kind"] != "offer" or step.get("effect") != "concede":
            continue
        target = step["to"]
        seats = target["seats"] if isinstance(target, dict) else target
        found = (["defenders"] if seats == "defenders" else ["makers"] if seats in ("maker", "maker-partners", "maker-partner")
                 else ["makers", "defenders"])
        sides += [side for side in found if side not in sides]
    return sides


def _rounds(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """A ``round`` atom names its `make-trumps` step by id. A number would count the steps,
    and the count moves under the author's feet when a step is added before (an option's
    insert, a child's new step), silently changing the dealer's pick-up or a forced loner."""
    rounds = [s["id"] for s in t["hand"] if s["kind"] == "make-trumps"]
    sections = {key: t[key] for key in ("hand", "scoring", "counters", "game") if key in t}
    for path, condition in _conditions(sections, ()):
        if "round" not in condition:
            continue
        value = condition["round"]
        if isinstance(value, int):
            named = f"round: {rounds[value - 1]}" if 0 < value <= len(rounds) else "round: <the step's id>"
            yield path + ("round",), (f"round: {value} counts make-trumps steps, a count that shifts when a step is "
                                      f"added or moved: name the step by its id ({named})")
        elif value not in rounds:
            yield path + ("round",), (f"no make-trumps step {value!r} (the hand's make-trumps steps: "
                                      f"{', '.join(rounds) or 'none'})")


def _scoring_and_game(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    clause_ids = [c["id"] for c in t.get("clauses", [])]
    # A row is stated by the clause of its id, or by an option's clause that replaced it.
    stating = set(clause_ids) | {c["replaces"] for c in t.get("clauses", []) if c.get("replaces")}
    row_ids = [r["id"] for r in t["scoring"]["rows"]]
    bid_ids = {b["id"] for s in t["hand"] if s["kind"] == "auction" for b in s["bids"]}
    counter_ids = [c["id"] for c in t.get("counters", [])]
    for i, step in enumerate(t["hand"]):
        # a step is stated as a row is: by the clause of its id, or the one its `clause` names
        if "clause" not in step and step["id"] not in stating and not _never_holds(step.get("when"), t):
            yield ("hand", i, "id"), (f"step {step['id']!r} has no clause stating it: add a clause of the same id, "
                                      f"or name the one that states it (clause: <id>)")
    for i, row in enumerate(t["scoring"]["rows"]):
        if row_ids.count(row["id"]) > 1:
            yield ("scoring", "rows", i, "id"), f"duplicate row id {row['id']!r}"
        if row.get("enabled", True) and row["id"] not in stating:
            yield ("scoring", "rows", i, "id"), f"row {row['id']!r} has no clause of the same id stating it"
    for path, condition in _conditions({"scoring": t["scoring"], "counters": t.get("counters", []),
                                        "game": t["game"]}, ()):
        for key in ("maker-tricks", "defender-tricks", "self-tricks", "hand-number"):
            span = condition.get(key)
            if isinstance(span, list) and span[0] > span[1]:
                yield path + (key,), f"empty range {span}"
        for j, bid in enumerate(condition.get("bid", [])):
            if bid not in bid_ids:
                yield path + ("bid", j), f"no bid {bid!r}"
        counter = condition.get("counter")
        if counter and counter["id"] not in counter_ids:
            yield path + ("counter", "id"), f"no counter {counter['id']!r}"
        sequence = condition.get("trick-sequence")
        hand_size = _hand_size(t)
        if sequence and len(sequence) != hand_size:
            yield path + ("trick-sequence",), f"{len(sequence)} tricks in the sequence, {hand_size} in a hand"
    for i, counter in enumerate(t.get("counters", [])):
        if counter_ids.count(counter["id"]) > 1:
            yield ("counters", i, "id"), f"duplicate counter id {counter['id']!r}"
    game = t["game"]
    up = game.get("direction", "up") == "up"
    if "target" not in game and not game.get("deals"):
        yield ("game",), "the game never ends: give game.target or game.deals"
    elif up and not game.get("target") and not game.get("deals"):
        yield ("game", "target"), "a target of 0 means no target: the game then needs game.deals"
    if not up and "target" not in game:
        yield ("game",), "a game counting down needs a target to reach"
    if game["first-dealer"] == "cut" and "cut-order" not in game:
        yield ("game", "first-dealer"), "cutting for the first deal needs game.cut-order"
    if game["first-dealer"] == "first-black-jack" and "J" not in t["deck"]["ranks"]:
        yield ("game", "first-dealer"), "no jacks in the pack"


def _point_numbers(t: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], int]]:
    """Every number of points a table writes, with its path: awards (a number, or each factor
    and bound of a `points` expression), an offer's `points`, and a bid's `value` where a row
    scores it (`contract-value`)."""
    for i, row in enumerate(t["scoring"]["rows"]):
        for j, award in enumerate(row.get("award", [])):
            points = award.get("points")
            where = ("scoring", "rows", i, "award", j, "points")
            if isinstance(points, int):
                yield where, points
            elif isinstance(points, dict):
                yield from ((where + (key,), value) for key, value in points.items() if isinstance(value, int))
    by_value = any(isinstance(a.get("points"), dict) and "contract-value" in a["points"]
                   for row in t["scoring"]["rows"] for a in row.get("award", []))
    for i, step in enumerate(t["hand"]):
        if isinstance(step.get("points"), int):
            yield ("hand", i, "points"), step["points"]
        for j, bid in enumerate(step.get("bids", []) if step["kind"] == "auction" and by_value else []):
            if isinstance(bid.get("value"), int):
                yield ("hand", i, "bids", j, "value"), bid["value"]


def _score_unit(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """``scoring.unit: half`` counts every number of points in half points. It makes sense only
    where some number can give half a point (an odd one); the game's own marks (the target,
    the score counted down from, the score that loses) are whole points in every rule read."""
    if t["scoring"].get("unit") != "half":
        return
    if not any(value % 2 for _, value in _point_numbers(t)):
        yield ("scoring", "unit"), ("every number of points in the table is even, so no score can come to half a "
                                    "point: count in points (drop `unit: half`, halve the numbers)")
    for key in ("target", "start-score", "lose-at"):
        value = t["game"].get(key)
        if isinstance(value, int) and value % 2:
            yield ("game", key), (f"{value} half points is {value / 2:g} points: with `scoring.unit: half`, "
                                  f"game.{key} counts half points and must be a whole number of points (even)")


def _never_holds(condition: Any, t: dict[str, Any]) -> bool:
    """Whether a step's `when` can never hold in this table, so that the step states no rule:
    the Benny's step (`upcard: benny`) in a table with no Benny, which the option that adds
    the Benny gives its clause (the one case a table ships; anything else is weighed as
    possibly holding)."""
    if not isinstance(condition, dict):
        return False
    if condition.get("upcard") == "benny" and not t["ranking"].get("benny"):
        return True
    return any(_never_holds(part, t) for part in condition.get("all", []) if isinstance(condition.get("all"), list))


def _clauses_and_sources(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    sources = t["sources"]
    seen: dict[str, int] = {}
    for i, clause in enumerate(t.get("clauses", [])):
        if clause["id"] in seen:
            yield ("clauses", i, "id"), f"duplicate clause id {clause['id']!r} (also clause {seen[clause['id']]})"
        seen[clause["id"]] = i
        if clause["source"] not in sources:
            yield ("clauses", i, "source"), f"unknown source {clause['source']!r}"
    for key, option in t.get("options", {}).items():
        if option["source"] not in sources:
            yield ("options", key, "source"), f"unknown source {option['source']!r}"
        values = [c["value"] for c in option.get("choices", [])]
        span = option.get("range")
        in_range = span is not None and isinstance(option["default"], int) and not isinstance(option["default"], bool) \
            and span["minimum"] <= option["default"] <= span["maximum"]
        if option["default"] not in values and not in_range:
            yield ("options", key, "default"), f"default {option['default']!r} is not one of its values"
        for j, choice in enumerate(option.get("choices", [])):
            if values.count(choice["value"]) > 1:
                yield ("options", key, "choices", j, "value"), f"duplicate value {choice['value']!r}"
            for k, clause in enumerate(choice.get("clauses", [])):
                if clause["source"] not in sources:
                    yield ("options", key, "choices", j, "clauses", k, "source"), f"unknown source {clause['source']!r}"
            for other in choice.get("requires", {}):
                if other not in t.get("options", {}):
                    yield ("options", key, "choices", j, "requires", other), f"no option {other!r}"
        if span is not None and span["minimum"] > span["maximum"]:
            yield ("options", key, "range"), f"empty range {span['minimum']}..{span['maximum']}"
    for key, source in sources.items():
        if source["kind"] == "seed" and "file" not in source:
            yield ("sources", key), "a seed source names its file"


def _option_overlaps(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """Two options may not set one value (or one inside another): whichever values are
    chosen, a table must not depend on the order options are applied in."""
    seen: list[tuple[tuple[str, ...], str]] = []
    for key, option in t.get("options", {}).items():
        mine: list[tuple[tuple[str, ...], tuple[Any, ...]]] = []
        for j, choice in enumerate(option.get("choices", [])):
            mine += [(tuple(dotted.split(".")), ("options", key, "choices", j, "sets", dotted)) for dotted in choice.get("sets", {})]
        for dotted in option.get("range", {}).get("sets", {}):
            mine.append((tuple(dotted.split(".")), ("options", key, "range", "sets", dotted)))
        for path, where in mine:
            for other_path, other_key in seen:
                if path[:len(other_path)] == other_path or other_path[:len(path)] == path:
                    yield where, f"{'.'.join(path)} is also set by option {other_key}: two options may not set one value"
                    break
        seen += [(path, key) for path, _ in mine]
    yield from _option_mappings(t)


def _option_mappings(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """An option's `trickster` mapping names values the option has (checked with the overlaps:
    both are about how options read from outside the table)."""
    from .options import coerce
    for key, option in t.get("options", {}).items():
        mapping = option.get("trickster")
        for side in ("value-on", "value-off") if mapping else ():
            try:
                coerce(option, mapping[side])
            except ValueError as exc:
                yield ("options", key, "trickster", side), f"{mapping[side]!r} is not a value of option {key}: {exc}"


def _paths_where(node: Any, matches: Callable[[Any], bool], skip: str | None = None,
                 path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every value of ``node`` that ``matches`` (never under the key ``skip``), with its path,
    in the order of the table. Only branches that hold one are walked with their paths: the
    first walk, over the whole table, is a plain search (a table has thousands of values and
    almost never a stray one)."""
    if not _holds(node, matches, skip):
        return
    if isinstance(node, dict):
        for key, value in node.items():
            if key != skip:
                yield from _paths_where(value, matches, skip, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _paths_where(item, matches, skip, path + (i,))
    else:
        yield path, node


def _holds(node: Any, matches: Callable[[Any], bool], skip: str | None) -> bool:
    pending = [node]
    pop, extend = pending.pop, pending.extend
    while pending:
        value = pop()
        if isinstance(value, dict):
            extend(item for key, item in value.items() if key != skip)
        elif isinstance(value, list):
            extend(value)
        elif matches(value):
            return True
    return False


def _placeholders(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """Every ``$value`` outside the options (where a range option's sets use it)."""
    for path, _ in _paths_where(t, lambda value: type(value) is str and value == VALUE, skip="options"):
        yield path, f"{VALUE} is only for a range option's sets"


# The largest whole number every JSON reader carries exactly (RFC 8259 section 6: readers that
# hold numbers as doubles, a JavaScript engine among them). A table's points, scores and
# targets stay within it, so that the scores a game reaches, summed over many hands, stay
# within the protocol's integers (at most 20 digits, spec/protocol.md) for any engine.
LARGEST_INTEGER = 2 ** 53 - 1


def _out_of_range(value: Any) -> bool:
    return type(value) is int and not -LARGEST_INTEGER <= value <= LARGEST_INTEGER


def _huge_integers(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """Every integer of the table beyond what every engine's JSON carries, at its path."""
    for path, value in _paths_where(t, _out_of_range):
        yield path, (f"{value} is beyond the largest whole number an engine is sure to carry "
                     f"({LARGEST_INTEGER}, 2^53 - 1): the scores it leads to could not be reported")


def _visibility(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    """A visibility entry names seats the game has, and a clause or source the table has."""
    n = t["players"]["count"]
    clauses = {c["id"] for c in t.get("clauses", [])}
    for i, entry in enumerate(t.get("visibility", [])):
        if isinstance(entry.get("of"), int) and entry["of"] >= n:
            yield ("visibility", i, "of"), f"seat {entry['of']} is not a seat of {n} players"
        seen = entry.get("seen-by")
        if isinstance(seen, dict):
            for j, seat in enumerate(seen.get("seats", [])):
                if seat >= n:
                    yield ("visibility", i, "seen-by", "seats", j), f"seat {seat} is not a seat of {n} players"
        if "clause" in entry and entry["clause"] not in clauses:
            yield ("visibility", i, "clause"), f"no clause {entry['clause']!r}"
        if "source" in entry and entry["source"] not in t["sources"]:
            yield ("visibility", i, "source"), f"unknown source {entry['source']!r}"
        if entry.get("of") is not None and entry.get("zone") != "hands":
            yield ("visibility", i, "of"), f"`of` names one seat's hand: it is for zone hands, not {entry.get('zone')}"


def semantic_problems(table: dict[str, Any], partial: bool = False) -> list[PathAndMessage]:
    """Every cross-reference problem in a resolved table, as (path, message) pairs.

    ``partial``: the table fails its schema too, and the checks that can still read it report
    alongside the schema's problems (an author learns every problem in one run); a check that
    stumbles on a malformed part (a missing key, a wrong type) is left out for this run."""
    checks = (_players, _deck_and_ranking, _deal, _hand, _step_properties, _placement, _partner_refs, _called_partner_refs, _lone_defender_refs, _forced_refs, _seatless, _vacuous_holds, _too_early, _card_names, _rank_orders, _play_rules, _strains, _swaps, _stock_draws, _rounds, _scoring_coverage,
              _scoring_and_game, _score_unit, _clauses_and_sources, _option_overlaps,
              _placeholders, _huge_integers, _visibility)
    if not partial:
        return [problem for check in checks for problem in check(table)]
    found: list[PathAndMessage] = []
    for check in checks:
        try:
            found += list(check(table))
        except (KeyError, TypeError, IndexError, AttributeError, ValueError):
            continue
    return found
