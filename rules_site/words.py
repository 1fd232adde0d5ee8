"""The rule table's sections in words and drawn tables, read field by field.

Each ``describe_*`` function takes a resolved table and returns Markdown lines; each
consumes the fields it knows and hands any other field to :func:`leftovers`, so a field
added to the schema later still shows (as a key and a value) rather than vanishing. The
short forms (``short_*``) feed the comparison matrix and the "at a glance" table.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from .notation import card_html, cards_html, colours_of, suit_html
from .links import code, md_cell, md_text
from .tables import compact

RANK_WORDS = {"T": "10", "JK": "joker"}
SIDES = {"partnerships": "fixed partnerships", "individual": "each for themselves",
         "bidder-vs-rest": "the maker against the rest"}


def rank_text(rank: str) -> str:
    return RANK_WORDS.get(rank, rank)


def schema_words(path: str, value: Any) -> str:
    """What the variant schema says a value of the field at ``path`` means, for values this
    module has no words of its own for: the schema describes enum values as "`value` (...)"
    or "`value`: ..."."""
    import re
    from reference_impl.catalog import load_schema
    node: Any = load_schema("variant.schema.json")
    for part in path.split("."):
        node = (node.get("properties") or {}).get(part, {}) if isinstance(node, dict) else {}
    description = node.get("description", "") if isinstance(node, dict) else ""
    token = re.escape(str(value).lower() if isinstance(value, bool) else str(value))
    match = re.search(rf"`{token}` \(([^)]*)\)", description) or re.search(rf"`{token}`: (.*?)(?:\.\s|\.$|$)", description)
    return md_text(match.group(1)) if match else code(value)


def leftovers(section: dict[str, Any], known: Iterable[str], prefix: str) -> list[str]:
    """Fields of a section that no describer knows, shown as they are."""
    rest = {k: v for k, v in section.items() if k not in set(known)}
    if not rest:
        return []
    return ["", "Other parameters: " + "; ".join(f"{code(prefix + '.' + k)} = {code(compact(v))}"
                                                 for k, v in rest.items()) + "."]


# -- the pack and the ranking --------------------------------------------------------------

def pack(table: dict[str, Any]) -> list[str]:
    deck = table["deck"]
    cards = [r + s for s in deck.get("suits", []) for r in deck.get("ranks", [])]
    return cards + [c for c in deck.get("extra", []) if c not in cards]


def same_colour_suit(table: dict[str, Any], trump: str) -> str | None:
    colours = colours_of(table)
    others = [s for s in table["deck"]["suits"] if s != trump and colours.get(s) == colours.get(trump)]
    return others[0] if others else None


def trump_order(table: dict[str, Any], trump: str) -> list[str]:
    """The trump suit's cards, highest first, for ``trump`` as trumps."""
    ranking = table["ranking"]
    in_pack = set(pack(table))
    out = []
    for item in ranking.get("trump", []):
        if item == "benny":
            card = ranking.get("benny")
        elif item == "right-bower":
            card = "J" + trump
        elif item == "left-bower":
            other = same_colour_suit(table, trump)
            card = "J" + other if other else None
        else:
            card = str(item) + trump
        if card and card in in_pack and card not in out:
            out.append(card)
    return out


def plain_order(table: dict[str, Any], suit: str, trump: str | None) -> list[str]:
    """A plain suit's cards, highest first, with trumps ``trump`` (cards that are trumps left out)."""
    taken = set(trump_order(table, trump)) if trump else set()
    in_pack = set(pack(table))
    return [r + suit for r in table["ranking"].get("plain", []) if r + suit in in_pack and r + suit not in taken]


