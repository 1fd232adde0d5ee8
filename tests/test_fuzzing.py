"""Differential fuzzing (conformance/fuzzing, `euchre-spec fuzz`): the comparison, the loop,
its coverage of rare phases, shrinking, and the case files it writes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.cli import main
from conformance.cases import load_case_file, load_corpus_meta
from conformance.runner.engine_process import InProcessEngine, engine_command
from conformance.fuzzing.casefile import write_divergence
from conformance.runner.compare import MISSING, diff_replies, diff_states, signature
from conformance.fuzzing.lockstep import OverlappingEngine, SetupError
from conformance.fuzzing.loop import Fuzzer
from conformance.fuzzing.shrink import shrink_divergence
from conformance.corpus_tools.mutation import mutant_command
from conformance.runner.session import Session
from reference_impl import load_rules, new_game
from reference_impl.catalog import variant_ids
from reference_impl.resolve import resolve

ROOT = Path(__file__).resolve().parent.parent


def reference_in_process() -> InProcessEngine:
    return InProcessEngine()


def observations(variant: str, seed: int, count: int) -> list[dict]:
    """Observations along one random game of the reference."""
    rules = load_rules(variant)
    rng = random.Random(seed)
    state = new_game(rules, 0)
    seen = []
    while not state.is_terminal() and len(seen) < count:
        if state.is_chance_node():
            state.deal(rules.random_deal(rng, state.observation()["dealer"]))
        else:
            state.apply(rng.choice(state.legal_actions()))
        seen.append(state.observation())
    return seen


# -- comparing replies ------------------------------------------------------------------------------
STATES = observations("euchre", 3, 60)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(STATES), st.randoms(use_true_random=False))
def test_sets_and_hands_compare_in_any_order(state, rng):
    """The legal set, the seats sitting out and each seat's hand are sets: any order agrees."""
    shuffled = json.loads(json.dumps(state))
    for key in ("legal", "sitting_out"):
        rng.shuffle(shuffled[key])
    for hand in shuffled["hands"]:
        rng.shuffle(hand)
    assert diff_states(state, shuffled) == []


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(STATES), st.sampled_from(sorted(STATES[0])))
def test_any_changed_field_is_a_difference(state, key):
    changed = json.loads(json.dumps(state))
    value = changed[key]
    changed[key] = ["play:XX"] if isinstance(value, list) else (not value if isinstance(value, bool) else "other")
    found = diff_states(state, changed)
    assert [d.field for d in found] == [key]
    assert found[0].expected == state[key]


def test_true_is_not_one_and_a_missing_required_field_differs():
    state = STATES[5]
    assert [d.field for d in diff_states(state, {**state, "alone": int(state["alone"])})] == ["alone"]
    without = {k: v for k, v in state.items() if k != "dealer"}
    assert diff_states(state, without)[0].field == "dealer" and diff_states(state, without)[0].actual == MISSING
    optional = {k: v for k, v in state.items() if k != "scoring_row"}   # optional: compared only when reported
    assert diff_states(state, optional) == []
    assert [d.field for d in diff_states(state, {**state, "legal": state["legal"] + state["legal"][:1]})] == ["legal"]


def test_replies_differ_on_acceptance_category_and_transport():
    ok = {"ok": True, "state": STATES[0]}
    refused = {"ok": False, "error": {"category": "illegal_action", "message": "no"}}
    assert diff_replies(ok, refused)[0].field == "ok"
    assert diff_replies(refused, {"ok": False, "error": {"category": "internal", "message": ""}})[0].field == "error.category"
    assert diff_replies(refused, {"ok": False, "error": {"category": "illegal_action", "message": "other words"}}) == []
    assert diff_replies(ok, {"transport": "crash", "message": "exit 3"})[0].field == "transport"


def test_a_signature_names_the_kinds_of_moves_missing_and_extra():
    state = next(s for s in STATES if s["phase"] == "bid-round-1")
    extra = {**state, "legal": state["legal"] + ["call:H"]}
    found = diff_states(state, extra)
    assert signature("bid-round-1", "act", found) == ("bid-round-1", "act", ("legal", (), ("call",)))


# -- the loop ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", variant_ids())
def test_the_reference_agrees_with_itself_every_step(variant):
    table = resolve(variant)
    result = Fuzzer(reference_in_process, variant, table, seed=4, hands=40).run()
    assert result.divergences == []
    assert result.hands == 40 and result.steps > 40 * 5
    assert result.coverage.probes > 0            # refusals were probed too, and agreed


