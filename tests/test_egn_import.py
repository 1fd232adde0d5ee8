"""Importing EGN records as cases: every bid, lone call, lone defence, discard, card passed and
card played; expectations from the reference interpreter; what the record leaves unseen filled
by a fixed rule and said so. (The whole set of imported cases is run on the reference engine in
test_egn_check.py.)"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from conformance.cases import load_case_file, load_corpus_meta
from conformance.egn.export import game_from_events, to_egn
from conformance.egn.importer import build_case, dump_case, load_game
from conformance.egn.record import EgnUnsupported
from conformance.egn.ruleset import options_for_flags
from conformance.egn.record import FLAGS
from reference_impl import load_rules, new_game
from reference_impl.selfplay import random_action

FIXTURES = Path(__file__).parent / "fixtures" / "egn"
SOUND = sorted(p.name for p in FIXTURES.glob("*.egn") if not p.name.startswith(("defect-", "invalid-", "unsupported-")))


def steps(case: dict, hand: int | None = None) -> list[tuple[int, str]]:
    hands = case["hands"] if hand is None else [case["hands"][hand]]
    return [(s["seat"], s["action"]) for h in hands for s in h["steps"]]


def imported(name: str) -> dict:
    game = load_game(FIXTURES / name)
    assert game.defect is None, game.defect
    return build_case(game, FIXTURES / name)


@pytest.mark.parametrize("name", SOUND)
def test_each_sound_record_becomes_a_case_the_suite_loads(name, tmp_path):
    case = imported(name)
    path = tmp_path / f"{case['id']}.yaml"
    path.write_text(dump_case(case, name), encoding="utf-8")
    cases, problems = load_case_file(path, load_corpus_meta().tags)
    assert problems == [] and len(cases) == 1
    loaded = cases[0]
    anchors = {c["id"] for c in loaded.table.table["clauses"]}
    assert loaded.clauses and set(loaded.clauses) <= anchors           # clauses of the resolved table only
    assert set(case["options"]) >= set(options_for_flags({f: d for f, (_, d) in FLAGS.items()}))  # every flag's option
    record = json.loads((FIXTURES / name).read_text())
    assert len(case["hands"]) == len(record["deals"])
    assert case["setup"]["dealer"] == record["deals"][0]["initialState"]["dealer"]
    assert case["setup"].get("scores", [0, 0]) == record["metadata"]["initialScore"]
    if "finalScore" in record["metadata"]:
        assert case["expect"]["scores"] == record["metadata"]["finalScore"]
        assert "agrees with the replay" in case["description"]
    assert "The kitty is never recorded" in case["description"]
    plays = [c for deal in record["deals"] for p in deal["phases"] if p["type"] == "TRICK_PLAY" for t in p["tricks"] for c in t]
    assert sum(a.startswith("play:") for _, a in steps(case)) == len(plays)


def test_the_hand_written_order_gives_the_expected_case_exactly():
    case = imported("hand-written-order.egn")
    hand = case["hands"][0]
    assert hand["deal"] == {"hands": ["9C TC QS KS AS", "JD JH AH 9S TS", "9D TD QD KD AD", "JC QC KC AC JS"],
                            "upcard": "9H", "kitty": "TH QH KH"}
    assert steps(case)[:3] == [(1, "order"), (1, "pass"), (0, "discard:9C")]
    assert [s["expect"]["trick_winner"] for s in hand["steps"] if "trick_winner" in s.get("expect", {})] == [1, 1, 1, 0, 0]
    assert hand["expect"]["hand_points"] == [0, 1] and hand["expect"]["scores"] == [0, 1]
    assert case["expect"] == {"scores": [0, 1], "game_over": False}
    assert "seat 0's discard for the upcard it took (9C), not in the record" in case["description"]
    assert "The record stops before the game's end." in case["description"]


def test_the_hand_written_loner_skips_the_sitting_out_eldest_and_reads_bowers_written_r_and_l():
    case = imported("hand-written-loner.egn")
    assert case["options"]["lone-lead"] == "eldest"
    assert steps(case)[:5] == [(1, "pass"), (2, "pass"), (3, "order"), (3, "alone"), (0, "discard:QS")]
    plays = [s for s in steps(case) if s[1].startswith("play:")]
    assert plays[0] == (2, "play:9C")                       # seat 1 sits out: the dealer's partner leads
    assert (3, "play:JH") in plays and (3, "play:JD") in plays
    assert case["expect"] == {"scores": [9, 10], "game_over": True, "winner": 1}
    assert "seat 1's 9D TD QD 9H TH (it sits out)" in case["description"]


def _hand_with(case: dict, predicate) -> dict:
    return next(h for h in case["hands"] if predicate([(s["seat"], s["action"]) for s in h["steps"]]))


def test_a_stuck_dealer_names_a_suit_after_seven_passes():
    case = imported("stuck-dealer.egn")
    assert case["options"]["stick-the-dealer"] is True
    hand = _hand_with(case, lambda st: [a for _, a in st[:7]] == ["pass"] * 7 and st[7][1].startswith("call:"))
    assert hand["steps"][7]["seat"] == hand["after_deal"]["dealer"]
    assert "stick-the-dealer" in case["tags"]


def test_a_buried_upcard_is_the_dealers_discard():
    case = imported("buried-upcard.egn")
    hand = next(h for h in case["hands"] if any(s["action"] == f"discard:{h['deal']['upcard']}" for s in h["steps"]))
    assert hand["deal"]["upcard"] not in [a[5:] for _, a in [(s["seat"], s["action"]) for s in hand["steps"]] if a.startswith("play:")]


def test_a_canadian_loner_is_not_asked():
    case = imported("canadian.egn")
    assert case["options"]["canadian-loner"] is True
    hand = next(h for h in case["hands"] for i, s in enumerate(h["steps"]) if s["action"] == "order"
                and s["seat"] == (h["after_deal"]["dealer"] + 2) % 4)
    order = next(s for s in hand["steps"] if s["action"] == "order")
    assert order["expect"]["alone"] is True                 # forced at once
    assert all(s["action"] != "alone" for s in hand["steps"])


def test_a_lone_defence_sits_both_partners_out():
    case = imported("lone-defence.egn")
    step = next(s for h in case["hands"] for s in h["steps"] if s["action"] == "defend-alone")
    assert step["seat"] == 0 and len(step["expect"]["sitting_out"]) == 2
    assert case["options"]["lone-defender-scoring"] == "four-for-euchre"


@pytest.mark.parametrize("name, actions", [
    ("farmers.egn", ["swap", "discard:"]), ("going-under.egn", ["swap", "discard:"]),
    ("partners-best.egn", ["give:", "take", "discard:"]), ("joker.egn", ["name:"]), ("no-trump.egn", ["call:NT"]),
])
def test_each_house_rule_shows_in_the_steps(name, actions):
    case = imported(name)
    tokens = [a for _, a in steps(case)]
    for action in actions:
        assert any(t.startswith(action) for t in tokens), action


def test_a_fast_break_scores_nothing_and_tokens_turn_into_a_point():
    case = imported("fast-break.egn")
    assert any(h.get("expect", {}).get("hand_points") == [0, 0] and any(a.startswith("play:") for _, a in
               [(s["seat"], s["action"]) for s in h["steps"]]) for h in case["hands"])
    assert "fast-break" in case["clauses"]
    tokens = imported("four-trick-tokens.egn")
    assert tokens["options"]["four-trick-tokens"] is True and "four-trick-tokens" in tokens["clauses"]


@pytest.mark.parametrize("name, low", [("min-rank-7.egn", "7"), ("min-rank-8.egn", "8")])
def test_a_longer_pack_deals_its_low_cards(name, low):
    case = imported(name)
    cards = " ".join(" ".join(h["deal"]["hands"]) + " " + h["deal"]["kitty"] for h in case["hands"])
    assert f"{low}C" in cards.split() and case["options"]["lowest-rank"] == int(low)


def test_a_fixed_number_of_deals_ends_the_game_without_a_target():
    case = imported("num-deals.egn")
    assert case["options"]["fixed-deals"] == 4 and case["options"]["game-target"] == 0
    assert len(case["hands"]) == 4 and case["expect"]["game_over"] is True


def test_an_unfinished_game_stops_where_the_record_stops():
    case = imported("unfinished.egn")
    last = case["hands"][-1]
    assert last["expect"]["phase"] == "play"
    record = json.loads((FIXTURES / "unfinished.egn").read_text())
    tricks = record["deals"][-1]["phases"][1]["tricks"]
    assert len(tricks[-1]) < len(tricks[0])                 # the record stops within a trick
    assert sum(a.startswith("play:") for _, a in steps(case, -1)) == sum(len(t) for t in tricks)
    assert case["expect"]["game_over"] is False
    assert "not played before the record stops" in case["description"]


def test_a_throw_in_scores_nothing_and_passes_the_deal():
    case = imported("throw-in.egn")
    hand = _hand_with(case, lambda st: [a for _, a in st] == ["pass"] * 8)
    assert hand["expect"]["hand_points"] == [0, 0]
    assert "throw-in" in case["tags"] and "throw-in" in case["clauses"]


def test_import_is_reproducible(tmp_path):
    first = dump_case(imported("joker.egn"), "joker.egn")
    assert dump_case(imported("joker.egn"), "joker.egn") == first


@pytest.mark.parametrize("name, words", [
    ("unsupported-num-players.egn", "ruleset num_players 3"), ("unsupported-min-rank.egn", "ruleset min_rank 6"),
    ("unsupported-unknown-call.egn", "unknown call"),
])
def test_a_record_we_cannot_say_is_refused_naming_why(name, words):
    with pytest.raises(EgnUnsupported, match=words):
        load_game(FIXTURES / name)


# -- records as most are kept: no hands shown, no discards, no annotations ------------------------------
EGN_DEFAULTS = {flag: default for flag, (_, default) in FLAGS.items()}
SETS = [{}, {"farmers": True, "go_under": True}, {"partners_best": True, "defend_alone": True},
        {"joker": True, "allow_no_trump": True}, {"canadian": True, "loner_lead": "LEFT_OF_LONER", "min_rank": 7}]


def _play(rules, seed: int):
    rng = random.Random(seed)
    state = new_game(rules, dealer=rng.randrange(4), scores=[6, 6])
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal_random(rng)
        else:
            state.apply(random_action(rng, state))
    return state


@pytest.mark.parametrize("flags", SETS, ids=[",".join(s) or "defaults" for s in SETS])
def test_a_sparse_record_replays_to_the_same_plays_and_scores(flags, tmp_path):
    rules = load_rules("euchre", options_for_flags({**EGN_DEFAULTS, **flags}))
    for seed in range(3):
        state = _play(rules, seed)
        dealer, hands = game_from_events(rules, state.events)
        record = to_egn(rules, dealer, hands, scores=[6, 6])
        for deal in record["deals"]:
            deal["initialState"].pop("playerCards")
            for phase in deal["phases"]:
                for key in ("discard", "callAnnotations", "playAnnotations"):
                    phase.pop(key, None)
        path = tmp_path / f"game-{seed}.egn"
        path.write_text(json.dumps(record))
        game = load_game(path)
        assert game.defect is None, (seed, game.defect)
        played = [(e[1], e[2]) for e in state.events if e[0] == "action" and e[2].startswith("play:")]
        replayed = [(s["seat"], s["action"]) for h in game.hands for s in h.steps if s["action"].startswith("play:")]
        if not (flags.get("joker") and played != replayed):      # a Benny's suit unrecorded may be read otherwise
            assert replayed == played
        assert game.state.scores == state.scores


def test_a_record_cut_anywhere_imports_without_a_defect(tmp_path):
    rules = load_rules("euchre", options_for_flags({**EGN_DEFAULTS, "partners_best": True, "farmers": True}))
    state = _play(rules, 5)
    dealer, hands = game_from_events(rules, state.events)
    full = to_egn(rules, dealer, hands, scores=[6, 6])
    full["metadata"].pop("finalScore", None)
    rng = random.Random(1)
    for k in range(12):
        record = copy.deepcopy(full)
        record["deals"] = record["deals"][:rng.randrange(len(record["deals"])) + 1]
        last = record["deals"][-1]
        if k % 3 == 0:
            last["phases"] = last["phases"][:1]
            last["phases"] and last["phases"][0].update(calls=last["phases"][0]["calls"][:rng.randrange(3)])
        elif len(last["phases"]) > 1:
            cards = [c for t in last["phases"][1]["tricks"] for c in t]
            keep = rng.randrange(len(cards) + 1)
            size = len(last["phases"][1]["tricks"][0])
            last["phases"][1]["tricks"] = [cards[i:i + size] for i in range(0, keep, size)]
        path = tmp_path / f"cut-{k}.egn"
        path.write_text(json.dumps(record))
        game = load_game(path)
        assert game.defect is None, (k, game.defect)
        build_case(game, path)


def test_lone_hands_score_what_the_ruleset_says():
    case = imported("lone-scores.egn")
    assert (case["options"]["lone-march-points"], case["options"]["lone-euchre-points"], case["options"]["game-target"]) \
        == (5, 3, 11)
    points = [max(h["expect"]["hand_points"]) for h in case["hands"] if h.get("expect", {}).get("hand_points")]
    assert 5 in points and 3 in points
    assert {"lone-march", "lone-euchre"} <= set(case["clauses"])


def test_a_record_that_stops_after_the_call_without_isalone_stops_before_the_lone_call(tmp_path):
    record = json.loads((FIXTURES / "hand-written-order.egn").read_text())
    deal = record["deals"][0]
    deal["phases"] = [deal["phases"][0]]
    deal["phases"][0].pop("discard", None)
    deal["phases"][0].pop("isAlone", None)
    path = tmp_path / "stops.egn"
    path.write_text(json.dumps(record), encoding="utf-8")
    stops = build_case(load_game(path), path)
    assert steps(stops)[-1] == (1, "order")                      # the lone call is not made: the record stops
    deal["phases"][0]["isAlone"] = False
    path.write_text(json.dumps(record), encoding="utf-8")
    goes_on = build_case(load_game(path), path)
    assert steps(goes_on)[:2] == [(1, "order"), (1, "pass")]     # isAlone false: seat 1 declined to go alone