def describe_players(table: dict[str, Any]) -> list[str]:
    players = table["players"]
    n = players["count"]
    sides = players.get("sides")
    if sides == "partnerships" and players.get("partnerships"):
        groups = [" & ".join(f"seat {s}" for s in p) for p in players["partnerships"]]
        text = f"{n} players in {len(groups)} fixed partnerships: " + " against ".join(groups) + "; scores are kept for each partnership."
    elif sides == "individual":
        text = f"{n} players, each playing for themselves; scores are kept for each player."
    elif sides == "bidder-vs-rest":
        text = (f"{n} players; in each hand the maker plays against all the others, who are partners for that hand "
                "only; scores are kept for each player.")
    else:
        text = f"{n} players ({md_text(str(sides))})."
    lines = [text + f" Seats are numbered {'0 and 1' if n == 2 else f'0 to {n - 1}'} clockwise; the deal, the bidding and the play go clockwise, "
                    "and the player on the dealer's left is the *eldest hand*."]
    return lines + leftovers(players, ("count", "sides", "partnerships"), "players")


def describe_deck(table: dict[str, Any]) -> list[str]:
    deck = table["deck"]
    colours = colours_of(table)
    suits, ranks, extra = deck.get("suits", []), deck.get("ranks", []), deck.get("extra", [])
    total = len(pack(table))
    lines = [f"**{total} cards**: {', '.join(rank_text(r) for r in ranks)} in each of the {len(suits)} suits"
             + (f", and {', '.join(card_html(c, colours) for c in extra)}" if extra else "") + ".", "",
             "| Suit | Colour | Cards |", "|---|---|---|"]
    for suit in suits:
        lines.append(f"| {suit_html(suit, colours, name=True)} | {colours.get(suit, '')} | "
                     f"{cards_html([r + suit for r in ranks], colours)} |")
    if extra:
        lines.append(f"| extra | | {cards_html(extra, colours)} |")
    return lines + leftovers(deck, ("suits", "ranks", "extra", "colours"), "deck")


def describe_ranking(table: dict[str, Any]) -> list[str]:
    ranking = table["ranking"]
    colours = colours_of(table)
    suits = table["deck"].get("suits", [])
    lines = []
    benny = ranking.get("benny")
    if benny:
        lines += [f"The Benny, {card_html(benny, colours)}, is the highest trump whatever suit is trumps.", ""]
    names = {"benny": "the Benny", "right-bower": "right bower (jack of trumps)",
             "left-bower": "left bower (the other jack of the same colour)"}
    lines += ["In the trump suit, highest first: " + ", ".join(names.get(str(i), rank_text(str(i))) for i in ranking.get("trump", []))
              + ". In a plain suit: " + ", ".join(rank_text(str(r)) for r in ranking.get("plain", [])) + ".", "",
              "| Trumps | The trump suit, highest first | The other suits, highest first |", "|---|---|---|"]
    for trump in suits:
        others = "<br>".join(cards_html(plain_order(table, s, trump), colours) for s in suits if s != trump)
        lines.append(f"| {suit_html(trump, colours, name=True)} | {cards_html(trump_order(table, trump), colours)} | {others} |")
    no_trump = ranking.get("no-trump")
    if no_trump:
        in_pack = set(pack(table))
        rows = "<br>".join(cards_html([r + s for r in no_trump.get("plain", []) if r + s in in_pack], colours) for s in suits)
        master = no_trump.get("master")
        lines.append(f"| {suit_html('NT', colours, name=True)} | "
                     f"{('master card ' + card_html(master, colours)) if master else 'none'} | {rows} |")
        if master:
            led = {"leader-names-suit": "when it is led, the leader names the suit it stands for"}.get(no_trump.get("master-led"), "")
            play = {"when-void": "it may be played to a suit lead only by a player void in that suit",
                    "any-time": "it may be played at any time"}.get(no_trump.get("master-play"), "")
            lines += ["", f"At no-trumps {card_html(master, colours)} belongs to no suit and beats every card"
                      + "".join(f"; {t}" for t in (led, play) if t) + "."]
        lines += leftovers(no_trump, ("plain", "master", "master-led", "master-play"), "ranking.no-trump")
    return lines + leftovers(ranking, ("benny", "trump", "plain", "no-trump"), "ranking")


