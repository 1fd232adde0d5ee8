"""Broken rule tables fail with the file, the line and the JSON path of each problem."""

from pathlib import Path

import pytest

from reference_impl.catalog import variants_dir
from reference_impl.resolve import resolve_file
from reference_impl.validate import variant_problems

SOURCE = (variants_dir() / "euchre.yaml").read_text(encoding="utf-8")


def broken_copy(tmp_path: Path, old: str, new: str, name: str = "euchre.yaml") -> Path:
    assert SOURCE.count(old) >= 1, old
    path = tmp_path / name
    path.write_text(SOURCE.replace(old, new, 1), encoding="utf-8")
    return path


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_every_shipped_variant_is_valid():
    for path in sorted(variants_dir().glob("*.yaml")):
        assert variant_problems(path) == [], path


def test_wrong_type(tmp_path):
    path = broken_copy(tmp_path, "  count: 4\n", "  count: four\n")
    [problem] = variant_problems(path)
    assert problem.file == str(path)
    assert problem.path == "$.players.count"
    assert problem.line == line_of(path, "count: four")
    assert "'four' is not of type 'integer'" in problem.message


def test_unknown_key(tmp_path):
    path = broken_copy(tmp_path, "  upcard: true\n", "  upcard: true\n  upcards: 2\n")
    [problem] = variant_problems(path)
    assert problem.path == "$.deal" and "upcards" in problem.message
    assert problem.line == next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line == "deal:")


def test_unknown_card(tmp_path):
    # Ranks are the table's own (letters, 11 to 19), but the ten is T: "10" is no rank.
    path = broken_copy(tmp_path, '  ranks: ["9", T, J, Q, K, A]', '  ranks: ["9", T, J, Q, K, "10"]')
    [problem] = variant_problems(path)
    assert problem.path == "$.deck.ranks[5]" and "'10'" in problem.message
    assert problem.line == line_of(path, "ranks:")


def test_unknown_card_in_an_option_is_reported_at_the_option(tmp_path):
    path = broken_copy(tmp_path, "ranking.benny: JK}", "ranking.benny: ZZ}")
    problems = variant_problems(path)
    assert problems, "a Benny that is no card must be refused"
    problem = next(p for p in problems if "ZZ" in p.message)
    assert problem.path == "$.options.benny.choices[1].sets.ranking.benny"
    assert "set by option benny=joker" in problem.message and "at $.ranking.benny" in problem.message
    assert problem.line == line_of(path, "ranking.benny: ZZ")


def test_semantic_problem_names_its_path(tmp_path):
    path = broken_copy(tmp_path, "  teams: [[0, 2], [1, 3]]", "  teams: [[0, 2], [1, 2]]")
    [problem] = variant_problems(path)
    assert problem.path == "$.players.teams" and "exactly once" in problem.message
    assert problem.line == line_of(path, "teams: [[0, 2], [1, 2]]")


def test_bad_option_path(tmp_path):
    path = broken_copy(tmp_path, "sets: {hand.dealer-pickup.may-discard-taken: false}",
                       "sets: {hand.dealer-pick-up.may-discard-taken: false}")
    [problem] = variant_problems(path)
    assert problem.path == "$.options.dealer-discard.choices[1].sets.hand.dealer-pick-up.may-discard-taken"
    assert "no element with id 'dealer-pick-up'" in problem.message and "option dealer-discard=not-upcard" in problem.message
    assert problem.line == line_of(path, "dealer-pick-up")


def test_two_options_setting_one_value_are_refused(tmp_path):
    path = broken_copy(tmp_path, "sets: {scoring.rows.super-euchre.enabled: true}",
                       "sets: {scoring.rows.super-euchre.enabled: true, hand.round-2.stuck: dealer}")
    problems = variant_problems(path)
    clash = next(p for p in problems if "two options may not set one value" in p.message)
    assert "hand.round-2.stuck is also set by option stick-the-dealer" in clash.message
    assert clash.line == line_of(path, "super-euchre.enabled: true, hand.round-2.stuck")


