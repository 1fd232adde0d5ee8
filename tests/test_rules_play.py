"""Clauses rank-trump, rank-plain, left-bower-is-trump, benny, lead, lone-lead,
follow-suit and trick-winner."""

import pytest

from reference_impl import ActionError
from support import D1, D1_KITTY, D1_UP, act, legal_cards, play_tricks, start

# Dealer 3, so seat 0 is eldest and leads. Hearts will be trumps (upcard 9H).
D5 = ("AH KH QH AS KS", "JD 9D TD 9S TS", "QD KD AD JS QS", "JC QC KC AC 9C")
D5_UP, D5_KITTY = "9H", "TC JH TH"


def hearts_trumps_d5(options=None):
    state = start(D5, D5_UP, dealer=3, kitty=D5_KITTY, options=options)
    act(state, "order pass discard:9C")  # seat 0 orders hearts; dealer 3 buries the nine of clubs
    assert state.phase == "play" and state.to_act == 0
    return state


def test_the_eldest_hand_leads_whoever_the_maker_is():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "pass pass order pass discard:9C")    # seat 3 is maker
    assert state.to_act == 1


def test_left_bower_must_follow_a_trump_lead_when_it_is_the_only_trump():
    state = hearts_trumps_d5()
    act(state, "play:AH")
    assert legal_cards(state) == {"JD"}  # the jack of diamonds is a heart now


def test_left_bower_cannot_follow_its_printed_suit():
    # Dealer 1: seat 2 is eldest and leads a diamond; seat 1 holds JD 9D TD.
    state = start(D5, D5_UP, dealer=1, kitty=D5_KITTY)
    act(state, "order pass discard:9S")  # seat 2 orders hearts; dealer 1 discards
    act(state, "play:QD")
    assert state.to_act == 3
    act(state, "play:JC play:KS")        # seats 3 and 0 are void in diamonds
    assert legal_cards(state) == {"9D", "TD"}   # JD is not a diamond
    with pytest.raises(ActionError) as caught:
        state.apply("play:JD")
    assert caught.value.category == "illegal_action"


def test_left_bower_alone_is_void_in_its_printed_suit():
    hands = ("AH KH QH AS KS", "JD 9S TS 9C TC", "QD KD AD JS QS", "JC QC KC AC TD")
    state = start(hands, "9H", dealer=1, kitty="9D JH TH")
    act(state, "order pass discard:9S")
    act(state, "play:QD play:TD play:KS")     # seat 3 follows with TD; seat 0 is void
    assert legal_cards(state) == {"JD", "TS", "9C", "TC", "9H"}   # seat 1 has no diamond at all


def test_leading_the_left_bower_leads_trumps():
    state = start(D5, D5_UP, dealer=0, kitty=D5_KITTY)
    act(state, "order pass discard:KS")  # seat 1 orders hearts (dealer 0 holds AH KH QH 9H)
    assert state.to_act == 1
    act(state, "play:JD")
    assert legal_cards(state) == {"QD", "KD", "AD", "JS", "QS"}   # seat 2: no trump, any card
    act(state, "play:QD")
    act(state, "play:9C")                # seat 3 has no heart
    assert legal_cards(state) == {"AH", "KH", "QH", "9H"}          # dealer must follow trumps


def test_trump_ranking_right_bower_left_bower_then_ace():
    state = hearts_trumps_d5()
    winners = play_tricks(state, "AH JD JS 9H")
    assert winners == [1]                # left bower beats the ace and the nine of trumps


def test_right_bower_beats_left_bower():
    hands = ("JH 9C TC AS KS", "JD 9D TD 9S TS", "QD KD AD JS QS", "JC QC KC AC AH")
    state = start(hands, "9H", dealer=3, kitty="TH QH KH")
    act(state, "order pass discard:JC")
    assert play_tricks(state, "JH JD QD AH") == [0]


def test_highest_card_of_the_suit_led_wins_without_trumps():
    state = hearts_trumps_d5()
    play_tricks(state, "AH JD JS 9H")    # seat 1 wins and leads next
    winners = play_tricks(state, "9S QS AC KS")   # spades led: KS beats QS; AC is off suit
    assert winners == [0]


