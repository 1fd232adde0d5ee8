"""A resolved rule table (shape 2) in words, for players: the condition language, seat
references, the hand's steps, scoring rows and awards, counters and the end of the game.

Everything is read from the table; nothing here knows a variant by name. A value these
functions have no words for is shown as it is (in code), never dropped, so a field added to
the schema later still shows.
"""

from __future__ import annotations

from typing import Any, Mapping

from reference_impl.cards import SUIT_NAMES, pack_cards
from reference_impl.conditions import round_number

from .notation import Notation, amount, in_halves, number_word, plural, points_amount, rank_text

BIDDING_KINDS = ("name", "make-trumps", "auction", "force-bid", "set-trumps", "throw-in")


def code(value: Any) -> str:
    from html import escape
    return f"<code>{escape(str(value))}</code>"


def cap(text: str) -> str:
    """The text with its first letter a capital (HTML tags skipped)."""
    i = 0
    while i < len(text) and text[i] == "<":
        i = text.find(">", i) + 1 or len(text)
    return text[:i] + text[i:i + 1].upper() + text[i + 1:]


def join(parts: list[str], word: str = "and") -> str:
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {word} " + parts[-1]


# -- the pack -------------------------------------------------------------------------------

def pack(table: Mapping[str, Any]) -> list[str]:
    """Every card of the pack, each copy of a doubled pack counted (``cards.pack_cards``)."""
    deck = table["deck"]
    return pack_cards({"suits": deck.get("suits", []), "ranks": deck.get("ranks", []), **{
        key: deck[key] for key in ("extra", "without", "copies") if key in deck}})


def hand_size(table: Mapping[str, Any]) -> int:
    return sum(p["count"] for p in table["deal"].get("packets", []) if p.get("to") == "players")


def widow_size(table: Mapping[str, Any]) -> int:
    return sum(p["count"] for p in table["deal"].get("packets", []) if p.get("to") == "widow")


def kitty_size(table: Mapping[str, Any]) -> int:
    return (len(pack(table)) - table["players"]["count"] * hand_size(table) - widow_size(table)
            - (1 if table["deal"].get("upcard") else 0))


def ranks_words(ranks: list[str]) -> str:
    """``9, 10, J, Q, K, A``: a suit's ranks, lowest first."""
    return " ".join(rank_text(r) for r in ranks)


def pack_words(table: Mapping[str, Any], words: Notation) -> str:
    deck = table["deck"]
    ranks, suits, extra = deck.get("ranks", []), deck.get("suits", []), deck.get("extra", [])
    text = f"{len(pack(table))} cards: {ranks_words(ranks)} in each of the {number_word(len(suits))} suits"
    if deck.get("without"):
        text += " but " + join([words.card(card) for card in deck["without"]], "and")
    if extra:
        parts = []
        for card in extra:
            if card == words.benny_card:
                parts.append(f"{words.card(card)} ({words.benny})")
            else:
                parts.append(words.card(card))
        text += ", and " + join(parts)
    copies = deck.get("copies", 1)
    if copies > 1:
        later = "last" if table.get("ranking", {}).get("equal-cards") == "last-played" else "first"
        text += (f", every card {'twice' if copies == 2 else f'{number_word(copies)} times'} (of two identical cards in"
                 f" one trick the one played {later} ranks higher)")
    return text


def play_rules_words(step: Mapping[str, Any]) -> str:
    """What a player must play, in words: follow suit, and the play step's ``must`` rules."""
    must = step.get("must") or []
    text = "Each player must follow the suit led if he can"
    if "head" in must:
        text += " and, following, beat the best card in the trick if he can"
    if "trump" in must:
        text += "; a player who cannot follow must trump if he can"
    if "overtrump" in must:
        text += (", overtrumping a trick already trumped if he can" if "trump" in must
                 else "; a player who trumps a trick already trumped must overtrump it if he can")
    if step.get("may-trump") == "always":
        text += ", or trump instead if he likes"
    privileged = step.get("privileged-trumps")
    if privileged:
        text += (f"; to a trump led, the {number_word(privileged)} highest trumps need not be played to a lower trump:"
                 " a player whose only trumps are among them, each higher than the card led, may play any card")
    frees = step.get("partner-winning-frees") or []
    if frees:
        named = {"head": "head the trick", "trump": "trump", "overtrump": "overtrump"}
        text += f" (a player whose partner is winning the trick need not {join([named[r] for r in frees], 'or')})"
    return text


