"""Robustness: faulty engines, garbage requests, broken case files.

Each engine under ``tests/faulty_engines/`` is the reference engine with one fault. Run
against the fixture cases in ``tests/fixtures/robustness/``, every fault must get its exact
outcome, within its timeout, with every case accounted for and a fresh engine passing the
next case. Hypothesis then throws malformed messages at the reference engine and malformed
case files at the loader: a clear error every time, never a traceback, never a hang.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
import time
from io import BytesIO
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import CORPUS_DIR
from conformance.cases import Case, load_case_file, load_cases, load_corpus_meta
from conformance.runner.skip_list import SkipList
from conformance.runner.run import run_cases
from conformance.runner.selection import select
from conformance.runner.engine_process import STDERR_KEEP
from conformance.reference_engine import ReferenceEngine, serve
from conformance.runner.fields import REPLY_SCHEMAS
from conformance.runner.results import CaseResult
from reference_impl.catalog import load_schema
from reference_impl.schemas import document_errors, validator

ROOT = Path(__file__).resolve().parent.parent
ENGINES = Path(__file__).resolve().parent / "faulty_engines"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "robustness"
TAGS = load_corpus_meta().tags
TIMEOUT = 5.0           # seconds per reply: a hanging engine costs this much, once (an engine's start
                        # and hello have 30 s: a busy machine never races them)
SLACK = 30.0            # seconds of wall time a run may take beyond its expected timeouts
WAITED = 2.0            # the reply timeout of the faults that are waited out (hang, drip): each costs it
                        # once; the engine's other replies take milliseconds (2 s, as the slow and
                        # blind engines' runs below, is still a thousand times that)

_fixture_cases, _fixture_problems = load_cases([FIXTURES], TAGS)
assert not _fixture_problems, _fixture_problems
CASES = {case.id: case for case in _fixture_cases}
FULL = CASES["robust-full-hand"]            # one whole hand: 23 actions
SHORT = CASES["robust-short-bid"]           # two actions
OOT = CASES["robust-out-of-turn"]           # a reject: out_of_turn step, then one action
STICK = CASES["robust-short-bid-stick"]     # SHORT under another rule table
RUN = [FULL, SHORT, OOT]                    # a fault at the 5th action of a hand strikes FULL only


def engine(name: str, *args: str) -> list[str]:
    return [sys.executable, str(ENGINES / f"{name}.py"), *args]


def run(argv: list[str], cases: list[Case], **options) -> tuple[list[CaseResult], float]:
    """All results of a run (in the order they came), checked to account for every case
    exactly once and to be writable to a report, and the run's wall time."""
    started = time.monotonic()
    results = list(run_cases(cases, argv, **{"timeout": TIMEOUT, **options}))
    elapsed = time.monotonic() - started
    assert sorted(r.case.id for r in results) == sorted(c.id for c in cases), "a case was lost or reported twice"
    for result in results:
        json.dumps(result.to_json(), ensure_ascii=False).encode("utf-8")    # as the JSON Lines report does
    return results, elapsed


def outcomes(results: list[CaseResult]) -> dict[str, str]:
    return {r.case.id: r.outcome for r in results}


def result_of(results: list[CaseResult], case: Case) -> CaseResult:
    return next(r for r in results if r.case.id == case.id)


# -- faulty engines ------------------------------------------------------------------------------

MID_HAND = "hand 1 step 5 (seat 2 play:9D)"     # FULL's 5th action, where the N=5 faults strike

