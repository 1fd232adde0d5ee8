"""An independent reading of a resolved rule table, for checking the interpreter.

Written straight from the table (shape 2) and the rules' words, with none of the
interpreter's precomputed tables, closures, bitmasks or indices: card orders from the
natural order of ranks and the bower and Benny flags, scoring from the rows and their
conditions read as plain data. If the two disagree, one of them misreads the rules.
"""

from __future__ import annotations

from typing import Any

NT, NL = "NT", "NL"
NATURAL = "23456789TJQKA"


def _plain(card: str) -> str:
    """The card a copy is (``AS.2`` is the ace of spades): copies play as the card."""
    return card.split(".")[0]


def _suit(card: str) -> str:
    return _plain(card)[-1]


def _rank(card: str) -> str:
    return _plain(card)[:-1]


def rank_value(table: dict[str, Any], card: str) -> int:
    """Higher ranks higher: the table's ranks in the order it writes them (lowest first);
    a rank only an extra card has (Five Hundred's red fours) comes below them all."""
    listed = list(table["deck"]["ranks"])
    rank = _rank(card)
    if rank in listed:
        return listed.index(rank)
    return NATURAL.index(rank) - len(NATURAL) if rank in NATURAL else -len(NATURAL) - 1


def _colour_rank(table: dict[str, Any], card: str, kind: str) -> int:
    """A card's place in its colour's order (``ranking.colour-orders``, ``plain`` or
    ``trump``), else in the pack's order; a trump colour without its own order ranks as plain."""
    colour = table["deck"]["colours"].get(_suit(card))
    orders = table["ranking"].get("colour-orders") or {}
    for which in ((kind, "plain") if kind == "trump" else ("plain",)):
        listed = (orders.get(which) or {}).get(colour)
        if listed:
            return listed.index(_rank(card)) if _rank(card) in listed else -1
    return rank_value(table, card)


def _top_trump(table: dict[str, Any], card: str, trump: str) -> int | None:
    """The place of a card among ``ranking.top-trumps`` (0 the highest) when ``trump`` is
    trumps, or None."""
    for i, entry in enumerate(table["ranking"].get("top-trumps") or []):
        if _plain(card) == entry.get("card") or _plain(card) == entry.get("rank", "") + trump:
            return i
    return None


def _left_bower_suit(table: dict[str, Any], trump: str) -> str:
    colours = table["deck"]["colours"]
    return next(s for s in table["deck"]["suits"] if s != trump and colours[s] == colours[trump])


def has_bowers(table: dict[str, Any]) -> bool:
    return table["ranking"]["bowers"]


def benny(table: dict[str, Any]) -> str | None:
    return table["ranking"].get("benny")


def master(table: dict[str, Any]) -> str | None:
    """The card of no suit at no-trumps: the table's master, else the Benny."""
    return (table["ranking"].get("no-trump") or {}).get("master") or benny(table)


def effective_suit(table: dict[str, Any], card: str, trump: str) -> str | None:
    """The suit a card belongs to when ``trump`` (a suit letter, NT or NL) is trumps."""
    card = _plain(card)
    if trump in (NT, NL):
        return None if card in (master(table), "JK") else _suit(card)
    if card == benny(table) or _top_trump(table, card, trump) is not None:
        return trump
    if has_bowers(table) and card == "J" + _left_bower_suit(table, trump):
        return trump
    return None if card == "JK" else _suit(card)


def trump_strength(table: dict[str, Any], card: str, trump: str) -> int:
    """Higher is stronger: the Benny, the right bower, the left bower, then by rank."""
    card = _plain(card)
    if card == benny(table):
        return 200
    top = _top_trump(table, card, trump)
    if top is not None:
        return 150 - top
    if has_bowers(table) and card == "J" + trump:
        return 99
    if has_bowers(table) and card == "J" + _left_bower_suit(table, trump):
        return 98
    return _colour_rank(table, card, "trump")


def plain_strength(table: dict[str, Any], card: str, trump: str = "") -> int:
    rank = _colour_rank(table, card, "plain")
    return -rank if trump == NL else rank


def _best(table: dict[str, Any], plays: list[tuple[int, str]], strength) -> int:
    """The seat of the strongest play; of equal cards (copies) the first played, or the
    last where the table says so."""
    top = max(strength(card) for _, card in plays)
    tied = [seat for seat, card in plays if strength(card) == top]
    return tied[-1] if table["ranking"].get("equal-cards") == "last-played" else tied[0]