# -- the deal ---------------------------------------------------------------------------------

def hand_size(table: dict[str, Any]) -> int:
    return sum(p["count"] for p in table["deal"].get("packets", []) if p.get("to") == "players")


def widow_size(table: dict[str, Any]) -> int:
    return sum(p["count"] for p in table["deal"].get("packets", []) if p.get("to") == "widow")


def kitty_size(table: dict[str, Any]) -> int:
    return len(pack(table)) - table["players"]["count"] * hand_size(table) - widow_size(table) - (1 if table["deal"].get("upcard") else 0)


def describe_deal(table: dict[str, Any]) -> list[str]:
    deal = table["deal"]
    widow = deal.get("widow-name", "widow")
    lines = ["The dealer deals from the top of the shuffled pack:", ""]
    for number, packet in enumerate(deal.get("packets", []), 1):
        if packet.get("to") == "players":
            lines.append(f"{number}. {packet['count']} card{'s' if packet['count'] != 1 else ''} to each player in turn, "
                         "from the dealer's left round to the dealer;")
        else:
            lines.append(f"{number}. {packet['count']} card{'s' if packet['count'] != 1 else ''} face down to the {widow};")
    step = len(deal.get("packets", [])) + 1
    if deal.get("upcard"):
        lines.append(f"{step}. the next card is turned face up: the **upcard**.")
    kitty = kitty_size(table)
    lines += ["", f"Each player holds **{hand_size(table)} cards**"
              + (f", the {widow} {widow_size(table)}" if widow_size(table) else "")
              + (f"; the remaining {kitty} cards (the *kitty*) take no part in the hand." if kitty > 0 else "; every card is dealt.")]
    return lines + leftovers(deal, ("packets", "upcard", "widow-name"), "deal")


# -- bidding ----------------------------------------------------------------------------------

ALL_PASS = {"redeal": "the hand is thrown in, with no score", "dealer-must-call": "the dealer may not pass and must name a suit (*stick the dealer*)",
            "play-no-trump": "the hand is played at no-trumps without a contract and without the widow, the eldest hand leading"}
NEXT_DEALER = {"left": "the deal passes to the left", "same": "the same dealer deals again"}


def bid_words(bid: dict[str, Any], colours: dict[str, str]) -> str:
    parts = []
    if "tricks" in bid:
        parts.append(f"at least {bid['tricks']} tricks")
    if "at-most" in bid:
        parts.append(f"at most {bid['at-most']} tricks")
    strain = suit_html(bid["strain"], colours, name=True) if bid.get("strain") else ""
    return ", ".join(parts) + (f" with {strain}" if strain and bid.get("strain") != "NT" else f" at {strain}" if strain else "")