def test_rare_phases_happen_often():
    """Biased moves reach round 2, a stuck dealer, lone hands and lone defences, Benny
    upcards, the partner's best card and misère bids far more often than uniform play."""
    def share(variant: str, options: dict, hands: int = 300) -> dict:
        result = Fuzzer(reference_in_process, variant, resolve(variant, options), seed=1, hands=hands, probes=0).run()
        assert result.divergences == []
        return {k: v / result.coverage.hands for k, v in result.coverage.situations.items()}

    euchre = share("euchre", {"stick-the-dealer": True})
    assert euchre["round 2 of bidding"] > 0.3
    assert euchre["stuck dealer (no pass)"] > 0.08              # uniform moves: 0.14% of hands
    assert euchre["going alone"] > 0.15 and euchre["lone defence"] > 0.05
    assert euchre["game over"] > 0.05
    british = share("british", {"railroading": True})
    assert british["Benny (or special card) turned up"] > 0.05
    assert british["partner's best card given"] > 0.03
    assert share("euchre", {})["all passed (hand thrown in)"] > 0.08
    five = share("five-hundred", {"misere": "misere"}, hands=200)
    assert five["misère bid"] > 0.05 and five["auction won"] > 0.3


def lone_defence_misreported(_: int, line: bytes) -> bytes:
    """An engine (the reference, its replies rewritten) wrong about who is to act when a
    lone defence is offered: seat 1 prefixed to the seat."""
    return line.replace(b'"to_act":', b'"to_act":1') if b'"phase":"defend-alone"' in line else line


def faulty_in_process() -> InProcessEngine:
    return InProcessEngine(transform=lone_defence_misreported)


def test_a_game_is_determined_by_the_seed_and_its_number():
    table = resolve("euchre")
    found = [Fuzzer(faulty_in_process, "euchre", table, seed=seed, hands=500).run().divergences[0] for seed in (11, 11, 12)]
    assert found[0].script.to_json() == found[1].script.to_json() and found[0].game == found[1].game
    assert found[0].script.to_json() != found[2].script.to_json()
    assert all(d.phase == "alone" and d.differences[0].field == "to_act" for d in found)


def test_shrinking_keeps_the_divergence_and_makes_the_game_smaller():
    table = resolve("euchre")
    found = Fuzzer(faulty_in_process, "euchre", table, seed=5, hands=500).run().divergences[0]
    shrunk = shrink_divergence(faulty_in_process, "euchre", table, table, found, seconds=30)
    small = shrunk.divergence
    assert small.signature == found.signature
    assert (small.hands, small.steps) <= (found.hands, found.steps) and small.hands == 1
    assert small.steps <= 4          # order (or a call), alone, and the defence is offered
    assert shrunk.replays > 0 and shrunk.original_steps == found.steps


def test_an_engine_that_does_not_declare_the_rules_is_refused():
    argv = [sys.executable, str(ROOT / "tests" / "faulty_engines" / "unsupported.py")]
    with pytest.raises(SetupError, match="does not declare"):
        Fuzzer(lambda: OverlappingEngine(argv), "euchre", resolve("euchre"), hands=5).run()


# -- a mutant found, shrunk, written ---------------------------------------------------------------
@pytest.mark.parametrize("mutant, variant, options", [
    ("euchre-scored-one", "euchre", {}),
    ("internal-error-on-a-bid-in-the-play", "euchre", {}),       # found by a probe: a request to refuse
])
def test_a_mutant_is_found_shrunk_and_written_as_a_failing_case(tmp_path, mutant, variant, options):
    table = resolve(variant, options)
    argv = mutant_command(mutant)

    def make() -> OverlappingEngine:
        return OverlappingEngine(argv)

    result = Fuzzer(make, variant, table, seed=2, hands=3000).run()
    assert len(result.divergences) == 1
    found = result.divergences[0]
    shrunk = shrink_divergence(make, variant, table, table, found, seconds=60).divergence
    assert shrunk.signature == found.signature
    assert shrunk.hands <= 1 and shrunk.steps <= 30 and shrunk.steps <= found.steps
    path = write_divergence(tmp_path, shrunk, variant, table, 2, mutant, "a test", set(load_corpus_meta().tags))
    cases, problems = load_case_file(path, load_corpus_meta().tags)
    assert problems == [] and len(cases) == 1 and cases[0].steps == shrunk.steps
    assert cases[0].clauses[0] == shrunk.clause
    outcomes = {}
    for name, command in (("reference", engine_command("reference")), ("mutant", argv)):
        session = Session(command)
        try:
            outcomes[name] = session.run(cases[0]).outcome
        finally:
            session.close()
    assert outcomes["reference"] == "pass" and outcomes["mutant"] in ("fail", "error")


# -- past a divergence ------------------------------------------------------------------------------
PLANTED = ROOT / "tests" / "planted_bugs"


