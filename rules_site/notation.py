"""How players write a table's cards, bids, seats and sides, for every page but the protocol
and the case scripts (which show the tokens an engine exchanges).

A card is a ``<span class="es-card">`` holding its rank and its suit symbol, coloured by
the suit's colour in the rule table (``deck.colours``): ``10♥``, never ``TH``. Bids read
``6♥`` and ``7 NT``; seats read ``North (0)`` (the table's ``players.names``, else North,
East, South, West for four players); scores are kept by side (``North–South``, or the
table's ``terms.team``). The Benny is called what the table calls it (``terms.benny``; else
the joker, when the joker plays that part).

:class:`Notation` holds one table's words; the module functions draw single cards.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any, Iterable, Mapping

from reference_impl.cards import JOKER, RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS

DEFAULT_COLOURS = {"C": "black", "D": "red", "H": "red", "S": "black"}
RANK_TEXT = {"T": "10"}
COMPASS = ["North", "East", "South", "West"]
STRAIN_WORDS = {"NT": "no-trumps", "NL": "low no-trumps"}
STRAIN_SHORT = {"NT": "NT", "NL": "low NT"}
NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve"]
CARD_TOKEN = re.compile(r"\b((?:(?:1[1-9]|[2-9TJQKA])[CDHS]|JK)(?:\.\d)?)(?!\w|\.\d)")
CARD_WORDS = re.compile(r"\b(?:the )?(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of "
                        r"(clubs|diamonds|hearts|spades)\b", re.I)
RANK_OF_WORD = {word: rank for rank, word in RANK_NAMES.items()}
# An action as the protocol writes it, quoted in a table's prose: ``order``, ``call:NT``, ``discard:<card>``.
PROTOCOL_TOKEN = re.compile(r"(?:pass|order|stay|drop|alone|defend-alone|swap|take|give|"
                            r"(?:call|name|bid|play|discard|give|take):[^\s`]+)")
QUOTED_TOKEN = re.compile(r"`(" + PROTOCOL_TOKEN.pattern + r")`")
TOKEN_ASIDE = re.compile(r" ?\(((?:`[^`]+`|[^()`])*`[^()]*)\)")
ASIDE_GLUE = re.compile(r"^(?:\s|,|\bor\b|\band\b|\bthen\b|\bone\b|\bto\b)*$")
SUIT_OF_WORD = {word: suit for suit, word in SUIT_NAMES.items()}


def rank_text(rank: str) -> str:
    return "joker" if rank == JOKER else RANK_TEXT.get(rank, rank)


def number_word(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def in_halves(table: Mapping[str, Any] | None) -> bool:
    """Whether the table counts its points in halves (``scoring.unit: half``): every number of
    points it writes, and every score, is then twice the points the players count."""
    return bool(table) and ((table or {}).get("scoring") or {}).get("unit") == "half"


def amount(n: int, half: bool = False) -> str:
    """A number of points as players say it: ``7`` in half points is ``3½``."""
    if not half:
        return str(n)
    whole, odd = divmod(abs(n), 2)
    return ("-" if n < 0 else "") + (str(whole) if whole or not odd else "") + ("½" if odd else "")


def points_amount(n: int, half: bool = False) -> str:
    """``1 point``, ``3 points``; in half points ``½ point``, ``1 point``, ``3½ points``."""
    if not half:
        return plural(n, "point")
    return f"{amount(n, half)} {'point' if abs(n) in (1, 2) else 'points'}"


def colours_of(table: Mapping[str, Any] | None) -> dict[str, str]:
    """The suit colours of a rule table (the usual ones when it names none)."""
    if table and isinstance((table.get("deck") or {}).get("colours"), dict):
        return {**DEFAULT_COLOURS, **table["deck"]["colours"]}
    return dict(DEFAULT_COLOURS)


def suit_html(suit: str, colours: Mapping[str, str] | None = None, *, name: bool = False) -> str:
    """A suit symbol in its colour (``NT``, ``NL``: no-trumps); with ``name``, followed by its name."""
    if suit in STRAIN_WORDS:
        return STRAIN_WORDS[suit] if name else f'<span class="es-suit es-nt">{STRAIN_SHORT[suit]}</span>'
    colour = (colours or DEFAULT_COLOURS).get(suit, "black")
    symbol = SUIT_SYMBOLS.get(suit, escape(suit))
    words = SUIT_NAMES.get(suit, suit)
    html = f'<span class="es-suit es-{colour}" role="img" aria-label="{words}">{symbol}</span>'
    return html + (f" {words}" if name else "")


def card_html(card: str, colours: Mapping[str, str] | None = None, *, mark: str = "", label: str | None = None) -> str:
    """One card as a small face: rank and suit symbol, in the suit's colour.

    ``mark`` adds classes: ``win`` (the card that took the trick), ``led``, ``legal``."""
    extra = "".join(f" es-{m}" for m in mark.split()) if mark else ""
    copy = re.fullmatch(r"(.+)\.(\d+)", card)
    if copy:                 # a second pack's copy (``AS.2``): the same card, marked as the other copy
        face = card_html(copy.group(1), colours, mark=mark, label=label)
        return face.replace('">', f' (copy {copy.group(2)})">', 1).replace("</span>", f"<sup>{copy.group(2)}</sup></span>", 1) \
            if 'aria-label="' in face else face
    if card == JOKER:
        return f'<span class="es-card es-joker{extra}" role="img" aria-label="{escape(label or "joker")}">Jo★</span>'
    rank, suit = card[:-1], card[-1:]
    if suit not in SUIT_SYMBOLS or not (rank in RANK_NAMES or rank.isdigit()):
        return f'<span class="es-card{extra}">{escape(card)}</span>'
    colour = (colours or DEFAULT_COLOURS).get(suit, "black")
    name = f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"      # 11, 12, 13: the big packs' ranks
    return (f'<span class="es-card es-{colour}{extra}" role="img" aria-label="{name}">'
            f'{rank_text(rank)}{SUIT_SYMBOLS[suit]}</span>')


def cards_html(cards: Iterable[str], colours: Mapping[str, str] | None = None, *, empty: str = "none",
               marks: Mapping[str, str] | None = None) -> str:
    """A row of cards (``empty`` when there are none)."""
    cards = list(cards)
    if not cards:
        return f'<span class="es-none">{escape(empty)}</span>'
    marks = marks or {}
    return '<span class="es-cards">' + "".join(card_html(c, colours, mark=marks.get(c, "")) for c in cards) + "</span>"


def spoken(text: str) -> str:
    """A table's prose with the protocol's action tokens taken out, as a player reads it: an
    aside that only quotes tokens (``(`stay`)``, ``(`call:<suit>`, `call:NT`)``) is dropped,
    one that gives a range of bids keeps the numbers (``(`bid:2` to `bid:5`)`` -> ``(2 to 5)``),
    and any other quoted token is said in words (``order it up``)."""
    def aside(match: re.Match) -> str:
        inner = match.group(1)
        tokens = QUOTED_TOKEN.findall(inner)
        if not tokens or not ASIDE_GLUE.match(QUOTED_TOKEN.sub("", inner)):
            return match.group(0)
        numbers = [t.partition(":")[2] for t in tokens if t.startswith("bid:") and t.partition(":")[2].isdigit()]
        if len(numbers) == len(tokens) and len(numbers) > 1 and " to " in inner:
            return f" ({numbers[0]} to {numbers[-1]})"
        return ""
    text = TOKEN_ASIDE.sub(aside, str(text))
    return QUOTED_TOKEN.sub(lambda m: token_words(m.group(1)), text)


def token_words(token: str) -> str:
    """An action token in a player's words, without a table (``stay`` -> ``stay in``)."""
    kind, _, arg = token.partition(":")
    if arg.startswith("<"):
        return {"call": "name a suit", "name": "name a suit", "discard": "discard", "give": "pass a card",
                "play": "play a card", "bid": "bid"}.get(kind, kind)
    if kind in ("call", "name"):
        return "name " + (STRAIN_WORDS.get(arg) or SUIT_NAMES.get(arg, arg))
    if kind == "bid":
        return "bid " + arg
    return {"order": "order it up", "stay": "stay in", "drop": "drop out", "alone": "go alone",
            "defend-alone": "defend alone", "swap": "swap", "take": "take it", "give": "pass a card"}.get(kind, token)