def test_a_trump_beats_the_suit_led():
    hands = ("AH KH QH AS KS", "JD 9D TD 9S TS", "QD KD AD JS QS", "JC QC KC AC 9C")
    state = start(hands, "9H", dealer=3, kitty="TC JH TH")
    act(state, "order pass discard:9C")
    play_tricks(state, "AS 9S JS AC")    # seat 0 wins with the ace of spades
    assert play_tricks(state, "KS TS QS 9H") == [3]   # the dealer's nine of trumps wins


def test_must_follow_suit_when_able():
    state = hearts_trumps_d5()
    act(state, "play:AS")
    assert legal_cards(state) == {"9S", "TS"}
    with pytest.raises(ActionError) as caught:
        state.apply("play:9D")
    assert caught.value.category == "illegal_action"


def test_a_card_not_held_cannot_be_played():
    state = hearts_trumps_d5()
    with pytest.raises(ActionError) as caught:
        state.apply("play:JD")           # seat 1 holds it; seat 0 is to play
    assert caught.value.category == "illegal_action"


def test_trick_winner_leads_the_next_trick():
    state = hearts_trumps_d5()
    play_tricks(state, "AH JD JS 9H")
    assert state.to_act == 1 and state.observation()["tricks"][-1]["winner"] == 1


def test_lone_lead_is_the_makers_left():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "pass pass order alone pass pass discard:9C")   # seat 3 alone; 0 and 2 decline
    assert state.to_act == 0             # the player on seat 3's left


def test_lone_lead_skips_a_seat_that_sits_out():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "order alone pass defend-alone discard:9C")   # seat 1 alone; seat 0 defends alone
    # Seat 2 (maker's left) sits out, seat 3 is the loner's partner: seat 0 leads.
    assert state.observation()["sitting_out"] == [2, 3] and state.to_act == 0


def test_lone_lead_eldest_option():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY, options={"lone-lead": "eldest"})
    act(state, "pass order alone pass pass")     # seat 2 alone: the dealer sits out, no exchange
    assert state.to_act == 1             # the eldest hand still leads (not seat 3, the loner's left)


def test_lone_lead_eldest_option_skips_the_sitting_out_eldest():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY, options={"lone-lead": "eldest"})
    act(state, "pass pass order alone pass pass discard:9C")   # seat 3 alone: eldest seat 1 sits out
    assert state.to_act == 2             # the next player in the hand (not seat 0, the loner's left)


def test_a_lone_hand_trick_has_one_card_per_player_in_the_hand():
    state = start(D1, D1_UP, dealer=0, kitty=D1_KITTY)
    act(state, "order alone pass pass discard:9C")
    play_tricks(state, "9D TC JH")      # seats 2, 0, 1: seat 3 sits out
    assert [s for s, _ in state.tricks[0][1]] == [2, 0, 1]


def test_benny_is_the_highest_trump_and_leading_it_leads_trumps():
    hands = ("JK 9C TC KS AS", "JH JD AH 9S TS", "9D TD QD KD AD", "JC QC KC AC JS")
    state = start(hands, "9H", dealer=3, kitty="TH QH KH QS", options={"benny": "joker"})
    act(state, "order pass discard:JS")  # seat 0 orders hearts
    act(state, "play:JK")
    assert legal_cards(state) == {"JH", "JD", "AH"}        # trumps must follow the Benny
    assert play_tricks(state, "JH 9D 9H") == [0]           # the Benny beats the right bower


def test_benny_must_follow_a_trump_lead_when_it_is_the_only_trump():
    hands = ("AH 9C TC KS AS", "JK 9S TS 9D TD", "QD KD AD JH JD", "JC QC KC AC JS")
    state = start(hands, "9H", dealer=3, kitty="TH QH KH QS", options={"benny": "joker"})
    act(state, "order pass discard:JS")
    act(state, "play:AH")
    assert legal_cards(state) == {"JK"}


def test_two_of_spades_benny_is_a_trump_not_a_spade():
    hands = ("AH 9C TC KS AS", "2S 9D TD QD KD", "JD AD JH 9S TS", "JC QC KC AC JS")
    state = start(hands, "9H", dealer=3, kitty="TH QH KH QS", options={"benny": "two-of-spades"})
    act(state, "order pass discard:JS")
    act(state, "play:AS")
    assert legal_cards(state) == {"2S", "9D", "TD", "QD", "KD"}   # void in spades
    act(state, "play:2S")
    act(state, "play:9S play:AC")
    assert state.tricks[0][2] == 1      # the Benny trumps the ace of spades