# engine, its arguments, the outcomes of FULL, SHORT and OOT, and a phrase of FULL's failure
FAULTS = {
    "crash": ([], ["crash", "pass", "pass"], "the engine closed its output before replying to act (exit status 3)"),
    "hang": ([], ["timeout", "pass", "pass"], f"no reply to act within {WAITED:g} s"),
    "garbage": ([], ["error", "pass", "pass"], "reply to act is not UTF-8"),
    "raw_reply-ascii": (["ascii"], ["error", "pass", "pass"], "reply to act is not JSON"),
    "raw_reply-utf16": (["utf16"], ["error", "pass", "pass"], "reply to act is not UTF-8"),
    "raw_reply-surrogate-bytes": (["surrogate-bytes"], ["error", "pass", "pass"], "reply to act is not UTF-8"),
    "raw_reply-huge-int": (["huge-int"], ["error", "pass", "pass"], "holds an integer of 5000 digits"),
    "raw_reply-nan": (["nan"], ["error", "pass", "pass"], "NaN (not a JSON number)"),
    "raw_reply-ok-string": (["ok-string"], ["error", "pass", "pass"], "has ok 'false': it must be true or false"),
    "raw_reply-ok-one": (["ok-one"], ["error", "pass", "pass"], "has ok 1: it must be true or false"),
    "raw_reply-id-float": (["id-float"], ["error", "pass", "pass"], "(act) carries id"),
    "lying_hello-variants-list": (["variants-list"], ["error", "error", "error"], "the hello reply is not valid: $.variants"),
    "lying_hello-protocol-float": (["protocol-float"], ["error", "error", "error"], "the hello reply is not valid: $.protocol"),
    "lying_hello-protocol-true": (["protocol-true"], ["error", "error", "error"], "the hello reply is not valid: $.protocol"),
    "lying_hello-commands-string": (["commands-string"], ["error", "error", "error"], "the hello reply is not valid: $.commands"),
    "forking": ([], ["crash", "pass", "pass"], "before replying to act (exit status 4)"),   # exited, or its output closed
    "internal_on_illegal": ([], ["pass", "pass", "pass"], None),
    "wrong_protocol": ([], ["error", "error", "error"], "engine speaks protocol 2; this runner speaks 1"),
    "out_of_turn": ([], ["pass", "pass", "fail"], None),
    "wrong_to_act": ([], ["fail", "fail", "fail"], "seat 1 should be to act"),
    "stderr_flood": ([], ["pass", "pass", "pass"], None),
    "exit_at_once": ([], ["crash", "crash", "crash"], "(exit status 7)"),
    "endless_line": ([], ["error", "pass", "pass"], "exceeds 4194304 bytes without a line end"),
    "endless_line-huge": (["huge"], ["error", "pass", "pass"], "exceeds 4194304 bytes without a line end"),
    "endless_line-drip": (["drip"], ["timeout", "pass", "pass"], f"no reply to act within {WAITED:g} s"),
    "wrong_id": ([], ["error", "pass", "pass"], "carries id"),
    "not_object": ([], ["error", "pass", "pass"], "is not a reply object"),
    "refuse-internal": (["internal"], ["error", "error", "fail"], "engine refused act: internal"),
    "refuse-illegal_action": (["illegal_action"], ["fail", "fail", "fail"], "engine refused act: illegal_action"),
    "refuse-unsupported": (["unsupported"], ["fail", "fail", "fail"], "(the engine declared this case supported in hello)"),
    "deep_json": ([], ["error", "pass", "pass"], "nests too deeply to decode"),
    "surrogate": ([], ["error", "pass", "pass"], "lone surrogate"),
    "bad_types": ([], ["error", "error", "error"], "the state is not of the protocol's shape: tricks: not a list"),
    "bad_hello": ([], ["error", "error", "error"], "the hello reply is not valid: $.commands: 5 is not of type 'array'"),
    "unsupported": ([], ["unsupported", "unsupported", "unsupported"], None),
}
# faults that strike at FULL's 5th action, after which the engine is killed and restarted
MID_HAND_FAULTS = {"crash", "hang", "garbage", "endless_line", "endless_line-huge", "endless_line-drip", "wrong_id",
                   "not_object", "deep_json", "surrogate", "forking"} | {f for f in FAULTS if f.startswith("raw_reply")}
# faults that break every case before it starts: a fresh engine is tried for each
EVERY_CASE_FAULTS = {"wrong_protocol", "exit_at_once", "bad_hello"} | {f for f in FAULTS if f.startswith("lying_hello")}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_fault_gets_its_outcome(fault):
    args, expected, phrase = FAULTS[fault]
    timeout = WAITED if "timeout" in expected else TIMEOUT
    results, elapsed = run(engine(fault.split("-")[0], *args), RUN, timeout=timeout)
    assert outcomes(results) == dict(zip([c.id for c in RUN], expected)), [
        (r.case.id, r.outcome, r.failure and r.failure.message) for r in results]
    assert elapsed < SLACK + timeout * expected.count("timeout")
    full = result_of(results, FULL)
    if phrase is not None:
        assert phrase in full.failure.message
    starts = sum(r.engine_starts for r in results)
    if fault in MID_HAND_FAULTS:
        assert full.failure.where == MID_HAND and full.failure.step == 5
        assert starts == 2, "the engine is restarted once, after the fault"
    elif fault in EVERY_CASE_FAULTS:
        assert starts == 3, "a fresh engine for each case"
    elif fault != "unsupported":        # (an unsupported case does not count the start)
        assert starts == 1, "an engine that answers is kept, even when it answers wrong"