def kitty_used(table: Mapping[str, Any]) -> bool:
    """Whether a step of the hand draws on the undealt cards (a stock for exchanges, a kitty
    taken up): then the kitty is not "not used"."""
    import json
    for step in table.get("hand") or []:
        if step.get("kind") == "propose":
            return True
        text = json.dumps(step)
        if '"kitty"' in text or '"stock"' in text:
            return True
    return False


def deal_words(table: Mapping[str, Any], words: Notation) -> str:
    deal = table["deal"]
    packets = [p["count"] for p in deal.get("packets", []) if p.get("to") == "players"]
    text = f"{plural(hand_size(table), 'card')} each, dealt clockwise from the dealer's left (the eldest hand)"
    if len(packets) > 1:
        text += " in packets of " + join([str(p) for p in packets], "then")
    widow = widow_size(table)
    if widow:
        text += f"; {plural(widow, 'card')} face down to the {words.widow}"
    if deal.get("upcard"):
        text += "; the next card is turned face up (the upcard)"
    kitty = kitty_size(table)
    if kitty > 0 and kitty_used(table):
        text += f"; the other {plural(kitty, 'card')} are the stock, drawn from in exchanges"
    elif kitty > 0:
        text += f"; the other {plural(kitty, 'card')} (the kitty) are not used"
    return text


# -- seat references and conditions -------------------------------------------------------

def seat_ref(ref: Any, words: Notation) -> str:
    if isinstance(ref, str) and ref.startswith("holder:"):
        return "the holder of " + words.card(ref.split(":", 1)[1])
    return {"dealer": "the dealer", "eldest": "the eldest hand", "maker": words.maker,
            "maker-left": f"the player on {possessive(words.maker)} left", "dealer-partner": "the dealer's partner",
            "maker-partner": f"{possessive(words.maker)} partner", "defender-alone": "the lone defender"}.get(str(ref), code(ref))


def possessive(noun: str) -> str:
    return noun + ("'" if noun.endswith("s") else "'s")


QUEUE = {"defenders": "each opponent of the maker", "maker-partners": "each of the maker's partners",
         "others": "each player but the maker", "everyone": "each player"}


def queue_words(spec: Any, words: Notation) -> str:
    if isinstance(spec, dict):
        group = QUEUE.get(spec.get("seats"), code(spec.get("seats")))
        return f"{group} in turn, from {seat_ref(spec.get('from'), words)}"
    return seat_ref(spec, words)


TIMES = {2: "twice", 3: "three times"}     # how many rounds an auction goes, in words


def give_words(step: Mapping[str, Any], words: Notation) -> str:
    """A give step in the players' words: how many cards, whether the giver may decline, and
    whether the loner discards before or after taking them."""
    loner = f"a lone {words.maker.removeprefix('the ')}"
    count = step.get("give-count", 1)
    if count == 1 and step.get("give-order") != "discard-first":
        if step.get("giver-may-pass", True):
            return f"the partner of {loner} may pass one card face down to the loner."
        take = "" if step.get("receiver-may-refuse", True) else ", which he must take"
        return f"the partner of {loner} must pass him one card face down{take}; the loner then discards one card."
    cards = plural(count, "card")
    if step.get("give-order") == "discard-first":
        return (f"{loner} first discards {cards}; then his partner passes him {cards} face down, one at a time,"
                " which he keeps.")
    return (f"the partner of {loner} passes him {cards} face down, one at a time, which he must take; the loner then"
            f" discards {cards} (he may discard a card he was given).")


SIDE_GROUP = {"defenders": "the maker's opponents", "maker-partners": "the maker's partners",
              "others": "the players other than the maker", "everyone": "the players"}


def side_decision_words(step: Mapping[str, Any], words: Notation, what: str) -> str:
    """An offer decided once for a side (``decision``), or a concession, in the players' words:
    who answers, and whether one answer binds the side."""
    spec = step.get("to")
    decision = step.get("decision", "each-seat")
    if not isinstance(spec, dict):
        return f"{seat_ref(spec, words)} may choose {what}."
    group = SIDE_GROUP.get(spec.get("seats"), code(spec.get("seats")))
    start = seat_ref(spec.get("from"), words)
    if decision == "first-seat":
        return f"of {group}, the first from {start} answers for his side, which may choose {what}."
    if decision == "unanimous":
        return (f"{group} are asked in turn, from {start}, whether {what.removeprefix('to ')}; the side does so only if"
                " every one of them agrees, and the first to refuse settles it for the side.")
    return f"{group} in turn, from {start}, may each choose {what}."