def led_suit(table: dict[str, Any], trump: str, plays: list[tuple[int, str]], named: str | None = None) -> str:
    """The suit of a trick: the effective suit of its first card, or the suit named for a
    master card led at no-trumps."""
    first = effective_suit(table, plays[0][1], trump)
    return named if first is None else first


def trick_winner(table: dict[str, Any], trump: str, plays: list[tuple[int, str]], named: str | None = None) -> int:
    """The seat that wins a trick: the master card at no-trumps, else the highest trump,
    else the highest card of the suit led."""
    if trump in (NT, NL):
        masters = [(seat, card) for seat, card in plays if _plain(card) == master(table)]
        if masters:
            return _best(table, masters, lambda card: 0)
        led = led_suit(table, trump, plays, named)
        following = [(seat, card) for seat, card in plays if effective_suit(table, card, trump) == led]
        return _best(table, following, lambda card: plain_strength(table, card, trump))
    trumps = [(seat, card) for seat, card in plays if effective_suit(table, card, trump) == trump]
    if trumps:
        return _best(table, trumps, lambda card: trump_strength(table, card, trump))
    led = effective_suit(table, plays[0][1], trump)
    following = [(seat, card) for seat, card in plays if effective_suit(table, card, trump) == led]
    return _best(table, following, lambda card: plain_strength(table, card))


def legal_plays(table: dict[str, Any], trump: str, hand: list[str], trick: list[tuple[int, str]],
                named: str | None = None, seat: int | None = None) -> set[str]:
    """Follow the effective suit led if able; otherwise anything. At no-trumps the master
    card belongs to no suit: it never follows, but may be played any time where the table
    says so."""
    if not trick or next(s for s in table["hand"] if s["kind"] == "play").get("renege") == "allowed":
        return set(hand)               # a lead, or a play where reneging is allowed (claimed after the hand)
    led = led_suit(table, trump, trick, named)
    follow = {card for card in hand if effective_suit(table, card, trump) == led}
    if follow and trump in (NT, NL) and (table["ranking"].get("no-trump") or {}).get("master-play") == "any-time":
        follow |= {card for card in hand if _plain(card) == master(table)}
    play = next(s for s in table["hand"] if s["kind"] == "play")
    must = set(play.get("must", ()))
    if play.get("partner-winning-frees"):
        if seat is None:                        # the seat to play: the next after the last card, where all play
            seat = (trick[-1][0] + 1) % table["players"]["count"]
        team = next(t for t in table["players"]["teams"] if seat in t)
        if trick_winner(table, trump, trick, named) in team:
            must -= set(play["partner-winning-frees"])

    def winners(cards: set[str]) -> set[str]:
        """The cards that would win the trick if played now."""
        seat = len(trick) + 100
        return {card for card in cards if trick_winner(table, trump, trick + [(seat, card)], named) == seat}

    trumps = {card for card in hand if trump not in (NT, NL) and effective_suit(table, card, trump) == trump}
    if follow and led == trump and play.get("privileged-trumps"):
        ranked = sorted({trump_strength(table, c, trump) for c in table_cards(table)
                         if effective_suit(table, c, trump) == trump}, reverse=True)
        top = ranked[:play["privileged-trumps"]]
        led_strength = trump_strength(table, trick[0][1], trump)
        if all(trump_strength(table, c, trump) in top and trump_strength(table, c, trump) > led_strength for c in follow):
            return set(hand)                    # only privileged trumps above the card led: they may renege
    if follow:
        if "head" in must and winners(follow):
            follow = winners(follow)
        if play.get("may-trump") == "always" and led != trump:
            return follow | trumps
        return follow
    if trumps:
        trumped = any(effective_suit(table, card, trump) == trump for _, card in trick)
        if "overtrump" in must and trumped and winners(trumps):
            trumps = winners(trumps)
        if "trump" in must:
            return trumps
        return {card for card in hand if effective_suit(table, card, trump) != trump} | trumps
    return set(hand)


def table_cards(table: dict[str, Any]) -> list[str]:
    """Every card of the pack (one of each), read from the deck as written."""
    deck = table["deck"]
    cards = [rank + suit for suit in deck["suits"] for rank in deck["ranks"]] + list(deck.get("extra", []))
    return [c for c in cards if c not in deck.get("without", [])]


