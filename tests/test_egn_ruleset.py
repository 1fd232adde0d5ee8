"""EGN's ruleset flags and the options of the euchre table: each flag maps to the option the
table marks with ``egn:``, every flag is written explicitly (EGN's defaults differ from the
table's), and each flag value survives the way back."""

from __future__ import annotations

import pytest

from conformance.egn.record import FLAGS
from conformance.egn.ruleset import (Unmappable, flag_options, flags_for_rules, noted_options, options_for_flags,
                                     options_note, rules_for)
from reference_impl import load_rules
from reference_impl.resolve import resolve

DEFAULTS = {flag: default for flag, (_, default) in FLAGS.items()}


def flags(**changes):
    out = dict(DEFAULTS)
    out.update(changes)
    if changes.get("num_deals"):
        out["winning_score"] = changes.get("winning_score", 0)
    return out


def test_every_egn_flag_but_num_players_has_an_option_that_says_so_in_the_table():
    table = resolve("euchre").table
    marked = {option["egn"]: key for key, option in table["options"].items() if option.get("egn")}
    assert marked == flag_options()
    assert set(marked) == set(FLAGS) - {"num_players"}


def test_a_record_without_a_ruleset_gets_egns_defaults_not_the_tables():
    options = options_for_flags(DEFAULTS)
    assert options["stick-the-dealer"] is True           # the table's default is false
    assert options["lone-lead"] == "eldest"               # the table's default is maker-left
    assert options["defending-alone"] is False            # the table's default is true
    table = resolve("euchre").table["options"]
    assert set(options) == set(flag_options().values())   # every flag's option written, explicitly
    assert any(options[k] != table[k]["default"] for k in options)


# (flag, value) -> the options it sets (beyond the defaults' mapping)
CASES = [
    ("std", True, {"stick-the-dealer": True}), ("std", False, {"stick-the-dealer": False}),
    ("min_rank", 9, {"lowest-rank": 9}), ("min_rank", 8, {"lowest-rank": 8}), ("min_rank", 7, {"lowest-rank": 7}),
    ("winning_score", 5, {"game-target": 5}), ("winning_score", 11, {"game-target": 11}),
    ("num_deals", 8, {"fixed-deals": 8, "game-target": 0}),
    ("canadian", True, {"canadian-loner": True}), ("canadian", False, {"canadian-loner": False}),
    ("loner_lead", "LEFT_OF_DEALER", {"lone-lead": "eldest"}), ("loner_lead", "LEFT_OF_LONER", {"lone-lead": "maker-left"}),
    ("loner_march_score", 3, {"lone-march-points": 3}), ("loner_march_score", 5, {"lone-march-points": 5}),
    ("loner_euchred_score", 3, {"lone-euchre-points": 3}), ("loner_euchred_score", 4, {"lone-euchre-points": 4}),
    ("defend_alone", True, {"defending-alone": True, "lone-defender-scoring": "four-for-euchre"}),
    ("defend_alone", False, {"defending-alone": False}),
    ("farmers", True, {"farmers-hand": True}), ("partners_best", True, {"railroading": True}),
    ("go_under", True, {"going-under": True}), ("joker", True, {"benny": "joker"}), ("joker", False, {"benny": "none"}),
    ("allow_no_trump", True, {"no-trump": True}), ("fast_break", True, {"fast-break": True}),
    ("four_trick_tokens", True, {"four-trick-tokens": True}),
]


@pytest.mark.parametrize("flag, value, expected", CASES, ids=[f"{f}={v}" for f, v, _ in CASES])
def test_each_flag_value_maps_to_its_option_and_back(flag, value, expected):
    given = flags(**{flag: value})
    options = options_for_flags(given)
    for key, option_value in expected.items():
        assert options[key] == option_value
    ruleset = flags_for_rules(rules_for(options))
    assert ruleset.extras == {}
    assert ruleset.flags[flag] == value
    written = dict(ruleset.flags)
    assert ("winning_score" in written) != ("num_deals" in written)     # EGN: one or the other, never both
    back = options_for_flags({**given, **written})
    assert back == options


@pytest.mark.parametrize("flag, value, words", [
    ("num_players", 3, "three-hand-dummy"), ("num_players", 2, "two-hand"), ("num_players", 6, "six-hand"),
    ("min_rank", 6, "lowest-rank"), ("loner_march_score", 0, "lone-march-points"),
    ("loner_euchred_score", 25, "lone-euchre-points"), ("winning_score", 1001, "game-target"),
])
def test_a_flag_value_no_option_has_is_refused_naming_the_flag(flag, value, words):
    with pytest.raises(Unmappable) as caught:
        options_for_flags(flags(**{flag: value}))
    assert f"ruleset {flag} {value}" in str(caught.value) and words in str(caught.value)


def test_rules_egn_cannot_say_are_refused_or_noted():
    with pytest.raises(Unmappable, match="benny=two-of-spades"):
        flags_for_rules(load_rules("euchre", {"benny": "two-of-spades", "lone-defender-scoring": "four-for-euchre"}))
    with pytest.raises(Unmappable, match="never both"):
        flags_for_rules(load_rules("euchre", {"game-target": 10, "fixed-deals": 4}))
    with pytest.raises(Unmappable, match="variant british"):
        flags_for_rules(load_rules("british"))
    ruleset = flags_for_rules(load_rules("euchre"))            # the table's defaults
    assert ruleset.flags["defend_alone"] is True
    assert ruleset.extras == {"lone-defender-scoring": "one-or-four"}


def test_the_options_note_names_only_options_without_a_flag():
    note = options_note({"lone-defender-scoring": "one-or-four", "super-euchre": True})
    assert note == "euchre-spec options: lone-defender-scoring=one-or-four, super-euchre=true."
    noted, ignored = noted_options(f"Exported. {note}")
    assert noted == {"lone-defender-scoring": "one-or-four", "super-euchre": True} and ignored == []
    noted, ignored = noted_options("euchre-spec options: stick-the-dealer=false, no-such=1, super-euchre=maybe.")
    assert noted == {} and set(ignored) == {"stick-the-dealer=false", "no-such=1", "super-euchre=maybe"}
    assert noted_options(None) == ({}, [])
