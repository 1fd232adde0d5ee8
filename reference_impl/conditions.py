"""The one condition language and the one seat reference, compiled to closures.

A condition (``when``, ``forced``, ``eligible``, ``win-requires``) is a mapping of atoms
that must all hold, with ``any``, ``all`` and ``not``. Each atom compiles once to a small
function of the game state and of the seat or scoring unit being considered (``self``);
a condition compiles to the conjunction of its atoms. The hot path (the play) never
evaluates one: conditions are asked once per step, per offer or per scored hand.

A seat reference (``dealer``, ``eldest``, ``maker``, ``maker-left``, ``dealer-partner``,
``maker-partner``, ``defender-alone``, ``holder:<card>``) compiles to a function of the state
giving a seat, or -1 when there is none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from .cards import base_of, rank_of, suit_of
from .errors import SpecError

if TYPE_CHECKING:                      # pragma: no cover
    from .rules import Rules
    from .state import State

Predicate = Callable[["State", int, int], bool]      # (state, self seat, self unit) -> holds
SeatFunction = Callable[["State"], int]

STRAINS = ("C", "D", "H", "S")


def strain_index(rules: "Rules", strain: str) -> int:
    """The trump context of a strain: a suit's index, or NT, or NL."""
    if strain == "NT":
        return rules.NT
    if strain == "NL":
        return rules.NL
    return rules.suits.index(strain)


def _partner_of(rules: "Rules", seat: int) -> int:
    """The one seat opposite ``seat`` in a game of teams of two (-1 otherwise)."""
    if seat < 0 or not rules.teams:
        return -1
    mates = [s for s in rules.units[rules.unit_of[seat]] if s != seat]
    return mates[0] if len(mates) == 1 else -1


def seat_function(rules: "Rules", ref: str) -> SeatFunction:
    """Compile a seat reference."""
    left = rules.left
    if ref == "dealer":
        return lambda state: state.dealer
    if ref == "eldest":
        return lambda state: left[state.dealer]
    if ref == "maker":
        return lambda state: state.maker
    if ref == "maker-left":
        return lambda state: left[state.maker] if state.maker >= 0 else -1
    if ref == "dealer-partner":
        return lambda state: _partner_of(rules, state.dealer)
    if ref == "maker-partner":
        return lambda state: _partner_of(rules, state.maker)
    if ref == "defender-alone":
        return lambda state: state.defender_alone
    if ref.startswith("holder:"):
        card = rules.card_index.get(ref[len("holder:"):])
        if card is None:
            raise SpecError(f"{ref}: no such card in the pack")
        bit = 1 << card
        return lambda state: next((s for s, hand in enumerate(state.hands) if hand & bit), -1)
    raise SpecError(f"unknown seat reference {ref!r}")


def _span(value: Any) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else (value[0], value[1])


def card_mask(rules: "Rules", spec: Mapping[str, Any]) -> int:
    mask = 0
    for c, token in enumerate(rules.card_names):
        name = base_of(token)                 # every copy of a card belongs where the card does
        if "ranks" in spec and (name == "JK" or rank_of(name) not in spec["ranks"]):
            continue
        if "suits" in spec and (name == "JK" or suit_of(name) not in spec["suits"]):
            continue
        if "cards" in spec and name not in spec["cards"]:
            continue
        mask |= 1 << c
    return mask


def _self_seats(state: "State", seat: int, unit: int) -> tuple[int, ...]:
    return (seat,) if seat >= 0 else state.rules.units[unit] if unit >= 0 else ()


def round_number(table: Mapping[str, Any], step: Any) -> int:
    """The number of the bidding round a ``round`` atom names: the `make-trumps` step of
    that id, counted among the hand's `make-trumps` steps (a number is taken as it is; the
    semantic checks refuse one in a table, and a step id that names no such step)."""
    if isinstance(step, int):
        return step
    rounds = [s["id"] for s in table["hand"] if s["kind"] == "make-trumps"]
    return rounds.index(step) + 1 if step in rounds else -1