def test_a_crash_reports_exit_status_and_stderr():
    results, _ = run(engine("crash"), RUN)
    assert "crash.py: simulated crash on act request 5" in result_of(results, FULL).stderr
    assert result_of(results, SHORT).stderr is None and result_of(results, SHORT).outcome == "pass"
    results, _ = run(engine("exit_at_once"), [SHORT])
    assert "cannot find my configuration file" in results[0].stderr
    assert "exit status 7" in results[0].failure.message


def test_a_crash_after_a_stderr_flood_keeps_only_the_tail():
    results, _ = run(engine("crash", "5", str(3 * 1024 * 1024)), [FULL])
    stderr = results[0].stderr
    assert results[0].outcome == "crash"
    assert stderr.startswith("[... ") and "earlier bytes of stderr not kept" in stderr.splitlines()[0]
    assert len(stderr) < STDERR_KEEP + 200
    assert stderr.rstrip().endswith("crash.py: simulated crash on act request 5")


def test_out_of_turn_engine_fails_only_the_reject_step():
    results, _ = run(engine("out_of_turn"), [OOT])
    failure = results[0].failure
    assert failure.where == "hand 1 step 1 (seat 2 pass)"
    assert (failure.field, failure.expected, failure.actual) == ("error", "out_of_turn", "accepted")
    assert failure.clause["id"] == "round-1"


def test_wrong_to_act_names_the_field_and_both_values():
    results, _ = run(engine("wrong_to_act"), [SHORT])
    failure = results[0].failure
    assert (failure.field, failure.expected, failure.actual) == ("to_act", 1, 2)


def test_a_slow_engine_exceeds_the_case_budget_not_the_reply_timeout():
    # 0.1 s a reply, far within the 2 s reply timeout; FULL's 28 requests need 2.8 s
    results, elapsed = run(engine("slow", "0.1"), [FULL], case_timeout=1.0)
    assert outcomes(results) == {FULL.id: "timeout"}
    assert "case not finished within 1 s" in results[0].failure.message
    assert elapsed < SLACK


def test_an_engine_that_never_reads_cannot_block_the_runner():
    # blind.py pre-writes canned replies and reads no request, so every case fails at its first
    # step and the pipe to it fills up (64 KB on Linux: about 200 cases of 300 bytes).
    cases = [SHORT] * 300
    results, elapsed = run(engine("blind"), cases, timeout=1.0)
    seen = [r.outcome for r in results]
    assert len(results) == 300 and set(seen) <= {"fail", "timeout"} and "timeout" in seen
    timed_out = [r for r in results if r.outcome == "timeout"]
    assert all("the engine did not read the" in r.failure.message for r in timed_out), timed_out[0].failure
    assert elapsed < SLACK + len(timed_out)


def test_parallel_workers_account_for_every_case():
    cases = [FULL, SHORT, OOT, STICK] * 2
    results, elapsed = run(engine("crash"), cases, jobs=2)
    assert len(results) == len(cases)
    assert sorted(r.outcome for r in results) == ["crash"] * 2 + ["pass"] * 6
    assert all(r.outcome == "crash" for r in results if r.case is FULL)
    assert elapsed < SLACK


def test_max_fail_reports_the_cases_not_run():
    results, _ = run(engine("crash", "1"), RUN, max_fail=1)     # crashes on the first action
    assert [r.outcome for r in results] == ["crash", "skipped", "skipped"]
    assert all(r.detail == "not run: --max-fail reached" for r in results[1:])


def test_skip_list_turns_a_known_crash_into_expected_fail():
    skips = SkipList([("robust-full-hand", "crashes mid-hand"), ("robust-short-bid", "")])
    results, _ = run(engine("crash"), RUN, skips=skips)
    assert outcomes(results) == {FULL.id: "expected-fail", SHORT.id: "unexpected-pass", OOT.id: "pass"}