def tricks_range(value: Any, table: Mapping[str, Any]) -> str:
    total = hand_size(table)
    if isinstance(value, list) and len(value) == 2:
        low, high = value
        if low == high:
            return tricks_range(low, table)
        if low == 0 and high < total:
            return f"fewer than {high + 1}"
        if high >= total:
            return f"{low} or more"
        return f"{low} or {high}" if high == low + 1 else f"{low} to {high}"
    if value == total:
        return f"all {value}"
    if value == 0:
        return "no"
    return str(value)


def card_set_words(spec: Mapping[str, Any], words: Notation) -> str:
    parts = []
    if spec.get("ranks"):
        parts.append(join([RANK_PLURALS.get(r, rank_text(r) + "s") for r in spec["ranks"]], "or"))
    if spec.get("suits"):
        parts.append(join([SUIT_NAMES.get(s, s) for s in spec["suits"]], "or"))
    if spec.get("cards"):
        parts.append(join([words.card(c) for c in spec["cards"]], "or"))
    if spec.get("trumps"):
        parts.append("trumps")
    return " of ".join(parts) if parts else "cards"


SUIT_SINGULAR = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}


def one_card_words(spec: Mapping[str, Any], words: Notation) -> str:
    """One card of a card set: ``a club``, ``a nine or a ten``, ``the ace of hearts``."""
    parts = []
    if spec.get("ranks"):
        parts.append(join([("an " if r in ("A", "8") else "a ") + RANK_NAMES_SHORT.get(r, rank_text(r)) for r in spec["ranks"]], "or"))
    if spec.get("suits"):
        suits = join([SUIT_SINGULAR.get(s, s) for s in spec["suits"]], "or")
        parts.append(f"of {SUIT_NAMES.get(spec['suits'][0], '')}" if parts and len(spec["suits"]) == 1 else
                     ("a " + suits) if not parts else f"({suits})")
    if spec.get("cards"):
        parts.append(join([words.card(c) for c in spec["cards"]], "or"))
    return " ".join(parts) if parts else "any card"


RANK_NAMES_SHORT = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine",
                    "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
RANK_PLURALS = {"9": "nines", "T": "tens", "8": "eights", "7": "sevens", "J": "jacks", "Q": "queens", "K": "kings",
                "A": "aces", "2": "twos"}


def strain_words(strain: Any, words: Notation) -> str:
    if isinstance(strain, list):
        return join([strain_words(s, words) for s in strain], "or")
    if strain == "none":
        return "none"
    if strain == "upcard":
        return "the suit of the card turned up"
    return words.strain(str(strain))