def units(table: dict[str, Any]) -> list[list[int]]:
    """The scoring units: teams, or one per seat."""
    players = table["players"]
    if players.get("teams"):
        return [list(group) for group in players["teams"]]
    return [[seat] for seat in range(players["count"])]


def maker_side(table: dict[str, Any], hand: dict[str, Any]) -> list[int]:
    """The seats on the maker's side: his team, or him and a called partner, or him."""
    maker = hand["maker"]
    if maker is None:
        return []
    sides = table["players"]["sides"]
    if sides == "teams":
        return next(g for g in units(table) if maker in g)
    if sides == "maker-and-called" and hand.get("partner") is not None:
        return [maker, hand["partner"]]
    return [maker]


def _bid(table: dict[str, Any], bid_id: str) -> dict[str, Any]:
    return next(b for step in table["hand"] if step["kind"] == "auction" for b in step["bids"] if b["id"] == bid_id)


def made(table: dict[str, Any], hand: dict[str, Any]) -> bool:
    tricks = sum(hand["tricks_won"][s] for s in maker_side(table, hand))
    if hand["contract"] is None:
        return tricks >= table["scoring"]["makers-need"]
    bid = _bid(table, hand["contract"])
    return bid.get("tricks", 0) <= tricks <= bid.get("at-most", sum(hand["tricks_won"]))


def _in(value: int, span: Any) -> bool:
    return value == span if isinstance(span, int) else span[0] <= value <= span[1]


def holds(table: dict[str, Any], hand: dict[str, Any], condition: dict[str, Any], unit: list[int] | None = None) -> bool:
    """Whether a condition holds of the hand (and of the scoring unit ``unit`` as self)."""
    side = maker_side(table, hand)
    for key, value in condition.items():
        if key == "maker-tricks" and not _in(sum(hand["tricks_won"][s] for s in side), value):
            return False
        if key == "defender-tricks" and not _in(sum(hand["tricks_won"]) - sum(hand["tricks_won"][s] for s in side), value):
            return False
        if key == "made" and (hand["maker"] is None or made(table, hand) != value):
            return False
        if key == "alone" and hand["alone"] != value:
            return False
        if key == "defender-alone" and (hand["defender_alone"] is not None) != value:
            return False
        if key == "contract" and (hand["maker"] is None) != (value == "none"):
            return False
        if key == "bid" and hand["contract"] not in value:
            return False
        if key == "partner" and (hand.get("partner") is not None) != (value == "called"):
            return False
        if key == "trump" and value != (hand["trump"] or "none") and not (isinstance(value, list) and hand["trump"] in value):
            return False
        if key == "trick-sequence":
            winners = [t["winner"] for t in hand["tricks"]]
            if any(want != "." and (want == "M") != (winner in side) for want, winner in zip(value, winners)):
                return False
        if key == "self-tricks" and not _in(sum(hand["tricks_won"][s] for s in unit), value):
            return False
        if key == "self-in-hand" and any(s not in hand["sitting_out"] for s in unit) != value:
            return False
        if key == "self":
            is_maker = hand["maker"] in unit
            on_side = any(s in side for s in unit)
            wanted = {"maker": is_maker, "not-maker": not is_maker, "maker-side": on_side,
                      "defender": hand["maker"] is not None and not on_side}
            if value not in wanted:
                raise NotImplementedError(f"the oracle does not read self: {value}")
            if not wanted[value]:
                return False
        if key == "renege-claimed":
            against = set(hand.get("renege_claims") or ())
            makers, defenders = bool(against & set(side)), bool(against - set(side))
            wanted = {"makers": makers and not defenders, "defenders": defenders and not makers,
                      "both": makers and defenders, "none": not against}
            if not wanted[value]:
                return False
        if key == "stood":
            stood = hand.get("stood")
            if value != ("nobody" if stood is None else "self" if unit is not None and stood in unit else "other"):
                return False
        if key == "conceded" and value != (hand.get("conceded") or "none"):
            return False
        if key == "forced-contract" and value != hand["forced_contract"]:
            return False
        if key == "any" and not any(holds(table, hand, part, unit) for part in value):
            return False
        if key == "all" and not all(holds(table, hand, part, unit) for part in value):
            return False
        if key == "not" and holds(table, hand, value, unit):
            return False
        if key not in {"maker-tricks", "defender-tricks", "made", "alone", "defender-alone", "contract", "bid",
                       "partner", "trump", "trick-sequence", "self-tricks", "self-in-hand", "self", "any", "all", "not",
                       "renege-claimed", "stood", "conceded", "forced-contract"}:
            raise NotImplementedError(f"the oracle does not read the condition {key}")
    return True


