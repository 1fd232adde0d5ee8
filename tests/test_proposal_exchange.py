"""The exchange by proposal at the edges the corpus cases do not reach: the stock running out
(no one may lay out more cards than it can replace, and with none left the proposal is over),
the table's number of exchanges, and a declaration that ends the game before the play."""

from __future__ import annotations

from reference_impl import Deal, Rules, State, load_rules
from reference_impl.resolve import resolve

HANDS = (("7C", "8C", "9D", "TD", "QH"), ("AH", "KH", "JH", "8S", "9S"))
STOCK = ("KS", "QS", "JS", "AS", "TS", "9C", "TC", "AC", "JC", "QC", "KC", "7D", "8D", "AD", "JD", "QD", "KD",
         "7H", "8H", "9H", "TH")


def dealt(options=None) -> State:
    state = State(load_rules("ecarte", options or {}), 1)
    state.deal(Deal(HANDS, "7S", (), STOCK))
    return state


def exchange(state: State, lay_out: int) -> None:
    """The non-dealer proposes, the dealer accepts, the non-dealer lays out his first
    ``lay_out`` cards and draws; the dealer keeps his hand."""
    state.apply("propose", 0)
    state.apply("accept", 1)
    for _ in range(lay_out):
        card = next(a for a in state.legal_actions() if a.startswith("discard:"))
        state.apply(card, 0)
    state.apply("draw", 0)
    state.apply("draw", 1)


def test_no_more_cards_are_laid_out_than_the_stock_can_replace():
    state = dealt()
    for _ in range(4):                       # 21 cards in the stock: four exchanges of five leave one
        exchange(state, 5)
    assert len(state.kitty) == 1 and state.phase == "propose"
    state.apply("propose", 0)
    state.apply("accept", 1)
    first = next(a for a in state.legal_actions() if a.startswith("discard:"))
    state.apply(first, 0)
    assert state.legal_actions() == ["draw"], "one card left in the stock: one card laid out at most"
    state.apply("draw", 0)
    assert state.legal_actions() == ["draw"], "the stock is empty: the dealer can only keep his hand"
    state.apply("draw", 1)
    # With no card left no proposal can be served: the play begins, and no one stood.
    assert state.phase in ("play", "mark-king") and state.kitty == [] and state.stood == -1


def test_the_tables_number_of_exchanges_ends_the_proposals():
    state = dealt()
    exchange(state, 1)
    assert state.phase == "propose", "by default the non-dealer may propose again after an exchange"
    resolved = resolve("ecarte", {})
    next(s for s in resolved.table["hand"] if s["kind"] == "propose")["exchanges"] = 1
    state = State(Rules(resolved), 1)
    state.deal(Deal(HANDS, "7S", (), STOCK))
    exchange(state, 1)
    # One exchange allowed: no proposal; he drew the KS, top of the stock, and may mark it.
    assert state.exchanges == 1 and state.phase == "mark-king" and state.to_act == 0


def test_standing_after_an_exchange_is_not_standing():
    state = dealt()
    exchange(state, 2)
    state.apply("stand", 0)
    assert state.stood == -1
    state = dealt()
    state.apply("propose", 0)
    state.apply("refuse", 1)
    assert state.stood == 1, "the dealer refused the first proposal: he stood"


def test_a_declaration_that_reaches_the_target_ends_the_game_before_a_card_is_played():
    state = State(load_rules("ecarte"), 1, scores=[4, 0])
    hands = (("7C", "8C", "9D", "TD", "KS"), ("AH", "KH", "JH", "8S", "9S"))
    stock = tuple(c for c in STOCK if c != "KS") + ("QH",)
    state.deal(Deal(hands, "7S", (), stock))
    state.apply("stand", 0)
    assert state.legal_actions() == ["pass", "mark-king"]
    state.apply("mark-king", 0)
    assert state.is_terminal() and state.returns() == [5, 0] and state.winner == 0 and state.tricks == []
