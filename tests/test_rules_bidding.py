"""Clauses round-1, round-2, turned-down-suit, throw-in, stick-the-dealer, benny-upcard,
and the refusal of bad, out-of-turn and illegal actions."""

import pytest

from reference_impl import ActionError
from support import D1, D1_KITTY, D1_UP, act, start


def test_round_1_goes_clockwise_from_the_eldest_hand():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    seen = []
    for _ in range(4):
        seen.append(state.to_act)
        assert state.legal_actions() == ["pass", "order"]
        act(state, "pass")
    assert seen == [1, 2, 3, 0]          # eldest (dealer's left) first, dealer last


def test_round_1_accept_makes_the_upcard_suit_trumps_and_the_acceptor_maker():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "pass pass order")        # seat 3 orders it up
    obs = state.observation()
    assert obs["trump"] == "H" and obs["maker"] == 3


def test_dealer_may_take_it_up_in_round_1():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "pass pass pass order")
    assert state.observation()["maker"] == 0 and state.observation()["trump"] == "H"


def test_round_2_after_four_passes_turns_the_upcard_down():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "pass pass pass pass")
    obs = state.observation()
    assert obs["phase"] == "bid-round-2" and obs["to_act"] == 1 and obs["turned_down"] == "H"
    # Any suit but the turned-down hearts, or pass.
    assert set(state.legal_actions()) == {"pass", "call:C", "call:D", "call:S"}
    act(state, "pass call:S")
    obs = state.observation()
    assert obs["trump"] == "S" and obs["maker"] == 2


def test_round_2_naming_the_turned_down_suit_is_refused_and_changes_nothing():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "pass pass pass pass")
    before = state.observation()
    with pytest.raises(ActionError) as caught:
        state.apply("call:H")
    assert caught.value.category == "illegal_action"
    assert state.observation() == before


def test_no_one_names_another_suit_once_trumps_are_made():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "pass pass pass pass call:C")
    assert state.phase == "alone"        # bidding is over: the maker decides on going alone
    with pytest.raises(ActionError):
        state.apply("call:D")


def test_throw_in_passes_the_deal_left_and_scores_nothing():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY, scores=[3, 4])
    act(state, "pass " * 8)
    obs = state.observation()
    assert obs["phase"] == "deal" and obs["next_dealer"] == 1 and obs["dealer"] == 1
    assert obs["hand_points"] == [0, 0] and obs["scores"] == [3, 4]
    assert state.is_chance_node() and not state.is_terminal()


def test_stick_the_dealer_forbids_the_dealers_second_pass():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY, options={"stick-the-dealer": True})
    act(state, "pass pass pass pass pass pass pass")
    assert state.to_act == 0
    assert set(state.legal_actions()) == {"call:C", "call:D", "call:S"}
    with pytest.raises(ActionError) as caught:
        state.apply("pass")
    assert caught.value.category == "illegal_action"
    act(state, "call:D")
    assert state.observation()["maker"] == 0


def test_without_stick_the_dealer_the_dealer_may_pass_in_round_2():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "pass pass pass pass pass pass pass")
    assert "pass" in state.legal_actions()


def test_out_of_turn_is_its_own_category():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    with pytest.raises(ActionError) as caught:
        state.apply("pass", seat=2)      # seat 1 is to act
    assert caught.value.category == "out_of_turn"
    state.apply("pass", seat=1)
    assert state.to_act == 2


@pytest.mark.parametrize("token", ["bogus", "play:ZZ", "", "call:X", 7])
def test_unknown_tokens_are_illegal_actions(token):
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    before = state.observation()
    with pytest.raises(ActionError) as caught:
        state.apply(token)
    assert caught.value.category == "illegal_action"
    assert state.observation() == before


def test_nothing_can_be_applied_while_a_deal_is_awaited():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "pass " * 8)
    with pytest.raises(ActionError) as caught:
        state.apply("pass")
    assert caught.value.category == "wrong_phase"


def test_a_known_action_in_the_wrong_phase_is_illegal():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    with pytest.raises(ActionError) as caught:
        state.apply("play:JH")
    assert caught.value.category == "illegal_action"


def test_benny_upcard_the_dealer_names_the_suit_then_bidding_goes_on():
    hands = ("9C TC QS KS AS", "JH JD AH 9S TS", "9D TD QD KD AD", "JC QC KC AC JS")
    state = start(hands, "JK", dealer=0, kitty="9H TH QH KH", options={"benny": "joker"})
    assert state.phase == "benny-suit" and state.to_act == 0
    assert set(state.legal_actions()) == {"name:C", "name:D", "name:H", "name:S"}
    act(state, "name:S")
    obs = state.observation()
    assert obs["phase"] == "bid-round-1" and obs["to_act"] == 1 and obs["upcard_suit"] == "S"
    act(state, "pass order")             # seat 2 orders spades
    assert state.observation()["trump"] == "S"
    act(state, "pass")                   # seat 2 does not go alone
    assert state.phase == "discard" and state.to_act == 0
    assert "discard:JK" in state.legal_actions()   # the dealer took up the Benny


def test_benny_upcard_turned_down_makes_the_named_suit_the_turned_down_suit():
    hands = ("9C TC QS KS AS", "JH JD AH 9S TS", "9D TD QD KD AD", "JC QC KC AC JS")
    state = start(hands, "JK", dealer=0, kitty="9H TH QH KH", options={"benny": "joker"})
    act(state, "name:D pass pass pass pass")
    assert state.observation()["turned_down"] == "D"
    assert "call:D" not in state.legal_actions()


def test_a_lone_bid_is_alone_as_soon_as_it_wins_the_auction():
    """Bid Euchre's moon (a bid with alone: true and no strain): the bidder plays alone from
    the moment the auction is won, before he names trumps; his partner sits out at once
    (issue 37: `alone` stayed false until trumps were named)."""
    import random as _random
    from reference_impl import load_rules, new_game
    rules = load_rules("bid-euchre")
    state = new_game(rules, dealer=0)
    state.deal_random(_random.Random(37))
    assert state.phase == "auction" and state.to_act == 1
    state.apply("bid:moon")
    for _ in range(3):
        state.apply("pass")
    assert (state.phase, state.maker, state.trump) == ("name-trumps", 1, -1)
    seen = state.observation()
    assert seen["alone"] is True and seen["sitting_out"] == [3], seen
