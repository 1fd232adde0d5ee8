"""Games written as EGN: a game the reference plays (``play --egn``) and the game of any case
(``egn export``); each file valid against EGN's own schema (where a copy is at hand), and
importing it gives back the same game: the same options, deals and actions."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cases import load_case_file, load_cases
from conformance.egn.export import ExportError, case_to_egn, game_from_events, to_egn
from conformance.egn.importer import build_case, load_game
from conformance.egn.record import FLAGS
from conformance.egn.ruleset import options_for_flags
from reference_impl import Deal, load_rules, new_game
from reference_impl.selfplay import play_random_game

from test_egn_record import egn_validator
from test_egn_ruleset import CASES

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures" / "egn"
CORPUS = ROOT / "conformance" / "corpus"
EGN_DEFAULTS = {flag: default for flag, (_, default) in FLAGS.items()}


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def valid_egn(record: dict) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in egn_validator().iter_errors(record)]
    assert errors == []


def game_of(case) -> tuple:
    """A case's game: options in force, scores, and each hand's deal (as sets) and actions, the
    case replayed on the reference (a deal given as a pack order is dealt by the dealer)."""
    rules = load_rules(case.variant, case.options)
    setup = case.setup
    if "dealer" in setup:
        state = new_game(rules, dealer=setup["dealer"], scores=setup.get("scores"))
    else:
        first = setup["first_dealer"]
        state = new_game(rules, first_dealer_cards=first["cards"], start_seat=first.get("start", 0),
                         scores=setup.get("scores"))
    hands = []
    for hand in case.hands:
        if hand.get("deal_reject"):
            continue
        given = hand["deal"]
        deal = (rules.deal_from_order(given["deck"], state.dealer) if "deck" in given else
                Deal(tuple(tuple(h) for h in given["hands"]), given["upcard"], (), tuple(given.get("kitty", ()))))
        actions = [(s["seat"], s["action"]) for s in hand["steps"] if "reject" not in s]
        hands.append((state.dealer, [frozenset(h) for h in deal.hands], deal.upcard, frozenset(deal.kitty), actions))
        state.deal(deal)
        for seat, action in actions:
            state.apply(action, seat)
    return dict(case.table.selected), list(state.scores), hands


def reimport(record: dict, tmp_path: Path, name: str):
    path = tmp_path / f"{name}.egn"
    path.write_text(json.dumps(record), encoding="utf-8")
    game = load_game(path)
    assert game.defect is None, game.defect
    case_path = tmp_path / f"{name}.yaml"
    from conformance.egn.importer import dump_case
    case_path.write_text(dump_case(build_case(game, path), path), encoding="utf-8")
    cases, problems = load_case_file(case_path)
    assert problems == []
    return cases[0]


def test_play_writes_the_game_as_egn_and_importing_it_gives_the_same_game(tmp_path):
    out = tmp_path / "game.egn"
    result = run("play", "euchre", "--seed", "3", "--egn", str(out))
    assert result.returncode == 0, result.stderr
    assert f"EGN record written to {out}" in result.stdout
    record = json.loads(out.read_text())
    valid_egn(record)
    assert record["metadata"]["ruleset"]["defend_alone"] is True
    assert "euchre-spec options: lone-defender-scoring=one-or-four." in record["metadata"]["description"]
    rules = load_rules("euchre")
    state = play_random_game(rules, random.Random(3))
    case = reimport(record, tmp_path, "game")
    assert dict(case.table.selected) == dict(rules.selected)
    assert [(s["seat"], s["action"]) for h in case.hands for s in h["steps"]] == \
        [(e[1], e[2]) for e in state.events if e[0] == "action"]
    assert case.expect["scores"] == state.scores == record["metadata"]["finalScore"]


def test_play_refuses_a_game_egn_would_score_otherwise(tmp_path):
    out = tmp_path / "game.egn"
    result = run("play", "euchre", "--seed", "1", "--egn", str(out))
    assert result.returncode == 1
    assert "lone-defender-scoring=one-or-four" in result.stderr and "four-for-euchre" in result.stderr
    assert not out.exists() or out.read_text() == ""
    assert run("play", "euchre", "--games", "2", "--egn", str(out)).returncode == 2
    refused = run("play", "euchre", "--option", "benny=two-of-spades", "--egn", str(out))
    assert refused.returncode == 1 and "benny=two-of-spades" in refused.stderr


@pytest.mark.parametrize("flag, value, expected", CASES, ids=[f"{f}={v}" for f, v, _ in CASES])
def test_each_flag_survives_a_played_game_written_and_read_back(flag, value, expected, tmp_path):
    flags = {**EGN_DEFAULTS, flag: value}
    if flag == "num_deals":
        flags["winning_score"] = 0
    rules = load_rules("euchre", options_for_flags(flags))
    state = play_random_game(rules, random.Random(7))
    dealer, hands = game_from_events(rules, state.events)
    record = to_egn(rules, dealer, hands)
    valid_egn(record)
    assert record["metadata"]["ruleset"][flag] == value
    assert "euchre-spec options" not in record["metadata"].get("description", "")
    case = reimport(record, tmp_path, "flag")
    for key, option in expected.items():
        assert case.options[key] == option
    assert dict(case.table.selected) == dict(rules.selected)
    assert case.expect["scores"] == state.scores


def test_the_euchre_corpus_exports_and_reads_back_as_the_same_games(tmp_path):
    cases, problems = load_cases([CORPUS / "euchre"])
    assert problems == []
    exported = 0
    for case in cases:
        try:
            record = case_to_egn(case)
        except ExportError as exc:
            assert "EGN cannot say" in str(exc) or "expects an engine to fail" in str(exc)
            continue
        exported += 1
        valid_egn(record)
        again = reimport(record, tmp_path, case.id)
        assert game_of(again) == game_of(case), case.id
    assert exported >= len(cases) // 2


def test_an_imported_record_exported_again_is_the_same_case(tmp_path):
    for path in sorted(FIXTURES.glob("*.egn")):
        if path.name.startswith(("defect-", "invalid-", "unsupported-")):
            continue
        first = build_case(load_game(path), path)
        case_path = tmp_path / f"{path.stem}.yaml"
        from conformance.egn.importer import dump_case
        case_path.write_text(dump_case(first, path), encoding="utf-8")
        loaded = load_case_file(case_path)[0][0]
        record = case_to_egn(loaded)
        valid_egn(record)
        second = reimport(record, tmp_path, f"again-{path.stem}")
        assert game_of(second) == game_of(loaded), path.name
        # and the case itself: the same hands, steps and expectations, the kitty aside (EGN never has it)
        for a, b in zip(first["hands"], [h for h in second.data["hands"]]):
            assert {k: v for k, v in a["deal"].items() if k != "kitty"} == \
                {k: v for k, v in b["deal"].items() if k != "kitty"}
            assert a["steps"] == b["steps"] and a.get("expect") == b.get("expect")
        assert first["options"] == second.options and first.get("expect") == second.expect


def test_egn_export_writes_a_file_per_case_and_refuses_what_egn_cannot_say(tmp_path):
    out = tmp_path / "egn"
    sources = [CORPUS / "euchre" / "game-won-at-ten.yaml", CORPUS / "euchre" / "benny-two-of-spades-is-no-spade.yaml",
               CORPUS / "british"]
    result = run("egn", "export", *map(str, sources), "-o", str(out))
    assert result.returncode == 1
    assert "benny=two-of-spades" in result.stdout and "variant british" in result.stdout
    written = sorted(p.name for p in out.glob("*.egn"))
    assert written == ["game-won-at-ten.egn"]
    valid_egn(json.loads((out / "game-won-at-ten.egn").read_text()))
    again = run("egn", "export", str(sources[0]), "-o", str(out))
    assert again.returncode == 0                            # the same content: nothing to overwrite
    (out / "game-won-at-ten.egn").write_text("{}")
    assert run("egn", "export", str(sources[0]), "-o", str(out)).returncode == 1
    assert run("egn", "export", str(sources[0]), "-o", str(out), "--force").returncode == 0


def test_the_installed_commands_run_from_an_empty_folder(tmp_path):
    """Import, check and export end to end as a user runs them, outside the checkout."""
    source = tmp_path / "record.egn"
    source.write_text((FIXTURES / "hand-written-loner.egn").read_text())
    assert run("egn", "check", "record.egn", cwd=tmp_path).returncode == 0
    imported = run("egn", "import", "record.egn", "-o", "cases", cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    exported = run("egn", "export", "cases", "-o", "again", cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    again = json.loads((tmp_path / "again" / "egn-record.egn").read_text())
    valid_egn(again)
    assert again["metadata"]["finalScore"] == [9, 10]
    check = run("check", "--engine", "reference", "--corpus", "cases", "--json", "report.jsonl", cwd=tmp_path)
    assert check.returncode == 0, check.stdout