def test_duplicate_key(tmp_path):
    path = broken_copy(tmp_path, "  count: 4\n", "  count: 4\n  count: 5\n")
    [problem] = variant_problems(path)
    assert problem.path == "$.players.count" and "duplicate key" in problem.message
    assert problem.line == line_of(path, "count: 5")


def test_yaml_syntax_error(tmp_path):
    path = broken_copy(tmp_path, "  count: 4\n", "  count: [4\n")
    [problem] = variant_problems(path)
    assert "not valid YAML" in problem.message and problem.line is not None


def test_unsafe_yaml_tags_are_refused(tmp_path):
    path = broken_copy(tmp_path, "  count: 4\n", "  count: !!python/object/apply:os.system ['true']\n")
    [problem] = variant_problems(path)
    assert "not valid YAML" in problem.message


def test_scoring_row_without_its_clause(tmp_path):
    path = broken_copy(tmp_path, "  - id: march\n", "  - id: marching\n")
    problems = variant_problems(path)
    assert any(p.path == "$.scoring.rows[4].id" and "no clause" in p.message for p in problems)


def test_missing_file(tmp_path):
    [problem] = variant_problems(tmp_path / "nope.yaml")
    assert "cannot read file" in problem.message


@pytest.mark.parametrize("parent", ["euchre", "nonesuch"])
def test_extends(tmp_path, parent):
    path = tmp_path / "house.yaml"
    path.write_text(f"id: house\ntitle: House\nsummary: A house rule.\nextends: {parent}\n"
                    "sources: {seed-001: {title: x, kind: seed, file: 001_f25c09faf8f7ed31.txt}}\n"
                    "option-defaults: {game-target: 7}\n", encoding="utf-8")
    problems = variant_problems(path)
    if parent == "euchre":
        assert problems == []
        # (a plain `game: {target: 7}` would be replaced by the option's default: refused, see test_table_refusals)
        assert resolve_file(path).table["game"]["target"] == 7
    else:
        assert problems[0].path == "$.extends" and "unknown parent" in problems[0].message


def test_a_yaml_alias_bomb_is_refused_not_expanded(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}]" for i in range(1, 9)]
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n")
    [problem] = variant_problems(path)
    assert "aliases expand" in problem.message and problem.line is not None


def test_values_are_shown_as_yaml_writes_them_with_a_hint_for_yes_and_no(tmp_path):
    """`summary: no` is YAML's boolean false: the message says `false`, never Python's
    `False`, and says why an author who meant the word gets it."""
    path = broken_copy(tmp_path, "        summary: Lone hands are not counted.\n", "        summary: no\n")
    [problem] = variant_problems(path)
    assert problem.path == "$.options.lone-tally.choices[0].summary"
    assert problem.message.startswith("false is not of type 'string'") and "quote it" in problem.message
    assert "False" not in problem.message


def test_an_option_value_set_wrongly_is_named_with_its_value_as_yaml(tmp_path):
    path = broken_copy(tmp_path, "sets: {hand.round-2.stuck: dealer}", "sets: {hand.round-2.stuck: true}")
    problems = variant_problems(path)
    problem = next(p for p in problems if "stuck" in p.path)
    assert problem.line == line_of(path, "sets: {hand.round-2.stuck: true}")
    assert "set by option stick-the-dealer=true" in problem.message and "True" not in problem.message


def test_an_inherited_option_that_no_longer_fits_is_reported_in_the_child(tmp_path):
    """The child removes the scoring row an option of its parent switches off: the problem
    is the child's, at its `extends` line, and says where the parent asks for the change
    (an author is never sent to fix a built-in table)."""
    path = tmp_path / "kitchen-five-hundred.yaml"
    path.write_text("id: kitchen-five-hundred\ntitle: Kitchen Five Hundred\nsummary: Five Hundred without the no-bid row.\n"
                    "sources:\n  house:\n    title: Our kitchen table\n    kind: house\n"
                    "extends: five-hundred\nremove: [scoring.rows.no-bid]\n")
    problems = variant_problems(path)
    assert problems and all(p.file == str(path) for p in problems), problems
    found = problems[0]
    assert (found.path, found.line) == ("$.extends", 8)
    assert "option no-bid=redeal" in found.message and "five-hundred.yaml line" in found.message