def describe_bidding(table: dict[str, Any]) -> list[str]:
    bidding = table["bidding"]
    colours = colours_of(table)
    procedure = bidding.get("procedure")
    lines: list[str] = []
    if procedure == "upcard-rounds":
        p = bidding.get("upcard-rounds", {})
        second = p.get("second-round", {})
        all_pass = p.get("all-pass", {})
        suits_named = "another suit" if second.get("turned-down-suit") == "forbidden" else "any suit, the turned-down suit included"
        lines += ["Trumps are made in up to two rounds around the table, each starting with the eldest hand:", "",
                  "| Round | Each player in turn may | Action tokens |", "|---|---|---|",
                  "| 1 | pass, or accept the upcard's suit as trumps | `pass`, `order` |",
                  f"| 2 (the upcard is turned down) | pass, or name {suits_named}"
                  + (", or no-trumps" if second.get("no-trump") else "") + " | `pass`, `call:<suit>`"
                  + (", `call:NT`" if second.get("no-trump") else "") + " |", "",
                  "The first player to accept or name a suit becomes the **maker**. "
                  f"If everyone passes in round 2, {ALL_PASS.get(all_pass.get('then')) or schema_words('bidding.upcard-rounds.all-pass.then', all_pass.get('then'))}"
                  + (f", and {NEXT_DEALER[all_pass['next-dealer']]}" if all_pass.get("then") == "redeal" and all_pass.get("next-dealer") in NEXT_DEALER else "")
                  + "."]
        benny = p.get("benny-upcard")
        if benny and table["ranking"].get("benny"):
            what = {"dealer-names-suit": "the dealer first names a suit that stands for the upcard's suit (`name:<suit>`)",
                    "redeal": "the same dealer deals again"}.get(benny, md_text(benny))
            lines += ["", f"If the upcard is the Benny, {what}."]
        lines += leftovers(p, ("second-round", "all-pass", "benny-upcard"), "bidding.upcard-rounds")
        lines += leftovers(second, ("turned-down-suit", "no-trump"), "bidding.upcard-rounds.second-round")
        lines += leftovers(all_pass, ("then", "next-dealer"), "bidding.upcard-rounds.all-pass")
    elif procedure == "auction":
        p = bidding.get("auction", {})
        all_pass = p.get("all-pass", {})
        lines += ["Trumps are bid for in an auction: from the eldest hand, each player in turn bids higher than the "
                  "current bid or passes; a player who has passed may not bid again, and the auction ends when all but "
                  "the high bidder have passed.", "",
                  f"If no one bids, {ALL_PASS.get(all_pass.get('then')) or schema_words('bidding.auction.all-pass.then', all_pass.get('then'))}"
                  + (f", and {NEXT_DEALER[all_pass['next-dealer']]}" if all_pass.get("then") == "redeal" and all_pass.get("next-dealer") in NEXT_DEALER else "")
                  + ".", "", "The bids, lowest first:", "", "| Bid | Action | Contract | Value |", "|---|---|---|---|"]
        for bid in p.get("bids", []):
            alone = " (the bidder plays alone)" if bid.get("alone") else ""
            lines.append(f"| {md_text(bid['id'])} | `bid:{md_text(bid['id'])}` | {bid_words(bid, colours)}{alone} | {bid.get('value', '')} |")
        lines += leftovers(p, ("bids", "all-pass"), "bidding.auction")
    else:
        lines.append(f"Bidding procedure {code(str(procedure))}.")
    return lines + leftovers(bidding, ("procedure", "upcard-rounds", "auction"), "bidding")


def short_bidding(table: dict[str, Any]) -> str:
    bidding = table["bidding"]
    if bidding.get("procedure") == "upcard-rounds":
        p = bidding.get("upcard-rounds", {})
        then = p.get("all-pass", {}).get("then")
        return "upcard, two rounds" + ("; stick the dealer" if then == "dealer-must-call" else "; all pass: redeal" if then == "redeal" else "")
    if bidding.get("procedure") == "auction":
        return f"auction, {len(bidding.get('auction', {}).get('bids', []))} bids"
    return str(bidding.get("procedure"))


# -- exchange, alone, play -------------------------------------------------------------------

WHO = {"dealer": "The dealer", "maker": "The maker"}


def take_words(take: dict[str, Any], table: dict[str, Any]) -> str:
    source = {"upcard": "the upcard", "widow": "the " + table["deal"].get("widow-name", "widow")}.get(take.get("from"), str(take.get("from")))
    text = f"{WHO.get(take.get('who'), str(take.get('who')))} takes {source}"
    when = take.get("when") or {}
    conditions = []
    if "round" in when:
        conditions.append(f"trumps were made in round {when['round']}")
    if "maker" in when:
        conditions.append({"dealer": "the dealer is the maker", "not-dealer": "the maker is not the dealer"}.get(when["maker"], f"maker: {when['maker']}"))
    conditions += [f"{md_text(k)} is {md_text(compact(v))}" for k, v in when.items() if k not in ("round", "maker")]
    if conditions:
        text += " when " + " and ".join(conditions)
    if take.get("unless-alone"):
        text += ", unless the maker plays alone"
    if take.get("optional"):
        text += "; the taker may decline (`take` or `pass`)"
    extra = {k: v for k, v in take.items() if k not in ("who", "from", "when", "unless-alone", "optional")}
    if extra:
        text += " (" + ", ".join(f"{code(k)}: {code(compact(v))}" for k, v in extra.items()) + ")"
    return text + "."


