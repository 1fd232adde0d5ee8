"""Clauses made, march, lone-made, lone-march, euchre, super-euchre, lone-defender-euchre,
lone-defender-march (and its option), game-target and players (partnership scores).

Every hand is played out card by card; the expected points come from seat 001's scoring
paragraph, the trick winners from the ranking (comments give the reason).
"""

from support import D1, D1_KITTY, D1_UP, D2, D2_KITTY, D2_UP, act, play_tricks, start

# Seat 0 (dealer) holds four hearts and the ace and king of spades; seat 1 holds the right bower.
D3 = ("JD AH KH AS KS", "JH 9S TS 9C TC", "9D TD QD KD AD", "JC QC KC AC JS")
D3_UP, D3_KITTY = "9H", "QH TH QS"
# Seat 0 (dealer) holds the five highest hearts.
D4 = ("JH JD AH KH QH", "9S TS AS 9C TC", "9D TD QD KD AD", "JC QC KC AC JS")
D4_UP, D4_KITTY = "9H", "TH QS KS"


def result(state):
    obs = state.observation()
    return obs["scoring_row"], obs["hand_points"]


def test_makers_taking_three_tricks_score_one():
    state = start(D1, D1_UP, kitty=D1_KITTY)
    act(state, "order pass discard:9C")              # seat 1 makes hearts with a partner
    winners = play_tricks(state,
                          "JH 9D JC 9H",              # right bower
                          "JD TD QC TC",              # left bower, no trump left out
                          "AH QD KC QS",              # ace of trumps
                          "9S KD JS AS",              # ace of spades
                          "KS TS AD AC")              # king of spades: diamonds and clubs are off suit
    assert winners == [1, 1, 1, 0, 0]
    assert result(state) == ("made", [0, 1])         # seats 1 & 3 are partnership 1


def test_march_scores_two():
    state = start(D2, D2_UP, kitty=D2_KITTY)
    act(state, "order pass discard:9C")
    play_tricks(state, "JH 9D JC 9H", "JD TD QC TC", "AH QD KC QS", "KH KD AC KS", "QH AD JS AS")
    assert result(state) == ("march", [0, 2])


def test_lone_march_scores_four():
    state = start(D2, D2_UP, kitty=D2_KITTY)
    act(state, "order alone pass pass discard:9C")  # seat 1 alone; seat 2 leads (maker's left)
    winners = play_tricks(state, "9D TC JH", "JD TD 9H", "AH QD QS", "KH KD KS", "QH AD AS")
    assert winners == [1] * 5
    assert result(state) == ("lone-march", [0, 4])


def test_lone_maker_taking_three_tricks_scores_one():
    state = start(D1, D1_UP, kitty=D1_KITTY)
    act(state, "order alone pass pass discard:9C")
    winners = play_tricks(state,
                          "9D TC 9S",                 # diamonds led, only one diamond
                          "TD QS TS",
                          "QD 9H JH",                 # dealer trumps, the right bower over-trumps
                          "JD KD KS",                 # left bower leads trumps
                          "AH AD AS")
    assert winners == [2, 2, 1, 1, 1]
    assert result(state) == ("lone-made", [0, 1])


def test_euchred_makers_give_the_defenders_two():
    state = start(D2, D2_UP, kitty=D2_KITTY)
    act(state, "pass order pass discard:9C")         # seat 2 makes hearts; seat 1 holds all five top trumps
    play_tricks(state, "JH 9D JC 9H", "JD TD QC TC", "AH QD KC QS", "KH KD AC KS", "QH AD JS AS")
    assert result(state) == ("euchre", [0, 2])


def test_super_euchre_gives_the_defenders_four():
    state = start(D2, D2_UP, kitty=D2_KITTY, options={"super-euchre": True})
    act(state, "pass order pass discard:9C")
    play_tricks(state, "JH 9D JC 9H", "JD TD QC TC", "AH QD KC QS", "KH KD AC KS", "QH AD JS AS")
    assert result(state) == ("super-euchre", [0, 4])