def condition_words(cond: Mapping[str, Any] | None, table: Mapping[str, Any], words: Notation) -> str:
    """A condition of the table's condition language in words (every atom must hold)."""
    if not cond:
        return ""
    parts: list[str] = []
    maker = words.maker
    for key, value in cond.items():
        if key == "round":
            parts.append(f"trumps were made in round {round_number(table, value)}")
        elif key == "upcard":
            parts.append(f"the upcard is {words.benny}" if value == "benny" else "the upcard is " + one_card_words(value, words))
        elif key == "trump":
            parts.append("no trumps have been made" if value == "none" else f"trumps are {strain_words(value, words)}")
        elif key == "maker":
            parts.append({"dealer": "the dealer made trumps", "not-dealer": "someone other than the dealer made trumps",
                          "dealer-partner": "the dealer's partner made trumps", "eldest": "the eldest hand made trumps",
                          "none": "no one made trumps"}.get(value, f"maker {code(value)}"))
        elif key == "alone":
            parts.append(f"{maker} plays alone" if value else f"{maker} does not play alone")
        elif key == "defender-alone":
            parts.append("an opponent defends alone" if value else "no one defends alone")
        elif key == "partner":
            parts.append(f"{maker} has a called partner" if value == "called" else f"{maker} has no partner")
        elif key == "contract":
            parts.append("no one bid" if value == "none" else "someone made trumps")
        elif key == "bid":
            parts.append("the bid is " + join([words.bid_html(b) for b in value], "or"))
        elif key == "made":
            parts.append("the makers make their contract" if value else "the makers fail")
        elif key == "maker-tricks":
            parts.append(f"the makers take {tricks_range(value, table)} tricks")
        elif key == "defender-tricks":
            parts.append(f"the defenders take {tricks_range(value, table)} tricks")
        elif key == "trick-sequence":
            parts.append(sequence_words(str(value)))
        elif key == "hand-number":
            parts.append(f"it is deal {tricks_range(value, {'deal': {'packets': []}})}")
        elif key == "self":
            parts.append({"dealer": "that player is the dealer", "maker": f"that player is {maker}",
                          "not-maker": f"that player is not {maker}", "dealer-partner": "that player is the dealer's partner",
                          "eldest": "that player is the eldest hand", "maker-side": "that side made trumps",
                          "defender": "that side defends"}.get(value, f"self {code(value)}"))
        elif key == "self-tricks":
            parts.append(f"it takes {tricks_range(value, table)} tricks")
        elif key == "self-in-hand":
            parts.append("it took part in the hand" if value else "it sat out the hand")
        elif key == "stood":
            parts.append({"self": "that player stood (played without an exchange of his choosing)",
                          "other": "the other player stood (played without an exchange of his choosing)",
                          "nobody": "no one stood (cards were exchanged)"}.get(value, code(value)))
        elif key == "reneged":
            parts.append("an opponent of that player reneged and has not been claimed against")
        elif key == "conceded":
            parts.append({"makers": "the makers conceded the hand", "defenders": "the defenders conceded the hand (folded)",
                          "none": "the hand was played out (no side conceded)"}.get(value, code(value)))
        elif key == "forced-contract":
            parts.append("the contract was forced (its maker could not pass)" if value
                         else "the contract was bid freely (not forced)")
        elif key == "renege-claimed":
            parts.append({"makers": "a renege was claimed against the makers", "defenders":
                          "a renege was claimed against the defenders", "both": "reneges were claimed against both sides",
                          "none": "no renege was claimed"}.get(value, code(value)))
        elif key == "holds":
            parts.append(holds_words(value, words))
        elif key == "counter":
            parts.append(f"its {code(value.get('id'))} count is at least {value.get('at-least', 1)}")
        elif key == "score":
            bounds = []
            if "at-least" in value:
                bounds.append(f"at least {value['at-least']}")
            if "at-most" in value:
                bounds.append(f"at most {value['at-most']}")
            parts.append("its score is " + join(bounds))
        elif key == "any":
            parts.append("either " + join([condition_words(c, table, words) for c in value], "or"))
        elif key == "all":
            parts.append(join([condition_words(c, table, words) for c in value]))
        elif key == "not":
            parts.append(f"it is not so that {condition_words(value, table, words)}")
        else:
            parts.append(f"{code(key)} is {code(value)}")
    return join(parts)


def holds_words(spec: Mapping[str, Any], words: Notation) -> str:
    cards = card_set_words(spec.get("of") or {}, words)
    if spec.get("only"):
        return f"that player holds nothing but {cards}"
    if spec.get("at-most") == 0 and not spec.get("at-least"):
        return f"that player holds no {cards}"
    if spec.get("at-least") == 1 and "at-most" not in spec:
        return f"that player holds {one_card_words(spec.get('of') or {}, words)}"
    bounds = []
    if "at-least" in spec:
        bounds.append(f"at least {spec['at-least']}")
    if "at-most" in spec:
        bounds.append(f"at most {spec['at-most']}")
    return f"that player holds {join(bounds)} {cards}"


def sequence_words(sequence: str) -> str:
    """``DDMMM``: the defenders take the first two tricks and the makers the last three."""
    runs: list[tuple[str, int]] = []
    for char in sequence:
        if runs and runs[-1][0] == char:
            runs[-1] = (char, runs[-1][1] + 1)
        else:
            runs.append((char, 1))
    who = {"M": "the makers", "D": "the defenders", ".": "either side"}
    parts = []
    for i, (char, count) in enumerate(runs):
        where = "first" if i == 0 else "last" if i == len(runs) - 1 else "next"
        parts.append(f"{who.get(char, char)} take the {where} {number_word(count) if count > 1 else ''}"
                     f"{' tricks' if count > 1 else 'trick'}".replace("  ", " "))
    return join(parts)


# -- points and awards ------------------------------------------------------------------------