def describe_exchange(table: dict[str, Any]) -> list[str]:
    exchange = table["exchange"]
    takes = exchange.get("takes", [])
    if not takes:
        lines = ["No one takes up cards after the bidding."]
    else:
        lines = [f"{i}. {take_words(t, table)}" for i, t in enumerate(takes, 1)]
        lines += ["", "Then every player who took cards discards as many, face down, one card at a time (`discard:<card>`)."]
        if "may-discard-taken" in exchange:
            lines[-1] += (" A card just taken may itself be discarded." if exchange["may-discard-taken"]
                          else " A card just taken may not be discarded.")
        if "sitting-out-takes" in exchange:
            lines[-1] += (" A player who sits out the hand still takes and discards." if exchange["sitting-out-takes"]
                          else " A player who sits out the hand takes nothing.")
    return lines + leftovers(exchange, ("takes", "may-discard-taken", "sitting-out-takes"), "exchange")


def describe_alone(table: dict[str, Any]) -> list[str]:
    alone = table["alone"]
    if not alone.get("allowed"):
        lines = ["No one may play alone" + (" (every hand is already played without a partner)." if table["players"].get("sides") != "partnerships" else ".")]
    else:
        when = {"before-exchange": "right after making trumps, before any cards are taken up",
                "after-exchange": "after the cards are taken up and discarded"}.get(alone.get("declared")) \
            or schema_words("alone.declared", alone.get("declared"))
        effect = {"partner-sits-out": "the maker's partner puts the hand away and takes no part in it",
                  "forgo-widow": f"the maker gives up the {table['deal'].get('widow-name', 'widow')} unseen"
                  }.get(alone.get("effect")) or schema_words("alone.effect", alone.get("effect"))
        lines = [f"The maker may play alone (`alone`, or `pass` to play normally), deciding {when}; {effect}."]
    defend = alone.get("defend") or {}
    if defend.get("allowed"):
        against = {"lone-maker": "a maker who plays alone", "any-maker": "any maker"}.get(defend.get("against")) \
            or schema_words("alone.defend.against", defend.get("against"))
        lines.append(f"Against {against}, each defender in turn from the maker's left may defend alone (`defend-alone` or `pass`); "
                     "the first to do so plays alone and that player's partner sits out.")
    elif alone.get("allowed"):
        lines.append("No one may defend alone.")
    best = alone.get("partners-best") or {}
    if best.get("allowed"):
        lines.append("The partner of a lone maker may pass one card face down (`give:<card>` or `pass`); the loner takes it "
                     "unseen (`take`, then discards one) or refuses it (`pass`).")
    out = [" ".join(lines)]
    out += leftovers(defend, ("allowed", "against"), "alone.defend")
    out += leftovers(best, ("allowed",), "alone.partners-best")
    return out + leftovers(alone, ("allowed", "declared", "effect", "defend", "partners-best"), "alone")


LEAD = {"eldest": "the eldest hand (the dealer's left)", "maker": "the maker", "maker-left": "the player on the maker's left"}