def planted(name: str) -> list[str]:
    return mutant_command(str(PLANTED / f"{name}.py"))


def kinds_found(argv: list[str], hands: int = 300) -> tuple[set[tuple], object]:
    result = Fuzzer(lambda: OverlappingEngine(argv), "euchre", resolve("euchre"), seed=1, hands=hands,
                    max_divergences=20).run()
    return {d.kind[:2] for d in result.divergences}, result


def test_a_divergence_at_the_first_bid_of_every_game_hides_no_later_defect():
    """Round one offers an extra call in every hand; the round-two and scoring bugs behind it
    are found all the same, each once (one kind, however many games met it)."""
    kinds, result = kinds_found(planted("every_game_at_the_first_bid"))
    assert ("round-1", "bid-round-1") in kinds          # any suit callable in round one
    assert ("round-2", "bid-round-2") in kinds          # the turned-down upcard ordered in round two
    assert ("euchre", "play") in kinds                  # a euchre scored 1
    assert result.hands >= 150                          # the games went on: most hands played in full
    first = next(d for d in result.divergences if d.kind[:2] == ("round-1", "bid-round-1"))
    assert first.count >= 20                            # met in every game, reported once
    assert len([d for d in result.divergences if d.kind[:2] == ("round-1", "bid-round-1")]) == 1


def test_a_move_the_engine_refuses_is_taken_back_and_the_game_goes_on():
    """The first bidder's pass refused (in most hands): the reference takes it back, another
    move is chosen, and the scoring bug later in the hand is found."""
    kinds, result = kinds_found(planted("first_bidder_may_not_pass"))
    assert ("round-1", "bid-round-1") in kinds and ("euchre", "play") in kinds
    refusal = next(d for d in result.divergences if d.kind[:2] == ("round-1", "bid-round-1"))
    assert refusal.differences[0].field == "ok" and refusal.script.steps == 1 and refusal.hands == 1
    assert result.taken_back > 0


def test_an_engine_off_the_line_resumes_from_the_references_scores():
    """A euchre scored 1: the scores differ from then on, so the hand is the last compared
    in that game; both go on from the reference's dealer and scores, and the scoring bug is
    one kind, not one per later step."""
    kinds, result = kinds_found(mutant_command("euchre-scored-one"), hands=200)
    assert result.resumed > 0
    assert all(kind[0] in ("euchre", "game-target") for kind in kinds), kinds
    assert result.hands > result.games           # games went on past the hand that diverged


def test_every_kind_met_in_one_game_is_written_to_a_case_file_of_its_own(tmp_path):
    """Game 0 meets both the round-one and the round-two legal-set bugs: two files, none
    overwriting the other."""
    engine = " ".join(planted("every_game_at_the_first_bid"))
    done = run_cli("fuzz", "--engine", engine, "--hands", "60", "--seed", "1", "--shrink-time", "5", "--out", "found",
                   "--json", "run.json", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads((tmp_path / "run.json").read_text())
    cases = [record["case"] for record in report["divergences"]]
    assert len(cases) >= 3 and len(set(cases)) == len(cases)
    assert len(list((tmp_path / "found").glob("*.yaml"))) == len(cases)
    assert any("round-1" in Path(case).name for case in cases) and any("round-2" in Path(case).name for case in cases)


def test_stopping_at_the_first_divergence_still_works():
    result = Fuzzer(lambda: OverlappingEngine(planted("every_game_at_the_first_bid")), "euchre", resolve("euchre"),
                    seed=1, hands=300).run()
    assert len(result.divergences) == 1 and result.games <= 2


def test_a_refusal_probe_becomes_a_reject_step(tmp_path):
    """An engine that answers a request it must refuse with the wrong category: the case
    holds that request as a `reject` step."""
    def wrong_category(_: int, line: bytes) -> bytes:
        return line.replace(b'"category":"out_of_turn"', b'"category":"illegal_action"')

    def make() -> InProcessEngine:
        return InProcessEngine(transform=wrong_category)

    table = resolve("euchre")
    found = Fuzzer(make, "euchre", table, seed=1, hands=500, probes=0.2).run().divergences[0]
    assert found.position.kind == "probe" and found.differences[0].field == "error.category"
    small = shrink_divergence(make, "euchre", table, table, found, seconds=30).divergence
    assert small.steps <= 2
    path = write_divergence(tmp_path, small, "euchre", table, 1, "wrong categories", "a test")
    cases, problems = load_case_file(path)
    assert problems == []
    assert cases[0].hands[-1]["steps"][-1]["reject"] == "out_of_turn"


def test_a_seats_view_is_compared_and_written_as_a_view_step(tmp_path):
    """An engine whose seat views show seat 0's hand as empty instead of hidden."""
    def leaky(_: int, line: bytes) -> bytes:
        return line.replace(b'"hands":[null', b'"hands":[[]', 1)

    def make() -> InProcessEngine:
        return InProcessEngine(transform=leaky)

    table = resolve("euchre")
    found = Fuzzer(make, "euchre", table, seed=2, hands=300, probes=0).run().divergences[0]
    assert found.position.kind == "view" and [d.field for d in found.differences] == ["hands"]
    small = shrink_divergence(make, "euchre", table, table, found, seconds=30).divergence
    assert small.position.kind == "view" and small.steps <= found.steps
    path = write_divergence(tmp_path, small, "euchre", table, 2, "leaky views", "a test")
    cases, problems = load_case_file(path)
    assert problems == []
    last = cases[0].hands[-1]["steps"][-1]
    assert last["view"]["seat"] != 0 and last["view"]["expect"]["hands"][0] is None
    session = Session(engine_command("reference"))
    try:
        assert session.run(cases[0]).outcome == "pass"
    finally:
        session.close()


# -- the command line --------------------------------------------------------------------------------
def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env={"COLUMNS": "200", "PATH": "", "EUCHRE_SPEC_PROGRESS_EVERY": "0.5"})


