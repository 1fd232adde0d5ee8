"""`fuzz` (and `identify`, which cites through the same index) names the rule a planted bug
breaks, as `check` does: a lone hand's partner who still plays breaks going alone, a wrong
opening leader the opening lead, a sitting-out seat asked to play the rule that put it out,
a scoring defect the scoring row of the hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.fuzzing.clauses import ClauseIndex
from conformance.fuzzing.lockstep import OverlappingEngine
from conformance.fuzzing.loop import Fuzzer
from conformance.corpus_tools.mutation import mutant_command
from reference_impl.resolve import resolve

HERE = Path(__file__).resolve().parent
OPENING_LEAD = {"lead", "lone-lead", "lone-lead-eldest", "maker-leads", "maker-leads-alone"}
SITTING_OUT = {"going-alone", "defending-alone"}
ROWS = {"made", "march", "lone-made", "lone-march", "euchre", "lone-euchre", "lone-defender-euchre",
        "lone-defender-march", "super-euchre"}

PLANTED = {
    "loners-partner-still-plays": {"going-alone"},
    "sitting-out-seat-may-act": SITTING_OUT,
    str(HERE / "planted_bugs" / "dealer_leads_first.py"): OPENING_LEAD,
    "march-scored-one": {"march"},
    "hand-points-to-both-sides": ROWS,
    "game-target-off-by-one": {"game-target"},
}


@pytest.mark.parametrize("engine, clauses", sorted(PLANTED.items()), ids=lambda v: Path(v).stem if isinstance(v, str) else "")
def test_fuzz_cites_the_broken_rule(engine, clauses):
    table = resolve("euchre")
    argv = mutant_command(engine)
    result = Fuzzer(lambda: OverlappingEngine(argv), "euchre", table, seed=1, hands=2000).run()
    assert result.divergences, "the planted bug went unseen"
    found = result.divergences[0]
    assert found.clause in clauses, (found.clause, found.phase, [d.field for d in found.differences])


def test_an_opening_leader_is_not_a_follow_suit_matter():
    index = ClauseIndex(resolve("euchre").table)
    after = {"phase": "play", "to_act": 1, "tricks": [], "alone": False, "sitting_out": []}
    assert index.cite("play", ["to_act", "legal"], after, {"to_act": 0}) == "lead"
    assert index.cite("play", ["to_act", "legal"], {**after, "alone": True, "maker": 0, "sitting_out": [2]},
                      {"to_act": 3}) == "lone-lead"
    later = {**after, "tricks": [{"leader": 1, "cards": [[1, "9S"]], "winner": None}]}
    assert index.cite("play", ["legal"], later, {"to_act": 2}) == "follow-suit"


def test_a_sitting_out_seat_asked_to_play_cites_the_rule_that_put_it_out():
    index = ClauseIndex(resolve("euchre").table)
    alone = {"phase": "play", "to_act": 1, "alone": True, "maker": 0, "defender_alone": None, "sitting_out": [2],
             "tricks": [{"leader": 1, "cards": [[1, "9S"]], "winner": None}]}
    assert index.cite("play", ["to_act", "legal"], {**alone, "to_act": 3}, {"to_act": 2}) == "going-alone"
    defended = {**alone, "defender_alone": 1, "sitting_out": [2, 3]}
    assert index.cite("play", ["to_act"], defended, {"to_act": 3}) == "defending-alone"
    assert index.cite("alone", ["sitting_out"], alone, {"sitting_out": []}) == "going-alone"


def test_a_scoring_defect_cites_the_row_not_the_game_end():
    index = ClauseIndex(resolve("euchre").table)
    after = {"phase": "game-over", "hand_points": [2, 0], "scoring_row": "march", "game_over": True, "scores": [10, 4]}
    assert index.cite("play", ["hand_points", "scores", "game_over"], after, {}) == "march"