def points_words(points: Any, *, short: bool = False, half: bool = False) -> str:
    """A number of points or a `points` expression in words; ``half``: the table counts half
    points (``scoring.unit: half``), and the words say points (``{bid-tricks: 1}`` is half the
    tricks bid)."""
    if isinstance(points, int):
        return amount(points, half) if short else points_amount(points, half)
    if not isinstance(points, dict):
        return code(points)
    terms = []
    if points.get("fixed"):
        terms.append(amount(points["fixed"], half))
    for key, noun, brief in (("contract-value", "the bid's value", "bid"), ("bid-tricks", "the tricks bid", "bid")):
        factor = points.get(key)
        if factor:
            if half:
                terms.append(_half_factor(factor, noun, brief, short))
            elif short:
                terms.append({1: "bid", -1: "−bid"}.get(factor, f"{factor}×bid"))
            else:
                terms.append({1: noun, -1: "minus " + noun}.get(factor, f"{factor} × {noun}"))
    if points.get("per-trick"):
        each = amount(points["per-trick"], half)
        terms.append(f"{each}/trick" if short else f"{each} a trick taken")
    text = " + ".join(terms) or "0"
    if "at-least" in points:
        least = amount(points["at-least"], half)
        text += f" (≥ {least})" if short else f", at least {least}"
    if "total-at-most" in points:
        most = amount(points["total-at-most"], half)
        text += f" (up to {most})" if short else f", stopping at a total of {most}"
    return text


def _half_factor(factor: int, noun: str, brief: str, short: bool) -> str:
    """A factor of a bid counted in half points: 1 is half of it, 2 all of it, -2 minus it."""
    if short:
        return {1: f"½×{brief}", -1: f"−½×{brief}", 2: brief, -2: f"−{brief}"}.get(factor, f"{amount(factor, True)}×{brief}")
    return {1: f"half {noun}", -1: f"minus half {noun}", 2: noun, -2: f"minus {noun}"}.get(
        factor, f"{amount(factor, True)} × {noun}")


def award_target(to: str, words: Notation, table: Mapping[str, Any]) -> str:
    team = words.team_game
    others = {2: "the other player", 3: "each of the other two"}.get(words.n, "each defender")
    return {"makers": "the makers" if team or table["players"].get("sides") != "maker-against-rest" else words.maker,
            "defenders": "the defenders" if team else others,
            "maker": words.maker, "partner": "the called partner",
            "everyone": "each side" if team else "each player",
            "in-hand": "each player in the hand"}.get(to, code(to))


def awards_words(awards: list[dict[str, Any]], table: Mapping[str, Any], words: Notation, *, short: bool = False) -> str:
    """A scoring row's awards as a sentence: who scores what, and when (``the makers score 1
    point``; in a game counted down, ``each player in the hand takes 1 point off for each
    trick taken, and has 5 points added if he takes no tricks``)."""
    if not awards:
        return "nothing" if short else "no one scores"
    if short:
        return "; ".join(f"{points_words(a.get('points', 0), short=True, half=in_halves(table))} to {award_target(a.get('to'), words, table)}"
                         for a in awards)
    down = (table.get("game") or {}).get("direction") == "down"
    by_who: dict[str, list[str]] = {}
    for award in awards:
        who = award_target(award.get("to"), words, table)
        text = score_phrase(award.get("points", 0), down, plural_subject=who in ("the makers", "the defenders"),
                            half=in_halves(table))
        if award.get("when"):
            text += " if " + he_words(condition_words(award["when"], table, words))
        by_who.setdefault(who, []).append(text)
    return "; ".join(f"{who} " + ", and ".join(parts) for who, parts in by_who.items())


def score_phrase(points: Any, down: bool, *, plural_subject: bool = False, half: bool = False) -> str:
    """What a recipient does with some points: ``scores 2 points``, ``loses the bid's value``,
    ``takes 1 point off for each trick taken`` (a game counted down to 0); ``half``: the table
    counts half points."""
    verb = (lambda one, many: many if plural_subject else one)
    if isinstance(points, int):
        if down:
            return (f"{verb('has', 'have')} {points_amount(points, half)} added" if points >= 0
                    else f"{verb('takes', 'take')} {points_amount(-points, half)} off")
        return (f"{verb('scores', 'score')} {points_amount(points, half)}" if points >= 0
                else f"{verb('loses', 'lose')} {points_amount(-points, half)}")
    if isinstance(points, dict) and set(points) == {"per-trick"} and isinstance(points["per-trick"], int):
        n = points["per-trick"]
        if down and n < 0:
            return f"{verb('takes', 'take')} {points_amount(-n, half)} off for each trick taken"
        return f"{verb('scores', 'score')} {amount(n, half)} for each trick taken"
    if isinstance(points, dict) and points.get("contract-value") == (-2 if half else -1) and len(points) == 1:
        return f"{verb('loses', 'lose')} the bid's value"
    return f"{verb('scores', 'score')} {points_words(points, half=half)}"


def he_words(condition: str) -> str:
    """A condition about the recipient said of a player: ``it takes no tricks`` -> ``he takes no tricks``."""
    for old, new in (("it takes", "he takes"), ("that player is", "he is"), ("it took part", "he took part"),
                     ("it sat out", "he sat out")):
        condition = condition.replace(old, new)
    return condition