def test_a_stray_value_placeholder_is_reported_where_it_is(tmp_path):
    """``$value`` belongs to a range option's sets (there are several in this table); one
    anywhere else is reported at its own path, each of them, and only those."""
    path = tmp_path / "euchre.yaml"
    text = SOURCE.replace('title: "Euchre: rules and common variations (seed document 001)"', "title: $value", 1)
    path.write_text(text.replace("title: Euchre\n", "title: $value\n", 1), encoding="utf-8")
    problems = [p for p in variant_problems(path) if "$value is only for" in p.message]
    assert [p.path for p in problems] == ["$.title", "$.sources.seed-001.title"]
    assert problems[0].line == 7


HOUSE = "sources:\n  house:\n    title: Our kitchen table\n    kind: house\n"


def child(tmp_path: Path, name: str, body: str, parent: str = "euchre") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"id: {name}\ntitle: {name.title()}\nsummary: A house rule.\n{HOUSE}extends: {parent}\n{body}",
                    encoding="utf-8")
    return path


def test_a_requirement_broken_by_the_authors_own_defaults_is_reported_at_the_authors_line(tmp_path):
    """The Canadian loner needs going alone; a child that defaults to one without the other
    is told so at its own `option-defaults` line, never at the built-in table's `requires`."""
    path = child(tmp_path, "kitchen", "option-defaults:\n  canadian-loner: true\n  going-alone: false\n")
    [problem] = variant_problems(path)
    assert problem.file == str(path), problem
    assert (problem.path, problem.line) == ("$.option-defaults.canadian-loner", line_of(path, "canadian-loner: true"))
    assert "canadian-loner=true needs going-alone to be true, not false" in problem.message
    assert "going-alone=false" in problem.message


def test_a_requirement_broken_by_a_parents_default_is_reported_at_the_childs_extends(tmp_path):
    """A preset in between sets the default: the author of the grandchild is still told in
    their own file, at `extends`, with the preset's file and line."""
    preset = child(tmp_path, "no-lones", "option-defaults:\n  going-alone: false\n  canadian-loner: false\n")
    path = child(tmp_path, "canadian-kitchen", "option-defaults:\n  canadian-loner: true\n", parent="no-lones")
    [problem] = variant_problems(path)
    assert problem.file == str(path)
    assert (problem.path, problem.line) == ("$.option-defaults.canadian-loner", line_of(path, "canadian-loner: true"))
    assert variant_problems(preset) == []


def test_a_round_counted_by_number_is_refused_with_the_id_to_write(tmp_path):
    path = broken_copy(tmp_path, "when: {round: round-1}}", "when: {round: 1}}")
    [problem] = variant_problems(path)
    assert (problem.path, problem.line) == ("$.hand[6].takes[0].when.round", line_of(path, "when: {round: 1}}"))
    assert "name the step by its id (round: round-1)" in problem.message


def test_a_round_naming_no_bidding_step_is_refused(tmp_path):
    path = broken_copy(tmp_path, "when: {round: round-1}}", "when: {round: round-3}}")
    [problem] = variant_problems(path)
    assert problem.line == line_of(path, "when: {round: round-3}}")
    assert "no make-trumps step 'round-3'" in problem.message and "round-1, round-2" in problem.message


