"""EGN's condensed deals: one deal as a Base64URL bit string, read and written.

Written from EGN's binary-format description (versions 0 to 3 of the bit stream) and
checked against the condensed files of its examples, which its own packer wrote. Where the
description and those files disagree, the files decide (docs/egn-records.md lists it):

* the pack is ordered by rank, then by suit in the order ``s h c d`` (not alphabetically),
  and a second-round call is the index among those suits without the upcard's;
* an integer of maximum ``m`` takes as many bits as ``m`` has binary digits (the dealer of
  a version 0 or 1 deal takes 2 bits, not 3; a card index among ``k`` cards ``bits(k - 1)``,
  at least 1);
* version 3's preserved hands are written for every seat (4 bits of count each), with no
  count of seats before them.

A condensed deal says less than a JSON one: no deal number (a reader numbers deals in
order), no card passed between players, no no-trump call, no incomplete bidding and no
incomplete trick. :func:`pack_deal` refuses a deal that would lose any of these
(:class:`PackError`), rather than write a record that reads back as another game.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

SUIT_ORDER = ("s", "h", "c", "d")
RANKS = ("6", "7", "8", "9", "T", "J", "Q", "K", "A")
MIN_RANK_CODES = {9: 0, 8: 1, 7: 2, 6: 3}
END_MARKER = "1010"
BIDDING, PLAY = "EUCHRE_BIDDING", "TRICK_PLAY"


class PackError(ValueError):
    """A deal the condensed form cannot hold, or a bit string that is not a condensed deal."""


def deck(min_rank: int = 9) -> list[str]:
    """The condensed form's pack: ranks from ``min_rank`` up, each in suit order s h c d."""
    start = RANKS.index(str(min_rank)) if str(min_rank) in RANKS else RANKS.index("9")
    return [rank + suit for rank in RANKS[start:] for suit in SUIT_ORDER]


def _width(maximum: int) -> int:
    return max(1, maximum.bit_length())