def test_the_reference_engine_passes_the_fixtures_strictly():
    results, _ = run([sys.executable, "-m", "conformance.reference_engine"], [*RUN, STICK], strict_replies=True)
    assert set(outcomes(results).values()) == {"pass"}


def test_corpus_selection_through_a_crashing_engine():
    corpus, _ = load_cases([CORPUS_DIR / "euchre" / "made-three-tricks.yaml"], TAGS)
    chosen = select(corpus, "euchre", ["made-three-tricks"])
    results, _ = run(engine("crash"), chosen + [SHORT])
    assert outcomes(results) == {"made-three-tricks": "crash", SHORT.id: "pass"}


def test_cli_writes_a_complete_report_after_a_crash(tmp_path):
    report = tmp_path / "report.jsonl"
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "check", "--engine", f"{sys.executable} {ENGINES / 'crash.py'}",
         "--corpus", str(FIXTURES), "--json", str(report), "--timeout", str(TIMEOUT)],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert time.monotonic() - started < SLACK + 5
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert "CRASH robust-full-hand" in result.stdout
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert [line["type"] for line in lines] == ["header"] + ["case"] * len(CASES) + ["footer"]
    header, cases, footer = lines[0], lines[1:-1], lines[-1]
    assert header["engine"]["command"][-1].endswith("crash.py")
    assert sorted(c["id"] for c in cases) == sorted(CASES)
    by_id = {c["id"]: c["outcome"] for c in cases}
    assert by_id == {case_id: "crash" if case_id == FULL.id else "pass" for case_id in CASES}
    crashed = next(c for c in cases if c["outcome"] == "crash")
    assert crashed["failure"]["where"] == MID_HAND and "simulated crash" in crashed["stderr"]
    assert footer["counts"]["crash"] == 1 and footer["counts"]["pass"] == len(CASES) - 1
    assert footer["cases"] == len(CASES) and footer["exit_code"] == 1


# -- malformed messages to the reference engine --------------------------------------------------

CATEGORIES = set(load_schema("protocol/common.schema.json")["$defs"]["category"]["enum"])
OK_SCHEMAS = {**REPLY_SCHEMAS, "perft": "perft-reply"}
TABLE = FULL.table
RULES = {"id": 1, "type": "rules", "variant": "euchre", "options": TABLE.selected, "sha256": TABLE.sha256,
         "table": TABLE.table}
NEW_GAME = {"id": 2, "type": "new_game", "dealer": 0}
DEAL_HANDS = [h.split() for h in ("9C TC QS KS AS", "JH JD AH 9S TS", "9D TD QD KD AD", "JC QC KC AC JS")]
DEAL = {"id": 3, "type": "deal", "hands": DEAL_HANDS, "upcard": "9H", "kitty": ["TH", "QH", "KH"]}
PACK = sorted({c for h in DEAL_HANDS for c in h} | {"9H", "TH", "QH", "KH"})

scalars = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
           | st.sampled_from([2**63, -2**63, 10**100, 1e308, -0.0]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                           max_leaves=10)
not_int = json_values.filter(lambda v: not isinstance(v, int) or isinstance(v, bool))
seats = st.integers(-2, 9) | st.sampled_from([2**63, -10**100, True]) | json_values
cards = st.sampled_from(PACK + ["2C", "JK", "ZZ", "", "9h", " 9C", "\ud800", "9C9C"]) | st.text(max_size=3)
card_lists = st.lists(cards, max_size=7) | json_values
tokens = st.sampled_from(["pass", "order", "alone", "call:H", "call:NT", "discard:9C", "play:JH", "play:9D", "play:",
                          ":", "bid:7NT", "", "PASS", "pass ", "play:\ud800"]) | st.text(max_size=10) | json_values
FIELDS = {
    "protocol": st.integers(-1, 3) | st.sampled_from([10**100]) | json_values,
    "suite": json_values,
    "seat": seats,
    "action": tokens,
    "dealer": seats,
    "scores": st.lists(st.integers(-5, 12) | st.sampled_from([10**100, True]), max_size=3) | json_values,
    "first_dealer": st.fixed_dictionaries({}, optional={"cards": card_lists, "start": seats}) | json_values,
    "hands": st.just(DEAL_HANDS) | st.lists(card_lists, max_size=5) | json_values,
    "upcard": cards | json_values,
    "widow": card_lists,
    "kitty": card_lists,
    "deck": card_lists | st.permutations(PACK),
    # perft is exponential by design: keep the depth a small valid number or an invalid one
    "depth": st.integers(-3, 2) | st.integers(min_value=65) | not_int,
    "divide": json_values,
    "table": st.just(TABLE.table) | json_values,
    "sha256": st.just(TABLE.sha256) | st.text(max_size=64),
    "variant": st.just("euchre") | json_values,
    "options": st.just({}) | json_values,
}
TYPES = ["hello", "rules", "new_game", "deal", "act", "legal", "state", "perft", "bye"]