def test_a_child_removes_inherited_clauses_and_a_clause_still_needed_is_named(tmp_path):
    fine = child(tmp_path, "quiet", "remove: [clauses.left-bower-is-trump]\n")
    assert variant_problems(fine) == []
    path = child(tmp_path, "leadless", "remove:\n  - clauses.lead\n")
    problems = variant_problems(path)
    # in the same run: the inherited option that replaces the removed clause (every option is tried)
    assert any("(option maker-leads=true)" in p.message and "drop-options: [maker-leads]" in p.message
               for p in problems), problems
    [problem] = [p for p in problems if "no clause 'lead'" in p.message]
    assert (problem.file, problem.path, problem.line) == (str(path), "$.remove", line_of(path, "remove:"))
    assert "no clause 'lead'" in problem.message and "euchre.yaml:" in problem.message
    missing = child(tmp_path, "nosuch", "remove: [clauses.no-such-clause]\n")
    [problem] = variant_problems(missing)
    assert problem.path == "$.remove[0]" and "no element with id 'no-such-clause' in clauses" in problem.message


def test_a_step_property_its_kind_never_reads_is_refused(tmp_path):
    """The schema lets any step carry any step property; one its kind ignores would state a
    rule the game does not play."""
    path = broken_copy(tmp_path, "{id: throw-in, kind: throw-in, next-dealer: left}",
                       "{id: throw-in, kind: throw-in, next-dealer: left, trumps: S}")
    [problem] = variant_problems(path)
    assert problem.path.endswith("].trumps") and problem.line == line_of(path, "trumps: S}")
    assert "a throw-in step does not read `trumps` (it is for set-trumps)" in problem.message


def test_turned_down_on_a_round_that_orders_up_is_refused(tmp_path):
    path = broken_copy(tmp_path, "from: eldest, action: order}", "from: eldest, action: order, turned-down: allowed}")
    [problem] = variant_problems(path)
    assert problem.line == line_of(path, "action: order, turned-down: allowed}")
    assert "`turned-down` is for a round that names suits (action: call)" in problem.message


def test_a_swap_that_an_eligible_seat_may_be_unable_to_make_is_refused_at_the_option(tmp_path):
    """A farmer's hand offered on one nine or ten, but laying down three: the seat would
    accept and then have no legal action."""
    path = broken_copy(tmp_path, 'eligible: {holds: {of: {ranks: ["9", T]}, at-least: 3}}',
                       'eligible: {holds: {of: {ranks: ["9", T]}, at-least: 1}}')
    problems = variant_problems(path)
    found = [p for p in problems if "may hold fewer than 3 of the cards it must lay down" in p.message]
    assert found and found[0].path.startswith("$.options.farmers-hand.choices[1].insert"), problems
    assert found[0].line and "set by option farmers-hand=true" in found[0].message


def test_scoring_rows_that_leave_an_outcome_unscored_are_refused(tmp_path):
    """Play used to stop with an error at the first hand no row scored."""
    text = SOURCE.replace("    - id: made\n      when: {maker-tricks: [3, 4]}", "    - id: made\n      when: {maker-tricks: 3}", 1)
    assert text != SOURCE
    path = tmp_path / "euchre.yaml"
    path.write_text(text, encoding="utf-8")
    problems = variant_problems(path)
    assert any(p.path == "$.scoring.rows" and "no scoring row scores a hand in which the makers take 4 tricks" in p.message
               and p.line == line_of(path, "  rows:") for p in problems), problems


def test_a_suit_to_name_that_is_not_in_the_pack_is_refused():
    """It used to validate and then crash the interpreter when the step was compiled."""
    import copy
    from reference_impl.checks import semantic_problems
    from reference_impl.resolve import resolve
    table = copy.deepcopy(resolve("two-hand").table)
    table["deck"]["suits"] = ["C", "S"]
    found = [m for path, m in semantic_problems(table) if path[:3] == ("hand", 0, "names")]
    assert found == ["no suit D in the pack (C, S)", "no suit H in the pack (C, S)"]


def test_selected_in_a_file_is_refused(tmp_path):
    path = broken_copy(tmp_path, "shape: 2\n", "shape: 2\nselected: {stick-the-dealer: true}\n")
    [problem] = variant_problems(path)
    assert (problem.path, problem.line) == ("$.selected", line_of(path, "selected:"))
    assert "use option-defaults" in problem.message