# -- the steps of a hand ---------------------------------------------------------------------

def merged_takes(takes: list[Mapping[str, Any]]) -> list[tuple[Any, Any, dict[str, Any], dict[str, Any] | None]]:
    """An exchange's takes, those by the same player from the same place said once.

    Two takes that differ in one condition only, between them covering it (Two-handed
    Euchre: the dealer takes the upcard in round 1 when he made trumps, and may decline
    when the other player did), read as one: (who, source, the conditions they share, the
    condition under which the player may decline, ``{}`` always, None never)."""
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for take in takes:
        groups.setdefault((repr(take.get("who")), repr(take.get("from"))), []).append(take)
    out = []
    for members in groups.values():
        whens = [dict(m.get("when") or {}) for m in members]
        common = {k: v for k, v in whens[0].items() if all(w.get(k) == v for w in whens[1:])}
        differing = {k for w in whens for k in w if k not in common}
        if len(members) > 1 and len(differing) == 1:
            optional = [w for m, w in zip(members, whens) if m.get("optional")]
            declines = None if not optional else {} if len(optional) == len(members) else \
                {k: v for k, v in optional[0].items() if k in differing}
            out.append((members[0].get("who"), members[0].get("from"), common, declines))
            continue
        for member, when in zip(members, whens):
            out.append((member.get("who"), member.get("from"), when, {} if member.get("optional") else None))
    return out



def exchange_source(source: str, words: Notation) -> str:
    return {"upcard": "the upcard", "widow": f"the {words.widow}"}.get(source, code(source))


def step_words(step: Mapping[str, Any], table: Mapping[str, Any], words: Notation) -> str:
    """One step of the hand in a sentence (the summary's words; the clauses say it in full)."""
    return cap(_step_words(step, table, words))