def describe_play(table: dict[str, Any]) -> list[str]:
    play = table["play"]
    text = f"The first trick is led by {LEAD.get(play.get('lead')) or schema_words('play.lead', play.get('lead'))}"
    alone = table["alone"]
    if play.get("lone-lead") and alone.get("allowed") and play["lone-lead"] != play.get("lead"):
        text += f"; when the maker plays alone, by {LEAD.get(play['lone-lead']) or schema_words('play.lone-lead', play['lone-lead'])}"
    bids = ((table["bidding"].get("auction") or {}).get("bids")) or []
    if (alone.get("allowed") and alone.get("effect", "partner-sits-out") == "partner-sits-out") \
            or (alone.get("defend") or {}).get("allowed") or any(b.get("alone") for b in bids):
        text += ". Players who sit out are skipped"
    text += (". Each player must follow the suit led if able (the bowers"
             + (" and the Benny" if table["ranking"].get("benny") else "")
             + " belong to the trump suit); a player who cannot may play any card. The highest trump wins the trick, "
             "or if there is none the highest card of the suit led; the winner leads to the next trick.")
    return [text] + leftovers(play, ("lead", "lone-lead"), "play")


# -- scoring and the game --------------------------------------------------------------------

def tricks_words(value: Any) -> str:
    if isinstance(value, list) and len(value) == 2:
        return f"{value[0]} to {value[1]}" if value[0] != value[1] else str(value[0])
    return str(value)


def when_words(when: dict[str, Any], table: dict[str, Any]) -> str:
    parts = []
    if "maker-tricks" in when:
        parts.append(f"the makers take {tricks_words(when['maker-tricks'])} tricks")
    if "made" in when:
        parts.append("the contract is made" if when["made"] else "the contract is lost")
    if "alone" in when:
        parts.append("the maker plays alone" if when["alone"] else "the maker does not play alone")
    if "defender-alone" in when:
        parts.append("a defender plays alone" if when["defender-alone"] else "no defender plays alone")
    if "contract" in when:
        parts.append({"none": "no one bid", "any": "there is a contract"}.get(when["contract"], f"contract {when['contract']}"))
    if "bid" in when:
        parts.append("the bid is " + " or ".join(f"{code(b)}" for b in when["bid"]))
    parts += [f"{code(k)} is {code(compact(v))}" for k, v in when.items()
              if k not in ("maker-tricks", "made", "alone", "defender-alone", "contract", "bid")]
    return ", ".join(parts) if parts else "any other hand"


def points_words(points: Any) -> str:
    if isinstance(points, int):
        return str(points)
    if not isinstance(points, dict):
        return md_text(compact(points))
    terms = []
    if points.get("fixed"):
        terms.append(str(points["fixed"]))
    if points.get("contract-value"):
        factor = points["contract-value"]
        terms.append("the contract's value" if factor == 1 else "minus the contract's value" if factor == -1 else f"{factor} × the contract's value")
    if points.get("per-trick"):
        terms.append(f"{points['per-trick']} per trick taken")
    text = " + ".join(terms) or "0"
    if "at-least" in points:
        text += f", at least {points['at-least']}"
    return text


def award_words(award: dict[str, Any], table: dict[str, Any] | None = None) -> str:
    by_player = table is not None and table["players"].get("sides") != "partnerships"
    who = {"makers": "to the maker" if by_player else "to the makers",
           "defenders": "to each defender" if by_player else "to the defending side",
           "everyone": "to every player" if by_player else "to each side"}
    return "; ".join(f"**{points_words(v)}** {who.get(k, 'to ' + md_text(k))}" for k, v in award.items())


def short_points(points: Any) -> str:
    """Points in a few characters: ``2``, ``bid``, ``−bid``, ``10/trick``."""
    if isinstance(points, int):
        return str(points)
    if not isinstance(points, dict):
        return compact(points)
    terms = []
    if points.get("fixed"):
        terms.append(str(points["fixed"]))
    factor = points.get("contract-value")
    if factor:
        terms.append("bid" if factor == 1 else "−bid" if factor == -1 else f"{factor}×bid")
    if points.get("per-trick"):
        terms.append(f"{points['per-trick']}/trick")
    text = "+".join(terms) or "0"
    return text + (f" (≥{points['at-least']})" if "at-least" in points else "")