def forced_contract(hand: dict[str, Any], choices: list[tuple[int, str, list[str]]]) -> bool:
    """Whether the hand's contract was forced, read from the choices the seats made this hand
    (seat, action, the actions it had): the maker's bid of the contract, or the order or call
    that made trumps, made with no `pass` among its actions; or a contract no seat chose (a
    force-bid step made it)."""
    if hand["maker"] is None:
        return False
    if hand["contract"] is not None:
        chosen = [legal for seat, action, legal in choices if seat == hand["maker"] and action == "bid:" + hand["contract"]]
        return not chosen or "pass" not in chosen[-1]
    making = [legal for seat, action, legal in choices if seat == hand["maker"] and action != "pass"
              and ("order" in legal or any(a.startswith("call:") for a in legal))]
    return bool(making) and "pass" not in making[0]


def _recipients(table: dict[str, Any], hand: dict[str, Any], target: str) -> list[int]:
    groups = units(table)
    side = maker_side(table, hand)
    side_units = [u for u, g in enumerate(groups) if any(s in side for s in g)]
    if target == "makers":
        return side_units
    if target == "defenders":
        return [u for u in range(len(groups)) if hand["maker"] is not None and u not in side_units]
    if target == "maker":
        return [u for u, g in enumerate(groups) if hand["maker"] in g]
    if target == "partner":
        return [u for u, g in enumerate(groups) if hand.get("partner") is not None and hand["partner"] in g]
    if target == "in-hand":
        return [u for u, g in enumerate(groups) if any(s not in hand["sitting_out"] for s in g)]
    return list(range(len(groups)))


def hand_points(table: dict[str, Any], hand: dict[str, Any], scores_before: list[int]) -> tuple[str, list[int]]:
    """Score a hand from the table's rows: the first enabled row whose conditions hold.

    ``hand`` holds the observable facts: maker, partner, alone, defender_alone, contract,
    trump, tricks (with winners), tricks_won, sitting_out."""
    groups = units(table)
    value = _bid(table, hand["contract"]).get("value", 0) if hand["contract"] else 0
    bid_tricks = _bid(table, hand["contract"]).get("tricks", 0) if hand["contract"] else 0
    for row in table["scoring"]["rows"]:
        if not row.get("enabled", True) or not holds(table, hand, row["when"]):
            continue
        points = [0] * len(groups)
        for award in row["award"]:
            for unit in _recipients(table, hand, award["to"]):
                if "when" in award and not holds(table, hand, award["when"], groups[unit]):
                    continue
                amount = award.get("points", 0)
                if isinstance(amount, int):
                    gained = amount
                else:
                    gained = amount.get("fixed", 0) + amount.get("contract-value", 0) * value \
                        + amount.get("bid-tricks", 0) * bid_tricks \
                        + amount.get("per-trick", 0) * sum(hand["tricks_won"][s] for s in groups[unit])
                    if "at-least" in amount:
                        gained = max(gained, amount["at-least"])
                    if "total-at-most" in amount:
                        room = amount["total-at-most"] - (scores_before[unit] + points[unit])
                        gained = max(0, min(gained, room))
                points[unit] += gained
        return row["id"], points
    raise AssertionError(f"no row matches the hand {hand}")


def count(table: dict[str, Any], hand: dict[str, Any], counters: dict[str, list[int]], points: list[int]) -> None:
    """Add what the hand earned to each counter (in place), and turn full counters into the
    points they make (added to ``points``)."""
    groups = units(table)
    for counter in table.get("counters", []):
        values = counters[counter["id"]]
        per_player = counter["per"] == "player"
        for rule in counter["count"]:
            for unit in _recipients(table, hand, rule["to"]):
                whos = [s for s in groups[unit] if rule["to"] != "maker" or s == hand["maker"]] if per_player else [unit]
                for who in whos:
                    self_unit = [who] if per_player else groups[unit]
                    if "when" not in rule or holds(table, hand, rule["when"], self_unit):
                        values[who] += rule.get("add", 1)
        convert = counter.get("convert")
        if convert:
            for who in range(len(values)):
                while values[who] >= convert["every"]:
                    values[who] -= convert["every"]
                    unit = next(u for u, g in enumerate(groups) if who in g) if per_player else who
                    points[unit] += convert["points"]
