"""Clauses players, deck, first-dealer (and its random option), deal and upcard."""

import random

import pytest

from reference_impl import SpecError, new_game
from support import make_deal, rules_for

ORDER = ("9C TC JC QC KC AC 9D TD JD QD KD AD 9H TH JH QH KH AH 9S TS JS QS KS AS").split()


def test_the_pack_has_24_cards_nine_to_ace():
    rules = rules_for()
    assert sorted(rules.card_names) == sorted(ORDER)


def test_the_benny_option_adds_a_25th_card():
    assert "JK" in rules_for({"benny": "joker"}).card_names
    assert len(rules_for({"benny": "two-of-spades"}).card_names) == 25


def test_deal_three_then_two_starting_left_of_the_dealer():
    rules = rules_for()
    deal = rules.deal_from_order(ORDER, dealer=0)
    # Packets of three to seats 1, 2, 3, 0 (cards 1-12), then packets of two (cards 13-20).
    assert deal.hands[1] == ("9C", "TC", "JC", "9H", "TH")
    assert deal.hands[2] == ("QC", "KC", "AC", "JH", "QH")
    assert deal.hands[3] == ("9D", "TD", "JD", "KH", "AH")
    assert deal.hands[0] == ("QD", "KD", "AD", "9S", "TS")
    assert deal.upcard == "JS"          # the 21st card is turned up
    assert deal.kitty == ("QS", "KS", "AS")


def test_deal_rotates_with_the_dealer():
    rules = rules_for()
    deal = rules.deal_from_order(ORDER, dealer=2)
    assert deal.hands[3][:3] == ("9C", "TC", "JC")     # seat 3 is left of dealer 2
    assert deal.hands[2][:3] == ("QD", "KD", "AD")     # the dealer's packet comes last


def test_a_deal_must_be_a_real_pack():
    rules = rules_for()
    with pytest.raises(SpecError, match="cards given twice: 9C"):
        rules.deal_from_order(["9C"] + ORDER[1:-1] + ["9C"], dealer=0)
    with pytest.raises(SpecError, match="not cards of this pack: 2C"):
        rules.deal_from_order(["2C"] + ORDER[1:], dealer=0)


def test_explicit_deals_are_checked():
    rules = rules_for()
    game = new_game(rules, dealer=0)
    bad = make_deal(["9C TC JC QC", "KC AC 9D TD JD", "QD KD AD 9H TH", "JH QH KH AH 9S"], "TS")
    with pytest.raises(SpecError, match="seat 0 holds 4 cards, not 5"):
        game.deal(bad)
    twice = make_deal(["9C TC JC QC KC", "KC AC 9D TD JD", "QD KD AD 9H TH", "JH QH KH AH 9S"], "TS")
    with pytest.raises(SpecError, match="cards dealt twice: KC"):
        game.deal(twice)
    no_up = make_deal(["9C TC JC QC KC", "AC 9D TD JD QD", "KD AD 9H TH JH", "QH KH AH 9S TS"], None)
    with pytest.raises(SpecError, match="an upcard is required"):
        game.deal(no_up)
    assert game.is_chance_node()        # nothing changed


def test_first_black_jack_deals():
    rules = rules_for()
    cards = ["9C", "JD", "QS", "JC", "AH"]   # the jack of diamonds is red: dealt on
    assert rules.first_dealer_by_black_jack(cards, start=0) == 3
    assert rules.first_dealer_by_black_jack(cards, start=2) == 1
    assert rules.first_dealer_by_black_jack(["JS"], start=1) == 1
    with pytest.raises(SpecError, match="no black jack"):
        rules.first_dealer_by_black_jack(["JD", "JH", "9C"])


def test_new_game_chooses_the_first_dealer_from_the_cards():
    game = new_game(rules_for(), first_dealer_cards=["AH", "KH", "JS"], start_seat=1)
    assert game.dealer == 3 and game.events[0] == ("first-dealer", 3)


def test_random_first_dealer_option_draws_a_seat():
    rules = rules_for({"first-dealer": "random"})
    seats = {new_game(rules, rng=random.Random(seed)).dealer for seed in range(40)}
    assert seats == {0, 1, 2, 3}


def test_random_deals_are_reproducible_from_a_seed():
    rules = rules_for()
    a = rules.random_deal(random.Random(5), dealer=1)
    b = rules.random_deal(random.Random(5), dealer=1)
    assert a == b and sorted(c for h in a.hands for c in h) != []


def test_deal_random_matches_random_deal_for_the_same_seed():
    rules = rules_for()
    game = new_game(rules, dealer=1)
    game.deal_random(random.Random(9))
    expected = rules.random_deal(random.Random(9), dealer=1)
    assert [tuple(h) for h in game.observation()["hands"]] == [tuple(sorted(h, key=rules.card_index.get)) for h in expected.hands]
    assert game.observation()["upcard"] == expected.upcard