@st.composite
def near_misses(draw) -> dict:
    """A message close to a valid one: plausible fields with wrong types, wrong values,
    missing ones and unknown ones."""
    message = {}
    if draw(st.integers(0, 9)):
        message["id"] = draw(st.integers(1, 1000) | st.sampled_from([0, -1, 10**100, True, 1.0, "1"]) | json_values)
    if draw(st.integers(0, 9)):
        message["type"] = draw(st.sampled_from(TYPES) | json_values)
    for key in draw(st.lists(st.sampled_from(sorted(FIELDS)), max_size=4, unique=True)):
        message[key] = draw(FIELDS[key])
    if draw(st.integers(0, 4)) == 0:
        message[draw(st.text(max_size=6))] = draw(json_values)
    return message


def schema_errors(schema: str, reply: dict) -> list[str]:
    """The validators' messages for ``reply``, as the runner asks them (document_errors: the
    compiled validator first) where the reply is plain JSON (the same after a round trip);
    the Python validator alone for one that is not (the compiled one reads a tuple as an array)."""
    plain = json.loads(json.dumps(reply)) == reply
    return [e.message for e in (document_errors(schema, reply) if plain else validator(schema).iter_errors(reply))]


def check_reply(message, reply) -> None:
    """A reply is a valid error with a category of the protocol, or a valid ok reply."""
    assert isinstance(reply, dict)
    json.dumps(reply, ensure_ascii=False).encode("utf-8", "backslashreplace")
    if reply.get("ok") is True:
        assert isinstance(message, dict) and reply["id"] == message["id"]
        schema = OK_SCHEMAS[message["type"]]
        errors = schema_errors(f"protocol/{schema}.schema.json", reply)
        assert not errors, errors
    else:
        assert reply.get("ok") is False
        errors = schema_errors("protocol/error-reply.schema.json", reply)
        assert not errors, errors
        assert reply["error"]["category"] in CATEGORIES


def snapshot(engine: ReferenceEngine):
    return engine.rules, engine.state.observation() if engine.state is not None else None


def dealt_engine() -> ReferenceEngine:
    engine = ReferenceEngine()
    for message in (RULES, NEW_GAME, DEAL):
        assert engine.handle(message)["ok"], message
    return engine


FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(FAST, max_examples=150)
@given(json_values | near_misses())
def test_reference_engine_answers_any_message_to_a_fresh_engine(message):
    engine = ReferenceEngine()
    before = snapshot(engine)
    reply = engine.handle(message)
    check_reply(message, reply)
    if not reply["ok"]:
        assert snapshot(engine) == before


@settings(FAST, max_examples=120)
@given(st.lists(near_misses(), min_size=1, max_size=8))
def test_reference_engine_answers_near_misses_mid_hand(messages):
    engine = dealt_engine()
    for message in messages:
        before = snapshot(engine)
        reply = engine.handle(message)
        check_reply(message, reply)
        if not reply["ok"]:
            assert snapshot(engine) == before, f"an error reply changed the state: {message}"


raw_lines = (st.binary(max_size=40).map(lambda b: b.replace(b"\n", b""))
             | near_misses().map(lambda m: json.dumps(m).encode())
             | json_values.map(lambda v: json.dumps(v).encode())
             | st.sampled_from([b"", b" ", b"{", b"null", b"[" * 100_000, b'{"id":1}' * 3, b"\xff\xfe",
                                b"\xef\xbb\xbf{}", b'{"id":1,"type":"hello","protocol":1}', b"NaN",
                                b'{"id":1e999,"type":"hello"}', b'{"id":' + b"9" * 5000 + b'}']))
PREAMBLE = [json.dumps(m).encode() for m in (RULES, NEW_GAME, DEAL)]