def _step_words(step: Mapping[str, Any], table: Mapping[str, Any], words: Notation) -> str:
    kind = step.get("kind")
    when = condition_words(step.get("when"), table, words)
    prefix = f"If {when}, " if when else ""
    steps = table.get("hand") or []
    position = next((i for i, s in enumerate(steps) if s is step or s.get("id") == step.get("id")), len(steps))
    bidding_before = any(s.get("kind") in ("make-trumps", "auction", "force-bid") for s in steps[:position])
    auction_before = any(s.get("kind") == "auction" for s in steps[:position])
    nobody = ("if no one bids, " if auction_before else "if no one made trumps, ") if bidding_before else ""
    if kind == "name":
        effect = step.get("effect")
        what = {"proposal": "a suit that stands for the upcard's suit", "trumps": "trumps",
                "partner": "a suit: whoever holds its ace (its highest card, if it is trumps) is the maker's partner, "
                           "known when that card is played"}.get(effect, code(effect))
        names = step.get("names") or []
        extra = " or no-trumps" if "NT" in names else ""
        return f"{prefix}{seat_ref(step.get('who'), words)} names {what}{extra}."
    if kind == "make-trumps":
        rounds = [s for s in steps if s.get("kind") == "make-trumps"]
        number = next((i for i, s in enumerate(rounds, 1) if s is step or s.get("id") == step.get("id")), 1)
        if len(rounds) > 1:
            prefix = f"Round {number}" + (", if all passed" if number > 1 else "") + ": " + (prefix[:1].lower() + prefix[1:])
        first = seat_ref(step.get("from"), words)
        if step.get("action") == "order":
            text = f"{prefix}each player in turn from {first} may accept the upcard's suit as trumps or pass"
        else:
            which = "another suit" if step.get("turned-down") == "forbidden" else "any suit"
            text = f"{prefix}each player in turn from {first} may name {which}" + (" or no-trumps" if step.get("no-trump") else "") + " as trumps, or pass"
        if step.get("stuck"):
            text += f"; {seat_ref(step['stuck'], words)} may not pass"
        return cap(text + ".")
    if kind == "auction":
        bids = [b for b in step.get("bids") or [] if b.get("enabled", True)]
        tricks = sorted({b["tricks"] for b in bids if "tricks" in b})
        span = f"{tricks[0]} to {tricks[-1]} tricks" if len(tricks) > 1 else (plural(tricks[0], "trick") if tricks else "a contract")
        strains = {b.get("strain") for b in bids}
        kinds = "in a suit or no-trumps" if "NT" in strains and strains - {"NT", None} else "in a suit" if strains - {None} else ""
        rounds = step.get("rounds")
        turns = ("once each" if step.get("turns") == "once"
                 else "round and round until all but one have passed" if not rounds
                 else "once each" if rounds == 1
                 else f"at most {TIMES.get(rounds, f'{rounds} times')} round (a player who passed is out), ending"
                      " when all but one have passed or the last round ends")
        stuck = (f" If every other player has passed, {seat_ref(step['stuck'], words)} may not pass and must bid"
                 + (f" {words.bid_html(str(step['stuck-from']))} or more" if step.get("stuck-from") else "") + "."
                 if step.get("stuck") else "")
        return (f"{prefix}An auction from {seat_ref(step.get('from'), words)}, {turns}: each bids {span}"
                + (f" {kinds}" if kinds else "") + f", higher than the last bid, or passes; the highest bidder becomes {words.maker}."
                + stuck)
    if kind == "force-bid":
        who = seat_ref(step.get('who'), words)
        return f"{prefix}{'if no one bids, ' if bidding_before else ''}{who} is given the bid {words.bid_html(str(step.get('bid')))}."
    if kind == "set-trumps":
        return (f"{prefix}{nobody}the hand is played at {strain_words(step.get('trumps'), words)}"
                + (f", with no {words.maker.removeprefix('the ')}." if bidding_before else "."))
    if kind == "throw-in":
        return (f"{prefix}{nobody}the cards are thrown in and "
                + ("the same dealer deals again." if step.get("next-dealer") == "same" else "the deal passes to the left."))
    if kind == "offer":
        effect = step.get("effect")
        partner = " (the partner sits out)" if words.team_game else ""
        what = {"alone": f"to play alone{partner}", "defend-alone": f"to defend alone{partner}",
                "sit-out": "to drop out of the hand", "swap-with-kitty": "to swap cards with the kitty",
                "score": f"to declare it and score {plural(step.get('points', 0), 'point')} at once",
                "misdeal": "to call a misdeal (the hand is dealt again)",
                "claim-renege": "to claim a renege",
                "concede": "to concede the hand (to fold): it ends at once, unplayed, and is scored"}.get(effect, code(effect))
        if effect == "concede" or step.get("decision") in ("first-seat", "unanimous"):
            return cap(prefix + side_decision_words(step, words, what))
        if effect in ("score", "misdeal", "claim-renege"):    # declarations, misdeals, claims: say who may
            who = queue_words(step.get("to"), words)
            when = condition_words(step["eligible"], table, words) if step.get("eligible") else ""
            if step.get("forced"):
                done = {"score": f"scores {plural(step.get('points', 0), 'point')} at once",
                        "misdeal": "calls a misdeal", "claim-renege": "claims a renege"}[effect]
                return cap(f"{prefix}if {condition_words(step['forced'], table, words)}, {who} {done}.")
            return cap(f"{prefix}{who}" + (f", where {when}," if when else "") + f" may choose {what}.")
        return cap(f"{prefix}{queue_words(step.get('to'), words)} may choose {what}.")
    if kind == "exchange":
        parts = []
        for who, source, common, declines in merged_takes(step.get("takes") or []):
            text = f"{seat_ref(who, words)} takes {exchange_source(source, words)}"
            if common:
                text += f" if {condition_words(common, table, words)}"
            if declines == {}:
                text += " (and may decline)"
            elif declines:
                text += f" (and may decline when {condition_words(declines, table, words)})"
            parts.append(text)
        listed = "; ".join(parts[:-1]) + "; and " + parts[-1] if len(parts) > 1 else "".join(parts)
        return prefix + (listed or "no one takes cards") + ", then discards as many cards as were taken."
    if kind == "give":
        return prefix + give_words(step, words)
    if kind == "play":
        text = f"{prefix}the tricks are played, {lead_words(step, table, words)}."
        if step.get("trumps-by") == "first-lead":
            text += " If no trumps were made before the play, the suit of the first card led is trumps."
        if step.get("all-sit-out") or any(s.get("kind") == "offer" and s.get("effect") == "sit-out" and isinstance(
                s.get("to"), dict) and s["to"].get("seats") == "everyone" for s in table.get("hand") or []):
            again = "the same dealer" if step.get("all-sit-out") == "void-same-dealer" else "the next dealer"
            text += f" If every player has dropped out, the hand is void: nothing is scored and {again} deals again."
        return text
    if kind == "propose":
        proposer, responder = seat_ref(step.get("proposer"), words), seat_ref(step.get("responder"), words)
        least = (step.get("exchange") or {}).get("proposer-at-least")
        return (f"{prefix}{proposer} may propose an exchange of cards; if {responder} accepts, each discards "
                + (f"(the proposer at least {plural(least, 'card')}) " if least else "")
                + "and draws as many from the stock, again while the stock lasts; if not, the hand is played as dealt.")
    return f"{prefix}{kind.replace('-', ' ')}."