def test_a_stuck_seat_not_known_before_trumps_is_refused(tmp_path):
    path = broken_copy(tmp_path, "sets: {hand.round-2.stuck: dealer}", "sets: {hand.round-2.stuck: maker}")
    found = [p for p in variant_problems(path) if "no seat would be stuck" in p.message]
    assert found and found[0].line == line_of(path, "sets: {hand.round-2.stuck: maker}"), found


def test_rows_that_score_only_some_makers_are_refused_naming_the_seat(tmp_path):
    text = SOURCE.replace("    - id: made\n      when: {maker-tricks: [3, 4]}",
                          "    - id: made\n      when: {maker-tricks: [3, 4], maker: dealer}", 1)
    assert text != SOURCE
    path = tmp_path / "euchre.yaml"
    path.write_text(text, encoding="utf-8")
    messages = [p.message for p in variant_problems(path)]
    assert any("no scoring row scores a hand in which the makers take 3 tricks, made by the eldest hand" in m
               for m in messages), messages


def test_holds_that_counts_nothing_is_refused(tmp_path):
    """`holds: {of: ...}` alone asks for at least none of the cards: true of every hand."""
    path = broken_copy(tmp_path, 'eligible: {holds: {of: {ranks: ["9", T]}, at-least: 3}}',
                       'eligible: {holds: {of: {ranks: ["9", T]}}}')
    found = [p for p in variant_problems(path) if "holds with only `of` always holds" in p.message]
    assert found and found[0].path.startswith("$.options.farmers-hand") and found[0].line, found


@pytest.mark.parametrize("condition, says", [({"counter": {"id": "tokens"}}, "counter without at-least"),
                                             ({"score": {}}, "score without at-least or at-most")])
def test_a_counter_or_score_condition_that_asks_nothing_is_refused(condition, says):
    import copy
    from reference_impl.checks import semantic_problems
    from reference_impl.resolve import resolve
    table = copy.deepcopy(resolve("euchre", {"four-trick-tokens": True}).table)
    table["game"]["win-requires"] = condition
    [message] = [m for p, m in semantic_problems(table) if p[:2] == ("game", "win-requires")]
    assert message.startswith(f"{says} always holds")


def test_a_condition_on_tricks_before_any_trick_is_refused(tmp_path):
    """Going alone only when the makers took no trick: true of every hand, since the offer
    comes before the play."""
    path = broken_copy(tmp_path, "{id: going-alone, kind: offer, phase: alone, to: maker,",
                       "{id: going-alone, kind: offer, phase: alone, when: {maker-tricks: 0}, to: maker,")
    found = [p for p in variant_problems(path) if "no trick has been played when this is decided" in p.message]
    assert found and found[0].path.endswith(".when.maker-tricks") and found[0].line == line_of(path, "when: {maker-tricks: 0}")


def test_schema_and_semantic_problems_are_reported_in_one_run(tmp_path):
    """A table with a schema error (a count that is not a number) and a semantic one (a
    bidding round starting from the maker, who is not known yet) shows both, each at its
    line: an author does not pay a run per problem (issue 37)."""
    path = broken_copy(tmp_path, "  count: 4\n", "  count: four\n")
    text = path.read_text(encoding="utf-8")
    round_1 = text.index("id: round-1")
    start = text.index("from: eldest", round_1)
    path.write_text(text[:start] + "from: maker" + text[start + len("from: eldest"):], encoding="utf-8")
    problems = variant_problems(path)
    by_path = {p.path: p for p in problems}
    assert "'four' is not of type 'integer'" in by_path["$.players.count"].message
    assert by_path["$.players.count"].line == line_of(path, "count: four")
    semantic = [p for p in problems if "is not known before trumps are made" in p.message]
    assert semantic and semantic[0].file == str(path) and semantic[0].line == line_of(path, "from: maker"), problems