def served(lines: list[bytes]) -> list[dict]:
    """Serve the lines; check one valid reply per line up to the first successful bye."""
    out = BytesIO()
    assert serve(BytesIO(b"".join(line + b"\n" for line in lines)), out) == 0
    replies = [json.loads(line) for line in out.getvalue().split(b"\n")[:-1]]
    assert 1 <= len(replies) <= len(lines)
    for line, reply in zip(lines, replies):
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            message = None
        check_reply(message, reply)
    if len(replies) < len(lines):
        assert replies[-1]["ok"] and json.loads(lines[len(replies) - 1])["type"] == "bye"
    return replies


@settings(FAST, max_examples=60)
@given(st.booleans(), st.lists(raw_lines, min_size=1, max_size=10))
def test_serve_answers_every_raw_line(dealt, lines):
    served((PREAMBLE if dealt else []) + lines)


def test_serve_regressions():
    # a first line that is not JSON; nesting too deep for the decoder; an unhashable type;
    # a lone surrogate echoed back in an error message
    served([b"garbage", b"[" * 100_000, b'{"id":2,"type":["act"]}', *PREAMBLE,
            json.dumps({"id": 9, "type": "deal", "hands": [["\ud800"]] * 4}).encode(), b'{"id":10,"type":"bye"}'])
    assert ReferenceEngine().handle({"id": 1, "type": {}})["error"]["category"] == "bad_message"


JUNK = [None, True, -1, 0, 10**100, 1e308, "", "x", "9C", "play:JH", "\ud800", [], {}, [1, [2]], {"a": None}]
TEMPLATES = [{"type": "hello", "protocol": 1}, RULES, NEW_GAME, DEAL, {"type": "legal"}, {"type": "state"},
             {"type": "perft", "depth": 1}, {"type": "new_game", "first_dealer": {"cards": ["9C", "JS"], "start": 1}},
             {"type": "deal", "deck": PACK}]
TOKENS = ["pass", "order", "alone", "call:S", "discard:9C", "play:JH", "play:9D", "play:AS", "bid:7NT", "x"]


def random_lines(seed: int, count: int) -> list[bytes]:
    """Lines of every sort: raw bytes, broken JSON, valid requests and requests with a field
    dropped or replaced by junk (never a bye, so that every line is answered)."""
    rng = random.Random(seed)
    lines = []
    for number in range(1, count + 1):
        roll = rng.random()
        if roll < 0.1:
            lines.append(bytes(rng.randrange(256) for _ in range(rng.randrange(40))).replace(b"\n", b""))
            continue
        if roll < 0.15:
            lines.append(rng.choice([b"", b"{", b"[" * 100_000, b"NaN", b"\xef\xbb\xbf{}", b'{"id":' + b"9" * 5000 + b"}"]))
            continue
        if roll < 0.55:
            message = {"type": "act", "seat": rng.randrange(-1, 5), "action": rng.choice(TOKENS)}
        else:
            message = copy.deepcopy(rng.choice(TEMPLATES))
        message["id"] = number
        for _ in range(rng.choice([0, 0, 1, 2])):
            key = rng.choice(sorted(message) + ["extra"])
            if rng.random() < 0.5:
                message.pop(key, None)
            else:
                message[key] = rng.choice(JUNK)
        lines.append(json.dumps(message).encode())
    return lines


@pytest.mark.parametrize("seed", [1, 2])
def test_reference_engine_subprocess_answers_hundreds_of_random_lines(seed):
    lines = PREAMBLE + random_lines(seed, 300)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "conformance.reference_engine"], cwd=ROOT,
                          input=b"".join(line + b"\n" for line in lines), capture_output=True, timeout=60)
    assert time.monotonic() - started < 60
    assert done.returncode == 0 and done.stderr == b"", done.stderr[-2000:]
    replies = done.stdout.split(b"\n")[:-1]
    assert len(replies) == len(lines), "one reply per line"
    for line, reply in zip(lines, replies):
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            message = None
        check_reply(message, json.loads(reply))
    assert sum(json.loads(reply)["ok"] for reply in replies) > 10, "some requests should have succeeded"


# -- malformed case files --------------------------------------------------------------------------

BASE_TEXT = (FIXTURES / "short-bid.yaml").read_text(encoding="utf-8")
BASE = yaml.safe_load(BASE_TEXT)
REQUIRED = {"id", "title", "variant", "clauses", "tags", "setup", "hands", "dealer", "deal", "steps", "seat", "action"}
OTHER_TYPE = [7, "x", [1], {"a": 1}, True]