def _atom(rules: "Rules", key: str, value: Any) -> Predicate:
    """One atom of the closed registry (the schema's `$defs/condition`)."""
    if key == "round":
        number = round_number(rules.table, value)
        return lambda state, seat, unit: state.round == number
    if key == "upcard":
        if value == "benny":
            benny = rules.cards.benny_mask
            return lambda state, seat, unit: state.upcard >= 0 and bool(benny >> state.upcard & 1)
        mask = card_mask(rules, value)
        return lambda state, seat, unit: state.upcard >= 0 and bool(mask >> state.upcard & 1)
    if key == "trump":
        wanted = value if isinstance(value, list) else [value]
        if wanted == ["none"]:
            return lambda state, seat, unit: state.trump < 0
        contexts = frozenset(strain_index(rules, s) for s in wanted if s != "none")
        return lambda state, seat, unit: state.trump in contexts
    if key == "maker":
        if value == "dealer":
            return lambda state, seat, unit: state.maker >= 0 and state.maker == state.dealer
        if value == "not-dealer":
            return lambda state, seat, unit: state.maker >= 0 and state.maker != state.dealer
        if value == "dealer-partner":
            return lambda state, seat, unit: state.maker >= 0 and state.maker == _partner_of(rules, state.dealer)
        if value == "eldest":
            return lambda state, seat, unit: state.maker >= 0 and state.maker == rules.left[state.dealer]
        return lambda state, seat, unit: state.maker < 0
    if key == "alone":
        return lambda state, seat, unit: state.alone == value
    if key == "defender-alone":
        return lambda state, seat, unit: (state.defender_alone >= 0) == value
    if key == "partner":
        return lambda state, seat, unit: (state.partner >= 0) == (value == "called")
    if key == "contract":
        return lambda state, seat, unit: (state.maker < 0) == (value == "none")
    if key == "bid":
        ids = frozenset(value)
        return lambda state, seat, unit: state.bid >= 0 and rules.bid_list[state.bid].id in ids
    if key == "made":
        return lambda state, seat, unit: state.maker >= 0 and state.made() == value
    if key in ("maker-tricks", "defender-tricks"):
        low, high = _span(value)
        makers = key == "maker-tricks"

        def tricks(state: "State", seat: int, unit: int) -> bool:
            count = state.maker_side_tricks()
            if not makers:
                count = len(state.tricks) - count
            return low <= count <= high
        return tricks
    if key == "trick-sequence":
        pattern = value

        def sequence(state: "State", seat: int, unit: int) -> bool:
            side = state.maker_side()
            if len(state.tricks) != len(pattern):
                return False
            for want, (_leader, _cards, winner) in zip(pattern, state.tricks):
                if want != "." and (want == "M") != (winner in side):
                    return False
            return True
        return sequence
    if key == "hand-number":
        low, high = _span(value)
        return lambda state, seat, unit: low <= state.hand_number <= high
    if key == "self":
        return _self_atom(rules, value)
    if key == "self-tricks":
        low, high = _span(value)
        return lambda state, seat, unit: low <= sum(state.tricks_won[s] for s in _self_seats(state, seat, unit)) <= high
    if key == "self-in-hand":
        return lambda state, seat, unit: any(state.active >> s & 1 for s in _self_seats(state, seat, unit)) == value
    if key == "holds" and value["of"].get("trumps"):
        return _holds_trumps(rules, value)
    if key == "holds":
        mask = card_mask(rules, value["of"])
        at_least, at_most, only = value.get("at-least"), value.get("at-most"), value.get("only", False)

        def holds(state: "State", seat: int, unit: int) -> bool:
            for s in _self_seats(state, seat, unit):
                hand = state.hands[s]
                count = bin(hand & mask).count("1")
                if at_least is not None and count < at_least:
                    return False
                if at_most is not None and count > at_most:
                    return False
                if only and hand & ~mask:
                    return False
            return True
        return holds
    if key == "stood":
        return _stood_atom(value)
    if key == "reneged":
        return lambda state, seat, unit: bool(state.claimable(seat)) if seat >= 0 else False
    if key == "renege-claimed":
        return _renege_claimed_atom(value)
    if key == "conceded":
        side = ("none", "makers", "defenders").index(value)   # the state's CONCEDED_* order
        return lambda state, seat, unit: state.conceded == side
    if key == "forced-contract":
        return lambda state, seat, unit: state.forced == value
    if key == "counter":
        ident, at_least = value["id"], value.get("at-least")

        def counter(state: "State", seat: int, unit: int) -> bool:
            values = state.counters[ident]
            index = seat if seat >= 0 and rules.counter_per_player[ident] else unit if unit >= 0 else rules.unit_of[seat]
            return at_least is None or values[index] >= at_least
        return counter
    if key == "score":
        return _score_atom(rules, value.get("at-least"), value.get("at-most"))
    if key == "any":
        parts = [compile_condition(rules, part) for part in value]
        return lambda state, seat, unit: any(part(state, seat, unit) for part in parts)
    if key == "all":
        parts = [compile_condition(rules, part) for part in value]
        return lambda state, seat, unit: all(part(state, seat, unit) for part in parts)
    if key == "not":
        inner = compile_condition(rules, value)
        return lambda state, seat, unit: not inner(state, seat, unit)
    raise SpecError(f"unknown condition {key!r}")


