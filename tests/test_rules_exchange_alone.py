"""Clauses dealer-pickup, dealer-keeps-upcard, going-alone, sitting-out-dealer,
defending-alone, partners-best, and the alone-declared option."""

import pytest

from reference_impl import ActionError
from support import D1, D1_KITTY, D1_UP, act, start


def test_the_dealer_takes_the_upcard_and_may_discard_any_of_six():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "order pass")             # seat 1 orders up, does not go alone
    assert state.phase == "discard" and state.to_act == 0
    # The dealer's five cards plus the upcard, the upcard included.
    assert set(state.legal_actions()) == {f"discard:{c}" for c in "9C TC QS KS AS 9H".split()}
    act(state, "discard:9H")             # burying the upcard itself is allowed
    assert state.observation()["hands"][0] == ["9C", "TC", "QS", "KS", "AS"]
    assert state.phase == "play"


def test_not_upcard_option_keeps_the_upcard_in_the_dealers_hand():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY, options={"dealer-discard": "not-upcard"})
    act(state, "order pass")
    assert "discard:9H" not in state.legal_actions()
    with pytest.raises(ActionError) as caught:
        state.apply("discard:9H")
    assert caught.value.category == "illegal_action"
    act(state, "discard:9C")
    assert "9H" in state.observation()["hands"][0]


def test_no_upcard_is_taken_after_round_2():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "pass pass pass pass call:S pass")
    assert state.phase == "play"         # no discard: the upcard was turned down
    assert len(state.observation()["hands"][0]) == 5


def test_a_card_not_held_cannot_be_discarded():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "order pass")
    with pytest.raises(ActionError) as caught:
        state.apply("discard:JH")        # seat 1 holds it, not the dealer
    assert caught.value.category == "illegal_action"


def test_going_alone_puts_the_partner_out_of_the_hand():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "order")
    assert state.phase == "alone" and set(state.legal_actions()) == {"pass", "alone"}
    act(state, "alone")
    assert state.observation()["alone"] is True
    assert state.observation()["sitting_out"] == [3]       # seat 1's partner


def test_defending_alone_is_offered_from_the_makers_left_and_the_partner_sits_out():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "order alone")
    assert state.phase == "defend-alone" and state.to_act == 2
    act(state, "pass")
    assert state.to_act == 0             # seat 3 is the maker's partner and is skipped
    act(state, "defend-alone")
    obs = state.observation()
    assert obs["defender_alone"] == 0 and obs["sitting_out"] == [2, 3]


def test_defending_alone_is_not_offered_against_a_maker_with_a_partner():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "order pass")
    assert state.phase == "discard"


def test_defending_alone_option_off():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY, options={"defending-alone": False})
    act(state, "order alone")
    assert state.phase == "discard"


def test_going_alone_option_off():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY, options={"going-alone": False})
    act(state, "order")
    assert state.phase == "discard"


def test_a_dealer_who_sits_out_does_not_take_the_upcard():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "pass order alone")       # seat 2, the dealer's partner, orders alone
    act(state, "pass pass")              # seats 3 and 1 do not defend alone
    obs = state.observation()
    assert obs["sitting_out"] == [0] and obs["phase"] == "play"
    assert obs["hands"][0] == ["9C", "TC", "QS", "KS", "AS"]


def test_alone_declared_after_the_exchange():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY, options={"alone-declared": "after-exchange"})
    act(state, "order")
    assert state.phase == "discard" and state.to_act == 0
    act(state, "discard:9C")
    assert state.phase == "alone" and state.to_act == 1


def test_railroading_partner_passes_a_card_the_loner_takes_and_discards():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY, options={"railroading": True})
    act(state, "order alone pass pass")  # seat 1 alone; seats 2 and 0 do not defend alone
    act(state, "discard:9C")             # the dealer's exchange comes first
    assert state.phase == "partners-best" and state.to_act == 3
    assert "pass" in state.legal_actions() and "give:JC" in state.legal_actions()
    act(state, "give:JC")
    assert state.phase == "take-best" and state.to_act == 1
    assert set(state.legal_actions()) == {"take", "pass"}
    act(state, "take")
    assert state.phase == "discard" and state.to_act == 1
    assert "discard:JC" in state.legal_actions()
    act(state, "discard:9S")
    assert state.observation()["hands"][1] == ["JC", "JD", "JH", "AH", "TS"]
    assert state.phase == "play"


def test_railroading_loner_may_refuse_the_card():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY, options={"railroading": True})
    act(state, "order alone pass pass discard:9C give:AC pass")
    assert state.phase == "play"
    assert "AC" not in state.observation()["hands"][1]


def test_without_railroading_the_partner_passes_nothing():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "order alone pass pass discard:9C")
    assert state.phase == "play"