# -- bits and Base64URL ----------------------------------------------------------------------------
def to_base64url(bits: str) -> str:
    bits = bits.ljust(-(-len(bits) // 8) * 8, "0")
    raw = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def from_base64url(text: str) -> str:
    padded = text.replace("+", "-").replace("/", "_")
    padded += "=" * (-len(padded) % 4)
    try:
        raw = base64.urlsafe_b64decode(padded)
    except (binascii.Error, ValueError) as exc:
        raise PackError(f"not Base64URL: {exc}") from None
    return "".join(f"{byte:08b}" for byte in raw)


class _Reader:
    def __init__(self, bits: str):
        self.bits, self.pos = bits, 0

    def take(self, n: int) -> str:
        if self.pos + n > len(self.bits):
            raise PackError(f"the bit string ends early (bit {self.pos} of {len(self.bits)}, {n} more wanted)")
        out = self.bits[self.pos:self.pos + n]
        self.pos += n
        return out

    def integer(self, maximum: int) -> int:
        return int(self.take(_width(maximum)), 2)

    def flag(self) -> bool:
        return self.take(1) == "1"

    def index(self, cards: list[str], what: str) -> int:
        """An index into ``cards`` (as many bits as the last index has), checked."""
        value = self.integer(len(cards) - 1)
        if value >= len(cards):
            raise PackError(f"{what}: index {value} among {len(cards)} cards (bit {self.pos})")
        return value

    def left(self) -> int:
        return len(self.bits) - self.pos

    def rest_is_padding(self) -> bool:
        return self.left() < 8 and "1" not in self.bits[self.pos:]


class _Writer:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def integer(self, value: int, maximum: int) -> None:
        if not 0 <= value <= maximum:
            raise PackError(f"{value} does not fit in {_width(maximum)} bits (0 to {maximum})")
        self.parts.append(format(value, f"0{_width(maximum)}b"))

    def flag(self, value: bool) -> None:
        self.parts.append("1" if value else "0")

    def text(self) -> str:
        return "".join(self.parts)


# -- reading ---------------------------------------------------------------------------------------
def unpack_deal(text: str, deal_number: int = 0) -> dict[str, Any]:
    """The JSON form of one condensed deal (version 0 to 3 of EGN's bit stream)."""
    bits = from_base64url(text)
    header = bits[:4]
    if header in ("0001", "0010", "0011"):
        try:
            return _unpack_versioned(_Reader(bits), int(header, 2), deal_number)
        except PackError:
            pass                # EGN's rule: a version 0 deal may begin with these bits by chance
    return _unpack_v0(_Reader(bits), deal_number)


def _unpack_versioned(r: _Reader, version: int, deal_number: int) -> dict[str, Any]:
    r.take(4)
    if version == 1:
        dealer, players, cards = r.integer(3), 4, deck(9)
    else:
        dealer = r.integer(7)
        players = r.integer(7) + 1
        min_rank = (9, 8, 7, 6)[r.integer(3)]
        cards = deck(min_rank)
    remaining = list(cards)
    upcard = cards[r.index(cards, 'the upcard')]
    state: dict[str, Any] = {"dealer": dealer, "upCard": upcard}
    if version >= 3:
        hands = _read_hands(r, cards, players)
        if hands is not None:
            state["playerCards"] = hands
    deal: dict[str, Any] = {"dealNumber": deal_number, "initialState": state, "phases": []}
    alone = defended = False
    for number in range(r.integer(7)):
        if r.take(1) == "0":
            phase = _read_bidding(r, upcard, 0, players, version, cards)
            alone, defended = phase["isAlone"], phase.get("aloneDefender", -1) >= 0
        else:
            phase = _read_play(r, _per_trick(players, alone, defended), remaining)
        phase["phaseNumber"] = number
        deal["phases"].append(phase)
    if r.flag():
        lines = []
        for _ in range(r.integer(255)):
            branch = r.integer(65535)
            left = _remaining_at(deal, branch, cards)
            phases = []
            line_alone, line_defended = alone, defended
            for p in range(r.integer(15)):
                if r.take(1) == "0":
                    phase = _read_bidding(r, upcard, branch, players, version, cards)
                    line_alone, line_defended = phase["isAlone"], phase.get("aloneDefender", -1) >= 0
                else:
                    per = _per_trick(players, line_alone, line_defended)
                    first = None
                    if p == 0:
                        calls = next((len(ph["calls"]) for ph in deal["phases"] if ph["type"] == BIDDING), 0)
                        played = branch - calls
                        if played > 0 and played % per:
                            first = per - played % per
                    phase = _read_play(r, per, left, first)
                phase["phaseNumber"] = branch + p
                phases.append(phase)
            lines.append({"branchIndex": branch, "phases": phases})
        deal["alternativeLines"] = lines
    if r.take(4) != END_MARKER:
        raise PackError("no end marker (1010) where the deal should end: the bit string is damaged")
    return deal


def _read_hands(r: _Reader, cards: list[str], players: int) -> list[list[str]] | None:
    if not r.flag():
        return None
    return [[cards[r.index(cards, 'a dealt card')] for _ in range(r.integer(15))] for _ in range(players)]


def _read_calls(r: _Reader, upcard: str, start: int, players: int) -> list[str]:
    """The two rounds of calls: a flag a seat (set: it ordered up), then, if no one did, three
    bits a seat (0 a pass, else the n-th suit other than the upcard's), from seat ``start``."""
    calls: list[str] = []
    for _ in range(start, players):
        if r.flag():
            calls.append("Order")
            return calls
        calls.append("Pass")
    others = [s for s in SUIT_ORDER if s != upcard[1].lower()]
    for _ in range(max(0, start - players), players):
        value = r.integer(3)
        if value:
            calls.append(others[value - 1])
            break
        calls.append("Pass")
    return calls


def _read_bidding(r: _Reader, upcard: str, start: int, players: int, version: int, cards: list[str]) -> dict[str, Any]:
    calls = _read_calls(r, upcard, start, players)
    phase: dict[str, Any] = {"phaseNumber": 0, "type": BIDDING, "calls": calls, "isAlone": r.flag()}
    if version >= 2 and phase["isAlone"] and r.flag():
        phase["aloneDefender"] = r.integer(7)
    if version >= 3 and r.flag():
        phase["discard"] = cards[r.index(cards, "the discard")]
    notes = _read_annotations(r)
    if notes is not None:
        phase["callAnnotations"] = notes
    return phase


def _read_play(r: _Reader, per_trick: int, remaining: list[str], first: int | None = None) -> dict[str, Any]:
    tricks = []
    for t in range(r.integer(7)):
        trick = []
        for _ in range(first if t == 0 and first is not None else per_trick):
            if not remaining:
                break
            trick.append(remaining.pop(r.index(remaining, f'trick {t + 1}')))
        tricks.append(trick)
    phase: dict[str, Any] = {"phaseNumber": 0, "type": PLAY, "tricks": tricks}
    notes = _read_annotations(r)
    if notes is not None:
        phase["playAnnotations"] = notes
    return phase


def _read_annotations(r: _Reader) -> dict[str, list[str]] | None:
    if not r.flag():
        return None
    out: dict[str, list[str]] = {}
    for _ in range(r.integer(255)):
        key = r.integer(255)
        texts = []
        for _ in range(r.integer(255)):
            length = r.integer(65535)
            raw = bytes(int(r.take(8), 2) for _ in range(length))
            try:
                texts.append(raw.decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise PackError(f"an annotation is not UTF-8 text ({exc.reason})") from None
        out[str(key)] = texts
    return out


def _unpack_v0(r: _Reader, deal_number: int) -> dict[str, Any]:
    """Version 0 (no header, no annotations, no alternative lines; tricks until the bits end)."""
    cards = deck(9)
    remaining = list(cards)
    dealer = r.integer(3)
    upcard = cards[r.index(cards, 'the upcard')]
    deal: dict[str, Any] = {"dealNumber": deal_number, "initialState": {"dealer": dealer, "upCard": upcard},
                            "phases": []}
    if r.left() == 0 or r.rest_is_padding():
        return deal
    calls = _read_calls(r, upcard, 0, 4)
    alone = r.flag()
    deal["phases"].append({"phaseNumber": 0, "type": BIDDING, "calls": calls, "isAlone": alone})
    if r.left() == 0 or r.rest_is_padding():
        return deal
    per = 3 if alone else 4
    tricks: list[list[str]] = []
    trick: list[str] = []
    while r.left() and remaining:
        if r.left() < _width(len(remaining) - 1) or (not trick and r.rest_is_padding()):
            break
        trick.append(remaining.pop(r.index(remaining, f'trick {len(tricks) + 1}')))
        if len(trick) == per:
            tricks.append(trick)
            trick = []
    if trick:
        tricks.append(trick)
    deal["phases"].append({"phaseNumber": 1, "type": PLAY, "tricks": tricks})
    return deal


def _per_trick(players: int, alone: bool, defended: bool) -> int:
    return players - (2 if defended else 1) if alone else players


def _remaining_at(deal: dict[str, Any], branch: int, cards: list[str]) -> list[str]:
    """The cards not yet played before action ``branch`` of the main line (calls count as actions)."""
    left = list(cards)
    actions = 0
    for phase in deal["phases"]:
        if actions >= branch:
            break
        if phase["type"] == BIDDING:
            actions = min(branch, actions + len(phase["calls"]))
            continue
        for trick in phase["tricks"]:
            for card in trick:
                if actions >= branch:
                    break
                if card in left:
                    left.remove(card)
                actions += 1
    return left


# -- writing ---------------------------------------------------------------------------------------
def pack_deal(deal: dict[str, Any], players: int = 4, min_rank: int = 9) -> str:
    """One JSON deal as a condensed string, in the lowest version that holds it (as EGN's packer
    chooses: 3 for a discard or dealt hands, 2 for another pack, player count, a lone defence
    or a dealer past seat 3, else 1). Raises :class:`PackError` for what the form cannot hold."""
    if not 1 <= players <= 8:
        raise PackError(f"{players} players: the condensed form holds 1 to 8")
    if min_rank not in MIN_RANK_CODES:
        raise PackError(f"min_rank {min_rank}: the condensed form's packs start at 9, 8, 7 or 6")
    state = deal.get("initialState", {})
    phases = deal.get("phases", [])
    biddings = [p for p in phases if p.get("type") == BIDDING]
    lines = deal.get("alternativeLines") or []
    every = biddings + [p for line in lines for p in line.get("phases", []) if p.get("type") == BIDDING]
    hands = state.get("playerCards")
    has_hands = isinstance(hands, list) and any(hand for hand in hands)
    if any("discard" in p for p in every) or has_hands:
        version = 3
    elif players != 4 or min_rank != 9 or any(p.get("aloneDefender", -1) >= 0 for p in every) or state.get("dealer", 0) >= 4:
        version = 2
    else:
        version = 1
    cards = deck(min_rank)
    w = _Writer()
    w.parts.append(format(version, "04b"))
    dealer = state.get("dealer", 0)
    if version == 1:
        w.integer(dealer, 3)
    else:
        w.integer(dealer, 7)
        w.integer(players - 1, 7)
        w.integer(MIN_RANK_CODES[min_rank], 3)
    upcard = _card(state.get("upCard"), cards, "the upcard")
    w.integer(cards.index(upcard), len(cards) - 1)
    if version >= 3:
        w.flag(isinstance(hands, list))
        if isinstance(hands, list):
            if len(hands) > players:
                raise PackError(f"{len(hands)} dealt hands for {players} players")
            for seat in range(players):
                hand = hands[seat] if seat < len(hands) else []
                w.integer(len(hand), 15)
                for card in hand:
                    w.integer(cards.index(_card(card, cards, f"a card of seat {seat}'s hand")), len(cards) - 1)
    remaining = list(cards)
    w.integer(len(phases), 7)
    alone = defended = False
    for phase in phases:
        if phase.get("type") == BIDDING:
            w.flag(False)
            _write_bidding(w, phase, upcard, 0, players, version, cards)
            alone, defended = bool(phase.get("isAlone")), phase.get("aloneDefender", -1) >= 0
        else:
            w.flag(True)
            _write_play(w, phase, remaining, cards, _per_trick(players, alone, defended), None)
    w.flag(bool(lines))
    if lines:
        w.integer(len(lines), 255)
        for line in lines:
            branch = line.get("branchIndex", 0)
            w.integer(branch, 65535)
            left = _remaining_at(deal, branch, cards)
            line_phases = line.get("phases", [])
            w.integer(len(line_phases), 15)
            line_alone, line_defended = alone, defended
            for p, phase in enumerate(line_phases):
                if phase.get("type") == BIDDING:
                    w.flag(False)
                    _write_bidding(w, phase, upcard, branch, players, version, cards)
                    line_alone, line_defended = bool(phase.get("isAlone")), phase.get("aloneDefender", -1) >= 0
                else:
                    w.flag(True)
                    per = _per_trick(players, line_alone, line_defended)
                    first = None
                    if p == 0:
                        calls = len(biddings[0]["calls"]) if biddings else 0
                        played = branch - calls
                        if played > 0 and played % per:
                            first = per - played % per
                    _write_play(w, phase, left, cards, per, first)
    w.parts.append(END_MARKER)
    return to_base64url(w.text())


def _card(raw: Any, cards: list[str], what: str) -> str:
    card = raw[0] + raw[1:].lower() if isinstance(raw, str) and len(raw) == 2 else raw
    if card not in cards:
        raise PackError(f"{what} {raw!r} is not a card of the condensed form's pack ({cards[0]} to {cards[-1]}; no "
                        "joker, and no R, L or N)")
    return card


def _write_bidding(w: _Writer, phase: dict[str, Any], upcard: str, start: int, players: int, version: int,
                   cards: list[str]) -> None:
    if phase.get("cardExchanges"):
        raise PackError("cards passed between players (cardExchanges): the condensed form has no place for them")
    calls = list(phase.get("calls", []))
    others = [s for s in SUIT_ORDER if s != upcard[1].lower()]
    position = start
    ended = False
    for call in calls:
        if ended:
            raise PackError(f"a call after trumps were made ({calls}): the condensed form stops at the first")
        if position < players:
            if call not in ("Pass", "Order"):
                raise PackError(f"call {call!r} in the first round: the condensed form holds Pass or Order there")
            w.flag(call == "Order")
            ended = call == "Order"
        else:
            if call == "Pass":
                w.integer(0, 3)
            elif call in others:
                w.integer(others.index(call) + 1, 3)
                ended = True
            else:
                raise PackError(f"call {call!r} in the second round: the condensed form holds Pass or a suit "
                                f"other than the upcard's ({', '.join(others)})")
        position += 1
    if not ended and position < 2 * players:
        raise PackError(f"the bidding stops after {len(calls)} call(s), undecided: the condensed form holds a "
                        "finished bidding only")
    w.flag(bool(phase.get("isAlone")))
    defender = phase.get("aloneDefender", -1)
    if version >= 2 and phase.get("isAlone"):
        w.flag(defender >= 0)
        if defender >= 0:
            w.integer(defender, 7)
    elif defender >= 0:
        raise PackError("a lone defender without a lone maker")
    if version >= 3:
        w.flag("discard" in phase)
        if "discard" in phase:
            w.integer(cards.index(_card(phase["discard"], cards, "the discard")), len(cards) - 1)
    _write_annotations(w, phase.get("callAnnotations"))


def _write_play(w: _Writer, phase: dict[str, Any], remaining: list[str], cards: list[str], per: int,
                first: int | None) -> None:
    tricks = phase.get("tricks", [])
    w.integer(len(tricks), 7)
    for t, trick in enumerate(tricks):
        size = first if t == 0 and first is not None else per
        if len(trick) != min(size, len(remaining)):
            raise PackError(f"trick {t + 1} holds {len(trick)} card(s) where {size} are played: the condensed form "
                            "holds whole tricks only")
        for card in trick:
            card = _card(card, cards, f"trick {t + 1}: card")
            if card not in remaining:
                raise PackError(f"trick {t + 1}: {card} was played before; the condensed form plays each card once")
            index = remaining.index(card)
            w.integer(index, len(remaining) - 1)
            remaining.pop(index)
    _write_annotations(w, phase.get("playAnnotations"))


def _write_annotations(w: _Writer, notes: dict[str, list[str]] | None) -> None:
    keys = sorted(int(k) for k in (notes or {}) if str(k).isdigit())
    w.flag(bool(keys))
    if not keys:
        return
    w.integer(len(keys), 255)
    for key in keys:
        texts = notes[str(key)] if str(key) in notes else notes[key]  # type: ignore[index]
        w.integer(key, 255)
        w.integer(len(texts), 255)
        for text in texts:
            raw = text.encode("utf-8")
            w.integer(len(raw), 65535)
            w.parts.extend(format(byte, "08b") for byte in raw)