def nodes(data, path=()):
    """Every (path, value) under data, the root excluded."""
    if isinstance(data, dict):
        items = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return
    for key, value in items:
        yield path + (key,), value
        yield from nodes(value, path + (key,))


def set_at(data, path, value):
    for key in path[:-1]:
        data = data[key]
    if value is _DELETE:
        del data[path[-1]]
    else:
        data[path[-1]] = value


_DELETE = object()
NODES = list(nodes(BASE))
MAPPINGS = [()] + [path for path, value in NODES if isinstance(value, dict)]
KEYS = [path for path, _ in NODES if isinstance(path[-1], str)]
CARD_SPOTS = ([("hands", 0, "deal", "hands", s) for s in range(4)] + [("hands", 0, "deal", "upcard"),
              ("hands", 0, "deal", "kitty")])
BAD_CARDS = ["ZZ", "9X", "10H", "9c", "2H", "8C", "JK", "AH AH", "9C,TC"]
UNKNOWN_REFS = [(("clauses",), ["round-1", "no-such-clause"]), (("tags",), ["bidding", "no-such-tag"]),
                (("variant",), "no-such-variant"), (("options",), {"no-such-option": 1}),
                (("options",), {"stick-the-dealer": "maybe"}), (("hands", 0, "steps", 0, "clause"), "no-such-clause"),
                (("tags",), ["Not A Slug"]), (("hands", 0, "steps", 1, "seat"), 5), (("setup", "dealer"), 4),
                (("setup",), {"dealer": 0, "scores": [1, 2, 3]}), (("hands", 0, "deal", "hands"), ["9C TC QS KS AS"])]


@st.composite
def broken_case_files(draw) -> tuple[str, bool | None]:
    """A mutation of a valid case file, and whether it must be refused (None: it may be fine)."""
    kind = draw(st.sampled_from(["replace", "wrong-type", "delete", "unknown-key", "bad-card", "unknown-ref",
                                 "syntax", "random-yaml", "random-text"]))
    data = copy.deepcopy(BASE)
    must_fail: bool | None = True
    if kind == "replace":
        path, _ = draw(st.sampled_from(NODES))
        set_at(data, path, draw(json_values))
        must_fail = None
    elif kind == "wrong-type":
        path, value = draw(st.sampled_from(NODES))
        set_at(data, path, draw(st.sampled_from([v for v in OTHER_TYPE if type(v) is not type(value)])))
    elif kind == "delete":
        path = draw(st.sampled_from(KEYS))
        set_at(data, path, _DELETE)
        must_fail = True if path[-1] in REQUIRED else None
    elif kind == "unknown-key":
        path = draw(st.sampled_from(MAPPINGS))
        set_at(data, path + ("zz-unknown",), draw(json_values))
    elif kind == "bad-card":
        path = draw(st.sampled_from(CARD_SPOTS))
        bad = draw(st.sampled_from(BAD_CARDS))
        value = BASE["hands"][0]["deal"][path[3]]
        if isinstance(value, list):
            value = value[path[4]]
        words = value.split()
        words[draw(st.integers(0, len(words) - 1))] = bad
        set_at(data, path, " ".join(words))
    elif kind == "unknown-ref":
        path, value = draw(st.sampled_from(UNKNOWN_REFS))
        set_at(data, path, value)
    elif kind == "syntax":
        text = BASE_TEXT
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(text)))
            if draw(st.booleans()):
                text = text[:at] + draw(st.sampled_from(list("[]{}:,&*!|>'\"%@`\t-#?") + ["\n  ", ": :", "\x00"])) + text[at:]
            else:
                text = text[:at] + text[at + draw(st.integers(1, 20)):]
        return text, None
    elif kind == "random-yaml":
        return yaml.safe_dump(draw(json_values.filter(lambda v: not isinstance(v, dict))), allow_unicode=True), True
    else:
        return draw(st.text(max_size=200)), True
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False), must_fail


def yaml_parses(text: str) -> bool:
    try:
        yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return False
    return True