def test_fuzz_command_agrees_on_the_reference_with_two_engines(tmp_path):
    result = run_cli("fuzz", "--engine", "reference", "--hands", "60", "-j", "2", "--json", "run.json", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "AGREED on every step of 60 hands" in result.stdout
    report = json.loads((tmp_path / "run.json").read_text())
    assert report["hands"] == 60 and report["divergences"] == []
    assert report["coverage"]["clauses"]["follow-suit"] > 0


def test_fuzz_command_plays_for_a_time_and_says_its_progress(tmp_path):
    result = run_cli("fuzz", "--engine", "reference", "--variant", "two-hand", "--time", "3", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "AGREED on every step of" in result.stdout and "progress: " in result.stdout


def test_fuzz_command_writes_the_shrunk_case_of_an_engine_with_a_house_rule(tmp_path):
    """An engine that always plays stick the dealer, though the table says otherwise."""
    fixed = ROOT / "tests" / "faulty_engines" / "fixed_options.py"
    engine = f"{sys.executable} {fixed} " + json.dumps(json.dumps({"euchre": {"stick-the-dealer": True}}))
    result = run_cli("fuzz", "--engine", engine, "--hands", "2000", "--seed", "3", "--out", "found",
                     "--json", "run.json", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "DIVERGENCE" in result.stdout and "shrunk from" in result.stdout and "reproduce: euchre-spec check" in result.stdout
    assert "the game went on along the reference's line" in result.stdout
    report = json.loads((tmp_path / "run.json").read_text())
    assert report["went_past"]["line"] == "reference"
    record = report["divergences"][0]
    assert record["hands"] == 1 and record["steps"] <= 8            # four passes, three more, the dealer stuck
    legal = next(d for d in record["shrunk"]["differences"] if d["field"] == "legal")
    assert "pass" in legal["reference"] and "pass" not in legal["engine"]
    assert record["shrunk"]["clause"] == "round-2"
    check = run_cli("check", "--engine", engine, "--corpus", record["case"], "--json", "check.jsonl", cwd=tmp_path)
    assert check.returncode == 1 and "wrong legal" in check.stdout
    assert run_cli("check", "--engine", "reference", "--corpus", record["case"], "--json", "r.jsonl",
                   cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("args, status, message", [
    (["--engine", "reference", "--hands", "0"], 2, "expected a number of at least 1"),
    (["--engine", "reference", "--hands", "5", "--time", "5"], 2, "not allowed with argument"),
    (["--engine", "reference", "--option", "no-such-option=1", "--hands", "5"], 1, "no-such-option"),
    (["--engine", "reference", "--variant", "piquet", "--hands", "5"], 1, "unknown variant"),
    (["--engine", "/no/such/engine", "--hands", "5"], 1, "the engine did not start"),
    (["--engine", "", "--hands", "5"], 2, "--engine"),
    (["--engine", "reference", "--probes", "2"], 2, "from 0 to 1"),
])
def test_fuzz_command_refuses_mistakes_without_a_traceback(tmp_path, args, status, message, capsys, monkeypatch):
    """Through ``main`` in-process, the entry point the subprocesses above run (seven starts of
    the interpreter for seven refusals); argparse's refusals end in SystemExit as they would."""
    monkeypatch.chdir(tmp_path)
    try:
        returned = main(["fuzz", *args])
    except SystemExit as exc:
        returned = exc.code
    out, err = capsys.readouterr()
    assert returned == status, out + err
    assert message in err and "Traceback" not in err