def join_words(items: list[str], joiner: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 2:
        return f" {joiner} ".join(items)
    return ", ".join(items[:-1]) + f" {joiner} " + items[-1]


def card_text(card: str) -> str:
    """A card in plain text: ``10♥``, ``joker``."""
    if card == JOKER:
        return "joker"
    if len(card) in (2, 3) and card[-1] in SUIT_SYMBOLS and not card.startswith("."):
        return rank_text(card[:-1]) + SUIT_SYMBOLS[card[-1]]
    copy = re.fullmatch(r"(.+)\.(\d+)", card)
    if copy:
        return card_text(copy.group(1)) + "\u00b7" + copy.group(2)
    return card


class Notation:
    """One rule table's words for its seats, sides, bids and special cards."""

    def __init__(self, table: Mapping[str, Any]):
        self.table = table
        self.colours = colours_of(table)
        players = table.get("players") or {}
        self.n = int(players.get("count") or 0)
        names = players.get("names")
        if isinstance(names, list) and len(names) == self.n:
            self.names: list[str] = [str(n) for n in names]
        elif self.n == 4:
            self.names = list(COMPASS)
        else:                 # players are named, never numbered from 0 as the protocol numbers seats
            self.names = [f"Player {s + 1}" for s in range(self.n)]
        self.teams: list[list[int]] | None = [list(t) for t in players["teams"]] if players.get("teams") else None
        terms = table.get("terms") or {}
        self.terms = terms
        benny = (table.get("ranking") or {}).get("benny")
        self.benny_card = benny
        self.benny = terms.get("benny") or ("the joker" if benny == JOKER else self._benny_title(table, benny) or "the Benny")
        self.maker = terms.get("maker") or "the maker"
        self.widow = (table.get("deal") or {}).get("widow-name", "widow")
        self.bids: dict[str, dict[str, Any]] = {}
        for step in table.get("hand") or []:
            for bid in step.get("bids") or []:
                self.bids[str(bid["id"])] = bid
        self.clause_titles = {c["id"]: c["title"] for c in table.get("clauses") or []}

    @staticmethod
    def _benny_title(table: Mapping[str, Any], card: str | None) -> str | None:
        """What the table's own rule calls its Benny when ``terms.benny`` does not say: the title
        of the ranking rule that names the card (Five-card Loo's jack of clubs is "Pam")."""
        if not card or len(card) < 2:
            return None
        name = f"{RANK_NAMES.get(card[0], '')} of {SUIT_NAMES.get(card[1], '')}"
        for clause in table.get("clauses") or []:
            title = str(clause.get("title", ""))
            if (clause.get("topic") == "ranking" and name in str(clause.get("text", "")).lower()
                    and len(title.split()) == 1 and title[:1].isupper()):
                return title
        return None

    # -- seats -----------------------------------------------------------------------------
    def seat(self, seat: int | None) -> str:
        """A seat as players call it: ``North``, or ``Player 3`` where the table names none
        (the protocol's seat number belongs to the case scripts, never to players' prose)."""
        if seat is None:
            return "nobody"
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return f"Player {seat + 1}"

    def seat_name(self, seat: int) -> str:
        """The same as :meth:`seat` (kept for the callers that say they want the name alone)."""
        return self.seat(seat)

    # -- scoring units ---------------------------------------------------------------------
    @property
    def units(self) -> list[list[int]]:
        return self.teams if self.teams else [[s] for s in range(self.n)]

    def unit(self, index: int) -> str:
        """A scoring unit's name: ``North–South`` (or ``terms.team``), or a seat."""
        teams = self.terms.get("team")
        if self.teams and isinstance(teams, list) and index < len(teams):
            return self._seat_words(str(teams[index]))
        units = self.units
        if index >= len(units):
            return f"side {index}"
        seats = units[index]
        if len(seats) == 1:
            return self.seat(seats[0])
        if len(seats) == 2:
            return "–".join(self.names[s] for s in seats)
        return join_words([self.names[s] for s in seats])

    def unit_of(self, seat: int) -> int | None:
        for index, seats in enumerate(self.units):
            if seat in seats:
                return index
        return None

    @property
    def team_game(self) -> bool:
        return bool(self.teams)

    # -- bids and strains ------------------------------------------------------------------
    def bid_text(self, bid_id: str) -> str:
        """A bid as players write it: ``6♥``, ``7 NT``, ``misère`` (plain text)."""
        bid = self.bids.get(bid_id)
        if bid is None:
            return bid_id
        if "at-most" in bid and "tricks" not in bid or bid.get("at-most") == 0:
            base = self.clause_titles.get(bid_id) or bid_id.replace("-", " ")
            return base[:1].lower() + base[1:] if base[:2] != base[:2].upper() else base
        tricks = bid.get("tricks")
        strain = bid.get("strain")
        text = str(tricks) if tricks is not None else bid_id
        if strain in STRAIN_SHORT:
            text += " " + STRAIN_SHORT[strain]
        elif strain:
            text += SUIT_SYMBOLS.get(strain, strain)
        if bid.get("alone"):
            text += " alone"
        return text

    def bid_html(self, bid_id: str) -> str:
        """A bid with its suit symbol in colour."""
        bid = self.bids.get(bid_id)
        strain = (bid or {}).get("strain")
        text = escape(self.bid_text(bid_id))
        if strain and strain in SUIT_SYMBOLS:
            symbol = SUIT_SYMBOLS[strain]
            text = text.replace(symbol, suit_html(strain, self.colours), 1)
        return f'<span class="es-bid">{text}</span>'

    def strain(self, strain: str, *, name: bool = True) -> str:
        return suit_html(strain, self.colours, name=name)

    def card(self, card: str, mark: str = "") -> str:
        return card_html(card, self.colours, mark=mark, label=self.benny.removeprefix("the ") if card == self.benny_card and card == JOKER else None)

    def cards(self, cards: Iterable[str], **kwargs: Any) -> str:
        return cards_html(cards, self.colours, **kwargs)

    # -- prose from the tables and the cases -----------------------------------------------
    def seed_titles(self, text: str, emphasis: str = "") -> str:
        """"seed 001" (this project's number for a source document) and "the seed" said as the
        source's title: a reader never sees the project's file names or numbers."""
        seeds = {str(s.get("file", "")).split("_")[0]: s for s in (self.table.get("sources") or {}).values()
                 if isinstance(s, dict) and s.get("kind") == "seed" and s.get("file")}

        def title(source: Mapping[str, Any] | None, capital: bool) -> str:
            if source is None:
                return ("A" if capital else "a") + " source document"
            name = str(source.get("title", "")).split(" (")[0]
            return f"{emphasis}{name}{emphasis}"

        def numbered(match: re.Match) -> str:
            return title(seeds.get(match.group(2)), match.group(1) == "S") + (match.group(3) or "")
        text = re.sub(r"\b([Ss])eeds? (?:document )?(\d{3})('s)?\b", numbered, text)
        only = next(iter(seeds.values())) if len(seeds) == 1 else None

        def bare(match: re.Match) -> str:
            if only is not None:
                return title(only, match.group(1)[0] == "T")
            return ("The" if match.group(1)[0] == "T" else "the") + " source document"
        return re.sub(r"\b([Tt]he) seed\b(?! (?:document|\d))", bare, text)

    def prose_html(self, text: str, *, trump: str | None = None) -> str:
        """Free text (a case's ``why``, a clause) made readable: card tokens (``JH``) and card
        names become card faces, bid tokens read as bids, ``seat 2`` reads ``South``.
        Returns HTML (the text escaped)."""
        out = []
        for index, part in enumerate(re.split(r"(`[^`\n]+`)", spoken(self.seed_titles(str(text))))):
            if index % 2:
                out.append(f"<code>{escape(part[1:-1])}</code>")
            else:
                out.append(self._prose_part(escape(part, quote=False), trump))
        return "".join(out)

    def _seat_words(self, text: str) -> str:
        """``seat 2``, ``seats 0 and 2``, ``dealer 1`` in players' words: ``South``."""
        def seats(match: re.Match) -> str:
            numbers = [int(n) for n in re.findall(r"\d", match.group(2))]
            if any(n >= self.n for n in numbers):
                return match.group(0)
            words = ", ".join(self.seat(n) for n in numbers[:-1] if n is not None)
            last = self.seat(numbers[-1])
            joiner = match.group(3)
            if len(numbers) == 1:
                return last
            return f"{words} {joiner} {last}" if joiner else f"{words}, {last}"
        text = re.sub(r"\b([Ss]eats?) (\d(?:, \d)*(?:,? (and|or) \d)?)\b", seats, text)
        def dealer(match: re.Match) -> str:
            seat = int(match.group(2))
            if seat >= self.n:
                return match.group(0)
            name = self.seat(seat)
            if not name.startswith("Player"):           # "dealer North" reads as players say it
                return f"{match.group(1)} {name}"
            if text[match.end():match.end() + 2] in ("'s", "’s"):
                return name                              # "on dealer 2's left": on Player 3's left
            return f"{name} (the dealer)"                # never "Dealer Player 3"
        return re.sub(r"\b(dealer|Dealer) (\d)\b", dealer, text)

    def _prose_part(self, text: str, trump: str | None) -> str:
        text = re.sub(r"\bscore index (\d)\b",
                      lambda m: self.unit(int(m.group(1))) if int(m.group(1)) < len(self.units) else m.group(0), text)
        text = self._seat_words(text)
        pack = set(self.bids)

        def bid(match: re.Match) -> str:
            return self.bid_html(match.group(0)) if match.group(0) in pack else match.group(0)
        if pack:
            text = re.sub(r"\b\d+(?:NT|NL|[CDHS])\b", bid, text)
        text = re.sub(r"\b([AKQJT98765432])((?: [AKQJT98765432]){2,})\b",
                      lambda m: " ".join(rank_text(r) for r in m.group(0).split()), text)
        text = re.sub(r"\b[AKQJT98765432](?:, [AKQJT98765432]){2,}\b",          # "A, K, Q, T, 9": ranks listed
                      lambda m: ", ".join(rank_text(r) for r in m.group(0).split(", ")), text)
        text = self._name_cards(text, trump)
        return CARD_TOKEN.sub(lambda m: self.card(m.group(1)), text)

    def _name_cards(self, text: str, trump: str | None) -> str:
        """A card named in words (the right bower, with trumps known; the ace of spades) gets
        its token after it, made a face afterwards, unless a token already follows."""
        def face(card: str | None, phrase: str, rest: str) -> str:
            if not card or re.match(r"\s*(?:[2-9TJQKA][CDHS]|JK)\b", rest):
                return phrase
            return f"{phrase} {card}"
        mate = next((s for s in SUIT_SYMBOLS if trump and s != trump and self.colours.get(s) == self.colours.get(trump)), None)
        bowers = {"right": "J" + trump if trump in SUIT_SYMBOLS else None,
                  "left": "J" + mate if trump in SUIT_SYMBOLS and mate else None}
        out, last = [], 0
        pattern = re.compile(r"\b(right|left) bower\b|" + CARD_WORDS.pattern, re.I)
        for m in pattern.finditer(text):
            if m.group(1):
                card = bowers.get(m.group(1).lower())
            else:
                card = RANK_OF_WORD[m.group(2).lower()] + SUIT_OF_WORD[m.group(3).lower()]
            out.append(text[last:m.start()])
            out.append(face(card, m.group(0), text[m.end():]))
            last = m.end()
        out.append(text[last:])
        return "".join(out)

    def prose_text(self, text: str) -> str:
        """The same as :meth:`prose_html`, in plain text (card faces as ``10♥``)."""
        import html as _html
        out = self.prose_html(text)
        out = re.sub(r'<span class="es-card[^"]*" role="img" aria-label="[^"]*">([^<]*)</span>', r"\1", out)
        out = re.sub(r"<[^>]+>", "", out)
        return _html.unescape(out)

    def token_text(self, token: str) -> str:
        """An action token in words, for players: ``order`` -> ``order it up``, ``bid:7NT`` -> ``bid 7 NT``."""
        kind, _, arg = token.partition(":")
        if kind in ("play", "discard", "give"):
            return f"{kind} {card_text(arg)}"
        if kind in ("call", "name"):
            return f"name {STRAIN_WORDS.get(arg) or SUIT_NAMES.get(arg, arg)}"
        if kind == "bid":
            return f"bid {self.bid_text(arg)}"
        return {"order": "order it up", "pass": "pass", "take": "take", "alone": "go alone",
                "defend-alone": "defend alone", "stay": "stay in", "drop": "drop out"}.get(token, token.replace("-", " "))

    def cards_mentioned(self, text: str, trump: str | None = None) -> list[str]:
        """The cards a note speaks of: tokens (``JH``), names (``the ace of spades``), the
        bowers of ``trump``, the Benny."""
        found: list[tuple[int, str]] = [(m.start(), m.group(1)) for m in CARD_TOKEN.finditer(text)]
        for m in CARD_WORDS.finditer(text):
            found.append((m.start(), RANK_OF_WORD[m.group(1).lower()] + SUIT_OF_WORD[m.group(2).lower()]))
        if trump and trump in SUIT_SYMBOLS:
            for m in re.finditer(r"\b(right|left) bower\b", text):
                if m.group(1) == "right":
                    found.append((m.start(), "J" + trump))
                else:
                    mate = [s for s in SUIT_SYMBOLS if s != trump and self.colours.get(s) == self.colours.get(trump)]
                    if mate:
                        found.append((m.start(), "J" + mate[0]))
        if self.benny_card:
            for m in re.finditer(r"\b(the Benny|the joker|" + re.escape(self.benny) + r")\b", text, re.I):
                found.append((m.start(), self.benny_card))
        seen: list[str] = []
        for _, card in sorted(found):
            if card not in seen:
                seen.append(card)
        return seen