def lead_words(step: Mapping[str, Any], table: Mapping[str, Any], words: Notation) -> str:
    rules = step.get("lead") or []
    parts = []
    for rule in rules:
        who = seat_ref(rule.get("seat"), words)
        if rule.get("when"):
            parts.append(f"{who} leading if {condition_words(rule['when'], table, words)}")
        else:
            parts.append(f"{who} leading" + (" otherwise" if parts else ""))
    return join(parts, "and") or "the eldest hand leading"


# -- the end of the game ---------------------------------------------------------------------

def game_words(table: Mapping[str, Any], words: Notation) -> str:
    game = table["game"]
    who = "side" if words.team_game else "player"
    target = game.get("target", 0)
    down = game.get("direction") == "down"
    half = in_halves(table)
    parts = []
    if target or down:
        if down:
            parts.append(f"each {who} starts at {amount(game.get('start-score', 0), half)} and counts down; the first to"
                         f" reach {amount(target, half)} wins")
        else:
            parts.append(f"the first {who} to reach {points_amount(target, half)} wins")
    if game.get("deals"):
        parts.append(f"after {plural(game['deals'], 'deal')} the highest score wins")
    if game.get("lose-at") is not None:
        parts.append(f"a {who} at {amount(game['lose-at'], half)} or below loses at once")
    if half:
        parts.append("scores are kept in half points")
    if game.get("win-requires"):
        parts.append(f"a {who} wins only at the end of a hand in which {condition_words(game['win-requires'], table, words)}")
    return cap("; ".join(parts) or "the game has no end")


# -- the object of the game -------------------------------------------------------------------

def contract_words(table: Mapping[str, Any], words: Notation) -> str:
    """What the makers must do, in a phrase: ``take at least 3 of the 5 tricks``."""
    total = hand_size(table)
    steps = table.get("hand") or []
    auction = next((s for s in steps if s.get("kind") == "auction"), None)
    need = table["scoring"].get("makers-need")
    if auction is not None:
        return "take at least the number of tricks bid"
    if need:
        return f"take at least {need} of the {total} tricks"
    return f"win tricks (there are {total} a hand)"


def object_words(table: Mapping[str, Any], words: Notation) -> str:
    """The object of the game, in two sentences."""
    players = table["players"]
    n = players["count"]
    sides = players.get("sides")
    steps = table.get("hand") or []
    auction = any(s.get("kind") == "auction" for s in steps)
    maker = words.maker.removeprefix("the ")
    if not any(s.get("kind") in ("make-trumps", "auction", "force-bid") or (s.get("kind") == "name" and s.get("effect") == "trumps")
               for s in steps):                       # trumps are set for the hand: no one contracts
        who = (f"{number_word(n).capitalize()} players" + (f" in {number_word(len(words.units))} teams" if words.team_game
                                                           else ", each scoring for himself,"))
        return (f"{who} play to win tricks. No one bids: trumps are fixed for each hand, and every trick counts for the "
                f"{'team' if words.team_game else 'player'} that takes it. " + game_words(table, words) + ".")
    if words.team_game:
        team_size = len(words.units[0])
        who = (f"{number_word(n).capitalize()} players in {number_word(len(words.units))} teams of {number_word(team_size)} "
               f"({join([words.unit(u) for u in range(len(words.units))], 'against')})")
        maker_side = "one team" if not auction else "the team of the highest bidder"
    else:
        who = f"{number_word(n).capitalize()} players, each scoring for himself,"
        rest = {2: "the other", 3: "the other two"}.get(words.n, "all the others")
        maker_side = {"maker-against-rest": f"one player, the {maker}, plays against {rest}",
                      "maker-and-called": f"the {maker} and a partner the {maker} calls play against the others",
                      "each-alone": f"the {maker} plays for a contract"}.get(sides, f"the {maker} plays for a contract")
        how = "wins the auction" if auction else "chooses trumps"
        first = (f"{who} play to win tricks. In each hand {maker_side}: the {maker}, who {how}, must "
                 f"{contract_words(table, words)}.")
        return first + " " + game_words(table, words) + "."
    how = "by bidding" if auction else "by choosing trumps"
    first = f"{who} play to win tricks. In each hand {maker_side} makes a contract {how} and must then {contract_words(table, words)}."
    return first + " " + game_words(table, words) + "."
