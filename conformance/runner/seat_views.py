"""Every seat's view at every step of a case, checked exactly against the reference's.

A case with ``views: every-step`` is replayed here, in process, on the reference
interpreter beside the engine under test; after the new game, each deal and each step the
runner asks the engine for every seat's view (``state`` with a ``seat``) and compares it
with the view the reference derives from the table's ``visibility``
(:func:`reference_impl.visibility.seat_view`). So a case checks thousands of views without
writing one down, and a leak or a hidden card anywhere fails it.

"Exact" means nothing missing and nothing extra: every field of the reference's view is
compared (``legal`` and each hand as sets, the history fields in full and required), and a
field the reference's view lacks fails the case when it names a card the reference's view
does not (a leak through a field of the engine's own).
"""

from __future__ import annotations

from typing import Any, Iterator

from reference_impl import Deal, new_game
from reference_impl.rules import Rules
from reference_impl.visibility import HISTORY_FIELDS

from conformance.cases import Case

VIEWS_EVERY_STEP = "every-step"
_RULES: dict[str, Rules] = {}
_KEEP_RULES = 256


def wants_views(case: Case, hello: dict[str, Any] | None) -> bool:
    """Whether the case asks for every view and the engine can answer them."""
    commands = (hello or {}).get("commands") or []
    return isinstance(case.data, dict) and case.data.get("views") == VIEWS_EVERY_STEP and "seat-view" in commands


class ReferenceReplay:
    """The case played on the reference, step for step with the engine."""

    def __init__(self, case: Case):
        table = case.table
        rules = _RULES.get(table.sha256)
        if rules is None:
            if len(_RULES) >= _KEEP_RULES:      # the requirements replay thousands of other tables
                _RULES.clear()
            rules = _RULES[table.sha256] = Rules(table)
        self.rules = rules
        self.names = frozenset(rules.card_names)
        setup = case.setup
        if "dealer" in setup:
            self.state = new_game(rules, setup["dealer"], scores=setup.get("scores"))
        else:
            first = setup["first_dealer"]
            cards = first["cards"].split() if isinstance(first["cards"], str) else first["cards"]
            self.state = new_game(rules, first_dealer_cards=cards, start_seat=first.get("start", 0),
                                  scores=setup.get("scores"))

    def deal(self, deal: dict[str, Any]) -> None:
        if "deck" in deal:
            self.state.deal(self.rules.deal_from_order(deal["deck"], self.state.dealer))
        else:
            self.state.deal(Deal(tuple(tuple(h) for h in deal["hands"]), deal.get("upcard"),
                                 tuple(deal.get("widow", ())), tuple(deal.get("kitty", ()))))

    def act(self, seat: int, action: str) -> None:
        self.state.apply(action, seat)

    def view(self, seat: int) -> dict[str, Any]:
        return self.state.observation(seat)


def card_tokens(value: Any, names: frozenset[str]) -> Iterator[str]:
    """Card tokens anywhere in a JSON value (a card, or an action token ending in one; not a
    bid or a contract, whose ids may read like cards)."""
    if isinstance(value, str):
        head, _, card = value.rpartition(":")
        if card in names and head != "bid":
            yield card
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "contract":
                yield from card_tokens(item, names)
    elif isinstance(value, list):
        for item in value:
            yield from card_tokens(item, names)


def view_differences(expected: dict[str, Any], actual: Any, names: frozenset[str]) -> list[tuple[str, Any, Any]]:
    """(field, expected, actual) for each way ``actual`` is not exactly the view ``expected``."""
    from conformance.runner.compare import MISSING, diff_states
    found = [(d.field, d.expected, d.actual) for d in diff_states(expected, actual)]
    if not isinstance(actual, dict):
        return found
    for key in HISTORY_FIELDS:
        if key in expected and key not in actual:
            found.append((key, expected[key], MISSING))
    allowed = set(card_tokens(expected, names))
    for key in sorted(set(actual) - set(expected)):
        extra = sorted(set(card_tokens(actual[key], names)) - allowed)
        if extra:
            found.append((key, "no card the seat cannot see", actual[key]))
    return found