def short_award(award: dict[str, Any]) -> str:
    who = {"makers": "", "defenders": " def.", "everyone": " each"}
    return ", ".join(f"{short_points(v)}{who.get(k, ' ' + k)}" for k, v in award.items())


def describe_scoring(table: dict[str, Any], row_link: Callable[[dict[str, Any]], str],
                     enabled_by: Callable[[str], str] = lambda row_id: "") -> list[str]:
    scoring = table["scoring"]
    lines = []
    if "makers-need" in scoring and table["bidding"].get("procedure") == "upcard-rounds":
        lines += [f"The makers need **{scoring['makers-need']} tricks** to make their contract.", ""]
    lines += ["After the last trick, the first row of this table that matches scores the hand:", "",
              "| Row | When | Points |", "|---|---|---|"]
    off = []
    for row in scoring.get("rows", []):
        if row.get("enabled", True) is False:
            off.append(row)
            continue
        extra = {k: v for k, v in row.items() if k not in ("id", "enabled", "when", "award")}
        note = (" (" + ", ".join(f"{code(k)}: {code(compact(v))}" for k, v in extra.items()) + ")") if extra else ""
        lines.append(f"| {row_link(row)} | {md_cell(when_words(row.get('when') or {}, table))}{note} | {md_cell(award_words(row.get('award') or {}, table))} |")
    if off:
        lines += ["", "Not in play with these options: " + "; ".join(
            f"{row_link(row)} ({when_words(row.get('when') or {}, table)}: {award_words(row.get('award') or {}, table)})"
            + enabled_by(row["id"]) for row in off) + "."]
    return lines + leftovers(scoring, ("makers-need", "rows"), "scoring")


FIRST_DEALER = {"first-black-jack": "cards are dealt face up, one at a time clockwise, until a black jack appears; "
                                    "the player who receives it deals first",
                "random": "it is chosen at random (a conformance case names the seat)",
                "cut": "each player cuts a card and the lowest deals first, players tied for lowest cutting again"}
TIE_BREAKS = {"makers": "the making side wins", "earliest-trick": "the side whose trick first took it past the target wins",
              "highest": "the highest score wins", "play-on": "if still tied, the game goes on to the next hand"}


def describe_game(table: dict[str, Any]) -> list[str]:
    game = table["game"]
    lines = [f"The first {'side' if table['players'].get('sides') == 'partnerships' else 'player'} to reach "
             f"**{game.get('target')} points** at the end of a hand wins the game."]
    if game.get("simultaneous"):
        lines.append("If several reach it on the same hand: " + "; then ".join(
            TIE_BREAKS.get(t) or schema_words("game.simultaneous", t) for t in game["simultaneous"]) + ".")
    if game.get("lose-at") is not None:
        lines.append(f"A side whose score falls to {game['lose-at']} or below loses at once.")
    method = game.get("first-dealer")
    text = "To choose the first dealer: " + (FIRST_DEALER.get(method) or schema_words("game.first-dealer", method))
    if method == "cut" and game.get("cut-order"):
        text += " (cards rank, lowest first: " + ", ".join(rank_text(str(r)) for r in game["cut-order"]) + ")"
    lines.append(text + ".")
    if game.get("next-dealer") == "left":
        lines.append("After each hand the deal passes to the left.")
    return [" ".join(lines)] + leftovers(game, ("target", "simultaneous", "lose-at", "first-dealer", "cut-order", "next-dealer"), "game")


DESCRIBERS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "players": describe_players, "deck": describe_deck, "ranking": describe_ranking, "deal": describe_deal,
    "bidding": describe_bidding, "exchange": describe_exchange, "alone": describe_alone, "play": describe_play,
    "game": describe_game,
}