def check_problems(path: Path, text: str | None, must_fail: bool | None, parsed: bool | None = None):
    """Load the file: one case or problems, never an exception; each problem names the file
    and says what is wrong, and where the YAML parsed, on which line."""
    cases, problems = load_case_file(path, TAGS)
    assert (len(cases) == 1 and not problems) or (not cases and problems), (cases, problems)
    if must_fail:
        assert problems, f"accepted a broken case:\n{text}"
    if parsed is None:
        parsed = text is not None and yaml_parses(text)
    for problem in problems:
        assert problem.file == str(path)
        assert isinstance(problem.message, str) and problem.message.strip()
        if parsed:
            assert isinstance(problem.line, int) and 1 <= problem.line <= len(text.splitlines()) + 1, problem
    return problems


@pytest.fixture(scope="module")
def case_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("cases")


@settings(FAST, max_examples=150)
@given(broken_case_files())
def test_broken_case_files_give_located_problems(case_dir, mutation):
    text, must_fail = mutation
    path = case_dir / "case.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    check_problems(path, text, must_fail)


def _edit(old: str, new: str) -> str:
    assert old in BASE_TEXT
    return BASE_TEXT.replace(old, new)


# a file, the text on the line the problem must name (or the line number), and a phrase of the message
@pytest.mark.parametrize("name, text, line, phrase", [
    ("alias-bomb", "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
     + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 9)) + "id: *a8\n",
     "a5:", "aliases expand to more than"),
    ("deep-flow", "[" * 5000 + "]" * 5000 + "\n", 1, "nested more than 64 levels"),
    ("deep-block", "a:\n" + "".join("  " * i + "b:\n" for i in range(1, 200)), 65, "nested more than 64 levels"),
    ("impossible-date", _edit("setup: {dealer: 0}", "setup: {dealer: 2001-02-30}"), "setup:", "day is out of range"),
    ("huge-int", _edit("setup: {dealer: 0}", "setup: {dealer: " + "1" * 5000 + "}"), "setup:", "Exceeds the limit"),
    ("control-character", _edit("title: The", "title: \x00The"), "title:", "#x0000"),
    ("card-not-in-pack", _edit("upcard: 9H", "upcard: 2H"), "upcard:", "not cards of the euchre pack: 2H"),
    ("card-dealt-twice", _edit("kitty: TH QH KH", "kitty: TH QH AH"), "kitty:", "cards dealt twice: AH"),
    ("dealer-not-a-seat", _edit("setup: {dealer: 0}", "setup: {dealer: 5}"), "setup:", "no seat 5 among 4"),
    ("not-utf-8", None, None, "cannot read file"),
])
def test_case_file_regressions(tmp_path, name, text, line, phrase):
    path = tmp_path / f"{name}.yaml"
    if text is None:
        path.write_bytes(b"id: \xff\xfe\n")
    else:
        path.write_text(text, encoding="utf-8")
    if isinstance(line, str):
        line = next(n for n, content in enumerate(text.splitlines(), 1) if content.lstrip().startswith(line))
    started = time.monotonic()
    problems = check_problems(path, text, True, parsed=name not in {"deep-flow", "not-utf-8"})
    assert time.monotonic() - started < 30, "a broken case file must be refused quickly"
    assert phrase in problems[0].message and problems[0].line == line, problems


@pytest.mark.parametrize("number, refused", [
    ("9" * 20, False), ("-" + "9" * 20, False), ("1" + "0" * 20, True), ("-" + "1" * 21, True),
    ("1.5e300", False), ("NaN", True), ("-Infinity", True),
])
def test_reply_integers_are_bounded_at_twenty_digits(number, refused):
    """The quick test for a suspect reply (a run of 21 digits, NaN, Infinity) must send every
    such reply to the decoder that refuses it, wherever it sits, and pass the rest."""
    from conformance.runner.engine_process import EngineGarbled, decode_reply
    padding = '"note":"' + "#" * 30 + '",'     # marks that look like digits once translated
    line = ('{"id":1,"ok":true,' + padding + '"state":{"scores":[1,' + number + ']}}').encode()
    if refused:
        with pytest.raises(EngineGarbled, match="NaN|Infinity|digits"):
            decode_reply(line, "act")
    else:
        assert decode_reply(line, "act")["state"]["scores"][1] == json.loads(number)
    # digits inside text are never a number: 25 of them pass
    assert decode_reply(b'{"id":2,"ok":true,"note":"' + b"7" * 25 + b'"}', "act")["note"] == "7" * 25