def test_super_euchre_needs_zero_tricks():
    state = start(D1, D1_UP, kitty=D1_KITTY, options={"super-euchre": True})
    act(state, "pass order pass discard:9C")         # seat 2 makes hearts; seat 1 holds JH JD AH
    winners = play_tricks(state, "JH 9D JC 9H", "JD TD QC TC", "AH QD KC QS", "9S KD JS AS", "KS TS AD AC")
    assert winners == [1, 1, 1, 0, 0]
    assert result(state) == ("euchre", [0, 2])       # two tricks: an ordinary euchre


def test_lone_defender_taking_four_tricks_scores_one_as_the_seed_says():
    state = start(D3, D3_UP, kitty=D3_KITTY)
    act(state, "order alone pass defend-alone discard:KS")   # seat 1 alone, seat 0 defends alone
    assert state.to_act == 0
    winners = play_tricks(state, "JD JH", "9S AS", "AH 9C", "KH TC", "9H TS")
    assert winners == [1, 0, 0, 0, 0]
    assert result(state) == ("lone-defender-euchre", [1, 0])


def test_lone_defender_euchre_scores_four_with_the_railroad_option():
    state = start(D3, D3_UP, kitty=D3_KITTY, options={"lone-defender-scoring": "four-for-euchre"})
    act(state, "order alone pass defend-alone discard:KS")
    play_tricks(state, "JD JH", "9S AS", "AH 9C", "KH TC", "9H TS")
    assert result(state) == ("lone-defender-euchre-four", [4, 0])


def test_lone_defender_march_scores_four():
    state = start(D4, D4_UP, kitty=D4_KITTY, options={"super-euchre": True})
    act(state, "order alone pass defend-alone discard:9H")   # the dealer buries the upcard
    winners = play_tricks(state, "JH 9S", "JD TS", "AH AS", "KH 9C", "QH TC")
    assert winners == [0] * 5
    assert result(state) == ("lone-defender-march", [4, 0])


def test_a_lone_maker_who_makes_it_against_a_lone_defender_scores_as_usual():
    state = start(D2, D2_UP, kitty=D2_KITTY)
    act(state, "order alone defend-alone")       # seat 2 defends alone: the dealer sits out, no exchange
    assert state.observation()["sitting_out"] == [0, 3] and state.to_act == 2
    play_tricks(state, "9D JH", "JD TD", "AH QD", "KH KD", "QH AD")
    assert result(state) == ("lone-march", [0, 4])


def test_reaching_the_target_ends_the_game():
    state = start(D2, D2_UP, kitty=D2_KITTY, scores=[3, 8])
    act(state, "order pass discard:9C")
    play_tricks(state, "JH 9D JC 9H", "JD TD QC TC", "AH QD KC QS", "KH KD AC KS", "QH AD JS AS")
    obs = state.observation()
    assert obs["scores"] == [3, 10] and obs["game_over"] and obs["winner"] == 1
    assert state.is_terminal() and state.legal_actions() == [] and obs["next_dealer"] is None


def test_below_the_target_the_deal_passes_left():
    state = start(D2, D2_UP, kitty=D2_KITTY, scores=[3, 7])
    act(state, "order pass discard:9C")
    play_tricks(state, "JH 9D JC 9H", "JD TD QC TC", "AH QD KC QS", "KH KD AC KS", "QH AD JS AS")
    obs = state.observation()
    assert obs["scores"] == [3, 9] and not obs["game_over"] and obs["next_dealer"] == 1
    assert state.is_chance_node()


def test_game_to_five_option():
    state = start(D2, D2_UP, kitty=D2_KITTY, scores=[0, 3], options={"game-target": 5})
    act(state, "order pass discard:9C")
    play_tricks(state, "JH 9D JC 9H", "JD TD QC TC", "AH QD KC QS", "KH KD AC KS", "QH AD JS AS")
    assert state.observation()["winner"] == 1


def test_partners_score_together():
    state = start(D2, D2_UP, kitty=D2_KITTY, dealer=2)
    # Dealer 2: seat 3 is eldest. Seat 1 still holds the five top hearts and orders up.
    act(state, "pass pass order pass discard:9D")
    assert state.to_act == 3
    play_tricks(state, "JC 9C JH TD", "JD 9H QC TC", "AH QD KC QS", "KH KD AC KS", "QH AD JS AS")
    assert result(state) == ("march", [0, 2])       # seat 1's points go to partnership 1 (seats 1 and 3)