def _holds_trumps(rules: "Rules", value: Mapping[str, Any]) -> Predicate:
    """``holds`` of a card set narrowed to the trump suit in force (the king of trumps):
    one mask per trump context, compiled once; nothing is a trump before trumps are made
    or at no-trumps."""
    base = card_mask(rules, value["of"])
    masks = tuple(base & rules.suit_mask[ctx][ctx] if ctx < rules.NT else 0 for ctx in range(len(rules.suit_mask)))
    at_least, at_most, only = value.get("at-least", 0), value.get("at-most"), value.get("only", False)

    def holds(state: "State", seat: int, unit: int) -> bool:
        mask = masks[state.trump] if state.trump >= 0 else 0
        for s in _self_seats(state, seat, unit):
            hand = state.hands[s]
            count = bin(hand & mask).count("1")
            if count < at_least or (at_most is not None and count > at_most) or (only and hand & ~mask):
                return False
        return True
    return holds


def _score_atom(rules: "Rules", low: int | None, high: int | None) -> Predicate:
    """A side's score within bounds, either of which may be absent. A function of its own:
    compiled, a name keeps the type of its first assignment in the whole function, and
    ``_atom``'s ``low`` is an int (a trick count), which an absent bound (None) is not."""
    def score(state: "State", seat: int, unit: int) -> bool:
        points = state.scores[unit if unit >= 0 else rules.unit_of[seat]]
        return (low is None or points >= low) and (high is None or points <= high)
    return score


def _stood_atom(value: str) -> Predicate:
    """Who stood in an exchange by proposal: ``self`` (the seat or unit considered played
    without proposing, or refused, before any exchange), ``other``, or ``nobody``."""
    def stood(state: "State", seat: int, unit: int) -> bool:
        if state.stood < 0:
            return value == "nobody"
        mine = state.stood in _self_seats(state, seat, unit)
        return mine if value == "self" else not mine if value == "other" else False
    return stood


def _renege_claimed_atom(value: str) -> Predicate:
    """Against whom a renege was claimed this hand: ``makers``, ``defenders``, ``both`` (the
    claims cancel), or ``none``."""
    def claimed(state: "State", seat: int, unit: int) -> bool:
        makers = 0
        for s in state.maker_side():
            makers |= 1 << s
        against_makers, against_defenders = bool(state.claimed & makers), bool(state.claimed & ~makers)
        if value == "makers":
            return against_makers and not against_defenders
        if value == "defenders":
            return against_defenders and not against_makers
        if value == "both":
            return against_makers and against_defenders
        return not state.claimed
    return claimed


def _self_atom(rules: "Rules", role: str) -> Predicate:
    def test(state: "State", seat: int, unit: int) -> bool:
        seats = _self_seats(state, seat, unit)
        if role == "dealer":
            return state.dealer in seats
        if role == "maker":
            return state.maker in seats
        if role == "not-maker":
            return state.maker not in seats
        if role == "dealer-partner":
            return _partner_of(rules, state.dealer) in seats
        if role == "eldest":
            return rules.left[state.dealer] in seats
        side = state.maker_side()
        if role == "maker-side":
            return any(s in side for s in seats)
        return state.maker >= 0 and not any(s in side for s in seats)
    return test


def _always(state: "State", seat: int, unit: int) -> bool:
    return True


def always(state: "State", seat: int, unit: int) -> bool:
    """The condition that always holds (an absent ``when``, ``eligible``)."""
    return True


def never(state: "State", seat: int, unit: int) -> bool:
    """The condition that never holds (an absent ``forced``)."""
    return False


def nobody(state: "State") -> int:
    """The seat reference that names no seat (an absent ``stuck``): -1."""
    return -1


def compile_condition(rules: "Rules", condition: Mapping[str, Any] | None) -> Predicate:
    """A condition mapping as one predicate (an empty or absent condition always holds)."""
    if not condition:
        return _always
    atoms = [_atom(rules, key, value) for key, value in condition.items()]
    if len(atoms) == 1:
        return atoms[0]
    return lambda state, seat, unit: all(atom(state, seat, unit) for atom in atoms)
