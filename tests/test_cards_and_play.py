"""The card and play mechanisms of tables: ranks of the table's own, in the order it writes
them (issue 30: a reordered rank list used to validate and then play the usual order); packs
that hold every card twice, named apart by a copy suffix, with the rule for two equal cards
in one trick; the play step's `must` rules (head, trump, overtrump) as conditions on the
legal set; and the refusals of data that would otherwise be silently ignored. Expected
values are worked out by hand from the rules stated in each test."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.egn.cards import CardError, to_egn
from reference_impl import ActionError, load_rules
from reference_impl.cards import base_of, card_name, copy_of, is_card, pack_cards, rank_of, suit_of
from reference_impl.catalog import variants_dir
from reference_impl.state import State
from reference_impl.validate import variant_problems
from support import act, legal_cards, make_deal, play_tricks


def table_copy(tmp_path: Path, variant: str, old: str, new: str) -> Path:
    """A copy of a built-in table (id ``<variant>-copy``) with one line changed (it must
    occur once)."""
    text = (variants_dir() / f"{variant}.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {variant}"
    path = tmp_path / f"{variant}-copy.yaml"
    path.write_text(text.replace(old, new).replace(f"id: {variant}\n", f"id: {variant}-copy\n", 1), encoding="utf-8")
    return path


def state_of(path_or_variant, hands, upcard=None, dealer=3, kitty="", widow="") -> State:
    state = State(load_rules(str(path_or_variant)), dealer)
    state.deal(make_deal(hands, upcard, kitty, widow))
    return state


# -- notation -------------------------------------------------------------------------------------------
def test_single_packs_keep_their_tokens_byte_for_byte():
    deck = {"suits": ["C", "D", "H", "S"], "ranks": ["9", "T", "J", "Q", "K", "A"], "extra": ["JK"]}
    assert pack_cards(deck) == [r + s for s in "CDHS" for r in "9TJQKA"] + ["JK"]
    assert load_rules("euchre").card_names == tuple(r + s for s in "CDHS" for r in "9TJQKA")


def test_copies_carry_a_suffix_after_the_first():
    deck = {"suits": ["C"], "ranks": ["9", "T"], "extra": ["JK"], "copies": 2}
    assert pack_cards(deck) == ["9C", "9C.2", "TC", "TC.2", "JK", "JK.2"]
    assert (base_of("AS.2"), copy_of("AS.2"), copy_of("AS"), rank_of("AS.2"), suit_of("AS.2")) == ("AS", 2, 1, "A", "S")
    assert card_name("AS.2") == "ace of spades (copy 2)"


def test_ranks_of_two_digits_and_the_pack_without_some_cards():
    assert (rank_of("11H"), suit_of("11H"), rank_of("13D")) == ("11", "H", "13")
    assert card_name("12S") == "twelve of spades"
    assert all(is_card(c) for c in ("11H", "13D.2", "JK", "JK.2", "TS")) and not any(
        is_card(c) for c in ("10H", "AS.1", "AS.", "1H", "AX"))
    rules = load_rules("five-hundred-six")
    assert rules.n_cards == 63 and "13H" in rules.card_index and "13C" not in rules.card_index


# -- the order the table writes ------------------------------------------------------------------------
KING_OVER_ACE = ("AS 9C TC 9D TD", "KS JC QC KC AC", "QS JD QD KD AD", "9S JH QH KH AH")


def test_a_king_written_above_the_ace_beats_it(tmp_path):
    path = table_copy(tmp_path, "euchre", '  ranks: ["9", T, J, Q, K, A]', '  ranks: ["9", T, J, Q, A, K]')
    state = state_of(path, KING_OVER_ACE, "9H", kitty="TS JS TH")
    act(state, "order pass discard:9H")          # seat 0 orders hearts; the dealer buries the upcard
    assert play_tricks(state, "AS KS QS 9S") == [1]   # the king of spades, above the ace, wins
    usual = state_of("euchre", KING_OVER_ACE, "9H", kitty="TS JS TH")
    act(usual, "order pass discard:9H")
    assert play_tricks(usual, "AS KS QS 9S") == [0]   # the same trick in the usual order


def test_an_ace_written_between_ten_and_jack_ranks_there(tmp_path):
    path = table_copy(tmp_path, "euchre", '  ranks: ["9", T, J, Q, K, A]', '  ranks: ["9", T, A, J, Q, K]')
    rules = load_rules(str(path))
    c = rules.card_index
    clubs, hearts = rules.suits.index("C"), rules.suits.index("H")
    plain = rules.power[hearts][clubs]            # clubs led, hearts trumps
    assert sorted(["9C", "TC", "AC", "JC", "QC", "KC"], key=lambda n: -plain[c[n]]) == ["KC", "QC", "JC", "AC", "TC", "9C"]
    trump = rules.power[hearts][hearts]           # the bowers head the trump suit, then K Q A T 9
    assert sorted(["9H", "TH", "AH", "JH", "QH", "KH", "JD"], key=lambda n: -trump[c[n]]) == \
        ["JH", "JD", "KH", "QH", "AH", "TH", "9H"]


def test_elevens_to_thirteens_rank_where_the_table_puts_them():
    rules = load_rules("five-hundred-six")
    c = rules.card_index
    hearts = rules.suits.index("H")
    power = rules.power[rules.NT][hearts]         # no-trumps, hearts led
    assert sorted(["TH", "11H", "12H", "13H", "JH", "2H"], key=lambda n: -power[c[n]]) == ["JH", "13H", "12H", "11H", "TH", "2H"]


# -- copies --------------------------------------------------------------------------------------------
DD = ("AS 9S.2 TS TS.2 JS JS.2 QS QS.2 TH TH.2 9H 9H.2", "AS.2 JH.2 QH QH.2 KH KH.2 AH AH.2 QC 9C 9C.2 TC",
      "KS KS.2 JH QC.2 TC.2 JC JC.2 KC 9D 9D.2 TD TD.2", "9S JD JD.2 KC.2 AC AC.2 QD QD.2 KD KD.2 AD AD.2")


def test_of_two_equal_cards_the_first_played_wins():
    state = state_of("double-deck-bid-euchre", DD)
    act(state, "bid:3 pass pass pass name:H")
    assert legal_cards(state) >= {"TS", "TS.2"}   # both copies held, both offered
    assert play_tricks(state, "AS AS.2 KS 9S") == [0]


def test_where_the_table_says_so_the_last_of_two_equal_cards_wins(tmp_path):
    path = table_copy(tmp_path, "double-deck-bid-euchre", "  equal-cards: first-played", "  equal-cards: last-played")
    state = state_of(path, DD)
    act(state, "bid:3 pass pass pass name:H")
    assert play_tricks(state, "AS AS.2 KS 9S") == [1]
    assert play_tricks(state, "JH.2 JH JD TH") == [2]  # seat 1 leads a right bower, seat 2's later one wins


def test_a_copy_not_in_the_pack_is_no_action():
    state = state_of("double-deck-bid-euchre", DD)
    act(state, "bid:3 pass pass pass name:H")
    with pytest.raises(ActionError) as caught:
        state.apply("play:AS.3")
    assert caught.value.category == "illegal_action"


def test_a_deal_giving_a_copy_twice_is_refused():
    rules = load_rules("double-deck-bid-euchre")
    hands = [h.split() for h in DD]
    hands[3][0] = "AS"                           # AS twice, 9S missing
    problems = rules.check_deal(make_deal([" ".join(h) for h in hands]))
    assert any("AS" in p and "twice" in p for p in problems)


# -- must: head, trump, overtrump ----------------------------------------------------------------------
LOO = ("7S AD 9D TC 3C", "9S 4S KH 5C 6C", "8S 2S QD 2D 7C", "3H QH 8C 9C KC", "2H 6H JC KD AC")


def test_loo_heads_trumps_and_overtrumps():
    state = state_of("five-card-loo", LOO, "5H", dealer=4)
    act(state, "play:7S")
    assert legal_cards(state) == {"9S"}                  # heads the seven; the four would not
    act(state, "play:9S")
    assert legal_cards(state) == {"8S", "2S"}            # cannot head the nine: either spade
    act(state, "play:2S")
    assert legal_cards(state) == {"3H", "QH"}            # void: must trump
    act(state, "play:3H")
    assert legal_cards(state) == {"6H", "JC"}            # must overtrump the 3H (Pam is a trump)


def test_overtrump_alone_leaves_a_discard_open(tmp_path):
    # Without `trump`, a void seat may discard; if it trumps, it must overtrump when it can.
    path = table_copy(tmp_path, "five-card-loo", "must: [head, trump, overtrump]", "must: [overtrump]")
    state = state_of(path, LOO, "5H", dealer=4)
    act(state, "play:7S play:4S play:2S")                # no heading: the four of spades is fine
    assert legal_cards(state) == {"3H", "QH", "8C", "9C", "KC"}   # no trump in the trick: any card
    act(state, "play:3H")
    assert legal_cards(state) == {"6H", "JC", "KD", "AC"}         # the 2H would not overtrump


def test_without_must_rules_any_card_of_the_suit_and_any_card_when_void(tmp_path):
    path = table_copy(tmp_path, "five-card-loo", ", must: [head, trump, overtrump]", "")
    state = state_of(path, LOO, "5H", dealer=4)
    act(state, "play:7S")
    assert legal_cards(state) == {"9S", "4S"}


def test_a_refused_card_says_which_rule(tmp_path):
    state = state_of("five-card-loo", LOO, "5H", dealer=4)
    act(state, "play:7S")
    with pytest.raises(ActionError, match="head the trick"):
        state.apply("play:4S")
    act(state, "play:9S play:2S")
    with pytest.raises(ActionError, match="must play a trump"):
        state.apply("play:8C")


# -- data that would be silent is refused at its line ---------------------------------------------------
def test_equal_cards_in_a_single_pack_is_refused(tmp_path):
    path = table_copy(tmp_path, "euchre", "  bowers: true\n", "  bowers: true\n  equal-cards: last-played\n")
    [problem] = variant_problems(path)
    assert problem.path == "$.ranking.equal-cards" and "copies" in problem.message
    assert problem.line is not None


def test_leaving_out_a_card_that_is_not_in_the_pack_is_refused(tmp_path):
    path = table_copy(tmp_path, "five-hundred-six", "  without: [13C, 13S]", "  without: [13C, 14S]")
    problems = variant_problems(path)
    assert any(p.path == "$.deck.without[1]" and "14S" in p.message for p in problems)


def test_trumps_turned_up_need_an_upcard(tmp_path):
    path = table_copy(tmp_path, "five-card-loo", "  upcard: true", "  upcard: false")
    problems = variant_problems(path)
    assert any("upcard" in p.message and p.path.endswith(".trumps") for p in problems)


# -- EGN ------------------------------------------------------------------------------------------------
def test_egn_writes_a_copy_as_its_card_and_refuses_ranks_it_has_not():
    assert (to_egn("AS.2"), to_egn("AS"), to_egn("JK.2")) == ("As", "As", "B")
    for card in ("11H", "2C"):
        with pytest.raises(CardError):
            to_egn(card)


def test_a_rank_the_pack_does_not_have_is_refused_where_it_is_named(tmp_path):
    # Ranks are the table's own vocabulary: an 8 in a nine-to-ace pack would match nothing.
    path = table_copy(tmp_path, "buck-euchre", "when: {upcard: {suits: [C]}}", 'when: {upcard: {ranks: ["8"]}}')
    problems = variant_problems(path)
    assert any(p.path.endswith(".when.upcard.ranks[0]") and "rank 8" in p.message for p in problems), problems


def test_a_cut_order_must_rank_every_rank_of_the_pack(tmp_path):
    path = table_copy(tmp_path, "five-hundred-six", '"12", "13", J, Q, K]', '"12", J, Q, K]')
    problems = variant_problems(path)
    assert any(p.path == "$.game.cut-order" and "13" in p.message for p in problems), problems


# -- a partner's winning trick ----------------------------------------------------------------------------
STRICT = '''  - id: play
    kind: play
    clause: lead
    must: [trump, overtrump]
    partner-winning-frees: [trump, overtrump]
'''


# Dealer 3 takes up the 9H (hearts trumps) and buries it; seats 0 and 2 are partners. Seat 0
# wins the spade trick and leads the AC; seat 1 follows with the 9C.
PARTNERS = ("AS AC TC 9D TD", "KS 9C QC KC JC", "QS JD QD KD AD", "9S JH QH KH AH")
PARTNERS_OPENING = "order pass discard:9H play:AS play:KS play:QS play:9S play:AC play:9C"


def test_a_void_seat_need_not_trump_its_partners_trick(tmp_path):
    path = table_copy(tmp_path, "euchre", "  - id: play\n    kind: play\n    clause: lead\n", STRICT)
    state = state_of(path, PARTNERS, "9H", kitty="TS JS TH")
    act(state, PARTNERS_OPENING)
    assert legal_cards(state) == {"JD", "QD", "KD", "AD"}   # void in clubs, partner seat 0 winning: free
    act(state, "play:KD")
    assert legal_cards(state) == {"JH", "QH", "KH", "AH"}   # the dealer's partner (seat 1) is not winning: trump


def test_without_the_partner_rule_the_void_seat_must_trump(tmp_path):
    strict = STRICT.replace("    partner-winning-frees: [trump, overtrump]\n", "")
    path = table_copy(tmp_path, "euchre", "  - id: play\n    kind: play\n    clause: lead\n", strict)
    state = state_of(path, PARTNERS, "9H", kitty="TS JS TH")
    act(state, PARTNERS_OPENING)
    assert legal_cards(state) == {"JD"}                      # the left bower, seat 2's only trump
    act(state, "play:JD")
    assert legal_cards(state) == {"JH"}                      # overtrump the left bower: the right bower only


def test_partner_winning_frees_needs_partners_and_a_must_rule(tmp_path):
    strict = STRICT.replace("partner-winning-frees: [trump, overtrump]", "partner-winning-frees: [head]")
    path = table_copy(tmp_path, "euchre", "  - id: play\n    kind: play\n    clause: lead\n", strict)
    problems = variant_problems(path)
    assert any("head is not one of the play's must rules" in p.message for p in problems), problems
