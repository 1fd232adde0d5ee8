"""Regression tests of the hardening: each finding of a hostile-engine and fuzzing campaign,
fixed, with a test that failed before the fix.

Hostile engines live in ``tests/faulty_engines/`` (their outcomes in ``test_robustness``);
here are the findings that need more than an outcome: what a run leaves behind (processes,
memory, report size, well-formed JUnit), how it stops (circuit breaker, SIGTERM, Ctrl-C), the
reference engine's error categories, and broken tables and cases.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance import CORPUS_DIR
from conformance.cases import load_case_file
from conformance.runner.run import run_cases
from conformance.common.clip import MAX_ITEMS, MAX_TEXT, clip, xml_safe
from conformance.reference_engine import ReferenceEngine, serve
from conformance.reports.junit import write_junit
from reference_impl import ActionError, SpecError, load_rules, new_game
from reference_impl.resolve import resolve_file
from reference_impl.validate import variant_problems
from process_table import wait_until
from robustness_fixtures import ENGINES, FIXTURE_CASES, FIXTURES, FULL, ROOT, SHORT, TAGS



def engine(name: str, *args: str) -> list[str]:
    return [sys.executable, str(ENGINES / name), *args]


def cli(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, "COLUMNS": "200"}, **kwargs)


def alive(marker: str) -> list[str]:
    """Processes whose command line holds ``marker``."""
    found = subprocess.run(["pgrep", "-af", marker], capture_output=True, text=True).stdout
    return [line for line in found.splitlines() if "pgrep" not in line]


# -- the interpreter and the reference engine ----------------------------------------------------

def test_a_non_play_token_in_the_play_is_an_illegal_action():
    rules = load_rules("euchre")
    state = new_game(rules, 0)
    state.deal(rules.deal_from_order(list(rules.card_names), 0))
    state.apply("order")                 # the eldest orders up, declines to go alone,
    state.apply("pass")
    state.apply(state.legal_actions()[0])  # and the dealer discards
    assert state.phase == "play"
    before = state.observation()
    for token in ("pass", "order", "call:H", "alone", "discard:9C", "take", "defend-alone", "give:9C", "name:H"):
        with pytest.raises(ActionError) as refused:
            state.apply(token)
        assert refused.value.category == "illegal_action", token
    assert state.observation() == before


def fresh_engine(*messages: dict) -> ReferenceEngine:
    engine_ = ReferenceEngine()
    for message in messages:
        assert engine_.handle(message)["ok"], message
    return engine_


RULES = {"id": 1, "type": "rules", "variant": "euchre", "options": FULL.table.selected,
         "sha256": FULL.table.sha256, "table": FULL.table.table}


@pytest.mark.parametrize("message, category", [
    ({"type": "new_game", "dealer": 0, "scores": [1, 2, 3]}, "bad_message"),
    ({"type": "new_game", "dealer": 0, "first_dealer": {"cards": ["JC"]}}, "bad_message"),
    ({"type": "new_game"}, "bad_message"),
    ({"type": "new_game", "dealer": 4}, "bad_message"),
    ({"type": "new_game", "dealer": 0.0}, "bad_message"),
    ({"type": "new_game", "first_dealer": {"cards": ["JC"], "start": 9}}, "bad_message"),
])
def test_new_game_categories_follow_the_protocol_page(message, category):
    engine_ = fresh_engine(RULES)
    reply = engine_.handle({"id": 2, **message})
    assert reply["ok"] is False and reply["error"]["category"] == category, reply


def test_act_checks_field_types_before_the_game():
    reply = ReferenceEngine().handle({"id": 1, "type": "act", "seat": "0", "action": "pass"})
    assert reply["error"]["category"] == "bad_message"
    reply = ReferenceEngine().handle({"id": 1, "type": "act", "seat": 0, "action": "pass"})
    assert reply["error"]["category"] == "wrong_phase"


def test_a_lone_surrogate_anywhere_is_a_bad_message():
    table = json.loads(json.dumps(FULL.table.table))
    table["title"] = "Euchre \ud800"
    reply = ReferenceEngine().handle({**RULES, "table": table})
    assert reply["error"]["category"] == "bad_message" and "$.table.title" in reply["error"]["message"]


def test_raw_surrogate_bytes_on_the_wire_are_a_bad_message():
    from io import BytesIO
    out = BytesIO()
    serve(BytesIO(b'{"id":1,"type":"hello","protocol":1,"x":"\xed\xa0\x80"}\n'), out)
    reply = json.loads(out.getvalue())
    assert reply["ok"] is False and reply["error"]["category"] == "bad_message" and "UTF-8" in reply["error"]["message"]


def test_perft_depth_is_capped_at_the_longest_hand():
    deal = {"id": 3, "type": "deal", "hands": FULL.hands[0]["deal"]["hands"], "upcard": FULL.hands[0]["deal"]["upcard"]}
    engine_ = fresh_engine(RULES, {"id": 2, "type": "new_game", "dealer": 0}, deal)
    longest = engine_.rules.max_hand_actions
    assert 30 <= longest <= 40        # 9 bids, the lone offers, the discard, 20 cards
    started = time.monotonic()
    reply = engine_.handle({"id": 4, "type": "perft", "depth": 40})
    assert reply["error"]["category"] == "bad_message" and f"0..{longest}" in reply["error"]["message"]
    assert time.monotonic() - started < 5
    assert engine_.handle({"id": 5, "type": "perft", "depth": 2})["nodes"] == 4


# -- the runner against hostile engines -----------------------------------------------------------

def test_unsupported_after_the_hello_is_a_failure_not_a_skip():
    results = list(run_cases([FULL, SHORT], engine("refuse.py", "unsupported"), timeout=5))
    assert {r.outcome for r in results} == {"fail"}


def test_an_engine_answering_internal_for_a_bid_in_the_play_is_caught_by_the_corpus():
    [case] = load_case_file(CORPUS_DIR / "euchre" / "follow-suit-refusals.yaml", TAGS)[0]
    [result] = run_cases([case], engine("internal_on_illegal.py"), timeout=5)
    assert result.outcome == "fail" and result.failure.field == "error.category"
    assert (result.failure.expected, result.failure.actual) == ("illegal_action", "internal")


def test_a_huge_legal_list_is_cut_in_the_report_and_junit_stays_well_formed(tmp_path):
    [result] = run_cases([FULL], engine("flood_legal.py"), timeout=20)
    assert result.outcome == "fail" and result.failure.field == "legal"
    assert len(result.failure.actual) == MAX_ITEMS + 1 and "more entries" in result.failure.actual[-1]
    assert len(json.dumps(result.to_json())) < 50_000
    result.stderr = "engine log \x00\x01\x1b[31m \x0b\ufffe\ud800 end"       # what XML 1.0 forbids
    junit = tmp_path / "junit.xml"
    write_junit(junit, [result], "engine \x07 name")
    root = ET.parse(junit).getroot()                                          # well-formed
    assert "engine log" in root.find(".//system-err").text


def test_clip_bounds_every_kind_of_value():
    assert len(clip("x" * 10**6)) < MAX_TEXT + 40
    assert len(clip(list(range(10**5)))) == MAX_ITEMS + 1
    nested: list = []
    for _ in range(500):
        nested = [nested]
    assert "nested too deeply" in json.dumps(clip(nested))
    assert len(clip({str(i): i for i in range(1000)})) == MAX_ITEMS + 1
    assert xml_safe("a\x00b\ud800c") == "a\\x00b\\ud800c"


def test_the_circuit_breaker_stops_a_run_whose_engine_never_says_hello():
    cases = [SHORT] * 8
    stopped: list[str] = []
    started = time.monotonic()
    results = list(run_cases(cases, engine("silent.py"), timeout=0.5, start_timeout=0.5, give_up_after=3, stopped=stopped))
    assert time.monotonic() - started < 60
    assert [r.outcome for r in results].count("timeout") == 3
    assert [r.outcome for r in results].count("skipped") == 5
    assert stopped and "failed to start or answer in 3 cases in a row" in stopped[0]


def test_a_lying_hello_cannot_give_a_green_run(tmp_path):
    report = tmp_path / "r.jsonl"
    result = cli("check", "--engine", f"{sys.executable} {ENGINES / 'lying_hello.py'} variants-list",
                 "--corpus", str(FIXTURES), "--json", str(report))
    assert result.returncode == 1, result.stdout + result.stderr
    footer = json.loads(report.read_text().splitlines()[-1])
    assert footer["exit_code"] == 1 and footer["counts"]["error"] == len(FIXTURE_CASES)


def test_a_run_in_which_no_case_ran_fails(tmp_path):
    result = cli("check", "--engine", f"{sys.executable} {ENGINES / 'unsupported.py'}", "--corpus", str(FIXTURES),
                 "--json", str(tmp_path / "r.jsonl"))
    assert result.returncode == 1 and "no case was run" in result.stderr


def test_a_wrapper_without_exec_leaves_no_engine_behind(monkeypatch):
    monkeypatch.setenv("PYTHON", sys.executable)
    marker = f"marker-{uuid.uuid4().hex}"
    argv = [str(ENGINES / "wrapper_no_exec.sh"), "5", marker]
    results = list(run_cases([FULL, SHORT], argv, timeout=1.0))
    assert {r.case.id: r.outcome for r in results} == {FULL.id: "timeout", SHORT.id: "pass"}
    assert wait_until(lambda: not alive(marker)), alive(marker)


def test_a_forked_child_holding_the_pipes_is_a_crash_and_is_killed(tmp_path):
    pidfile = tmp_path / "child.pid"
    started = time.monotonic()
    [result] = run_cases([FULL], engine("forking.py", "5", str(pidfile)), timeout=30)
    assert result.outcome == "crash" and "exit status 4" in result.failure.message
    assert time.monotonic() - started < 25, "the crash is seen, not waited out as the 30 s timeout"
    child = int(pidfile.read_text())
    assert wait_until(lambda: not Path(f"/proc/{child}").exists() or "zombie" in _state(child), 5)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0].lower()
    except (OSError, IndexError):
        return "gone"


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_or_ctrl_c_stops_the_runner_and_its_engines(tmp_path, signum, jobs):
    marker = f"marker-{uuid.uuid4().hex}"
    report = tmp_path / "r.jsonl"
    runner = subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", "check", "--engine", f"{ENGINES / 'wrapper_no_exec.sh'} 1 {marker}",
         "--corpus", str(FIXTURES), "--timeout", "600", "--json", str(report), "-j", str(jobs)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHON": sys.executable},
        # As from a terminal: a suite started in the background (`cmd &` in a script) runs
        # with SIGINT ignored, which its children inherit and Python then respects.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert wait_until(lambda: len(alive(marker)) >= 2 * jobs), "the wrapped engines never started"
        time.sleep(0.5)                      # the engine is now hanging on its first act
        runner.send_signal(signum)
        out, err = runner.communicate(timeout=20)
    finally:
        runner.kill()
    assert runner.returncode == 130, out + err
    assert "Traceback" not in err and "interrupted" in err
    assert wait_until(lambda: not alive(marker)), alive(marker)
    footer = json.loads(report.read_text().splitlines()[-1])
    assert footer["type"] == "footer" and "interrupted" in footer["stopped"][0]


def test_rich_markup_from_a_user_or_an_engine_is_printed_as_it_is(tmp_path):
    result = cli("check", "--engine", f"{sys.executable} [/bold] [red]", "--corpus", str(FIXTURES / "short-bid.yaml"),
                 "--json", str(tmp_path / "r.jsonl"))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "[/bold] [red]" in result.stdout
    table = tmp_path / "[bold].yaml"
    table.write_text("id: '[/bold]'\ntitle: t\nsummary: s\nsources: {}\n")
    result = cli("validate", str(table))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "'[/bold]' does not match '^[a-z0-9]+(-[a-z0-9]+)*$'" in result.stdout


# -- broken tables and cases ----------------------------------------------------------------------

@pytest.mark.parametrize("key", ["1", "1.5", "~", "yes", "2001-01-01"])
def test_keys_that_are_not_text_are_located_problems(tmp_path, key):
    table = (ROOT / "spec" / "variants" / "euchre.yaml").read_text().replace("deal:\n  packets:", f"deal:\n  {key}: 2\n  packets:")
    path = tmp_path / "euchre.yaml"
    path.write_text(table)
    problems = variant_problems(path)
    assert len(problems) == 1 and "not text" in problems[0].message and problems[0].path == "$.deal"
    line = next(n for n, text in enumerate(table.splitlines(), 1) if text.strip().startswith(f"{key}: 2"))
    assert problems[0].line == line
    case = (FIXTURES / "short-bid.yaml").read_text().replace("setup:", f"{key}: 1\nsetup:")
    (tmp_path / "case.yaml").write_text(case)
    cases, problems = load_case_file(tmp_path / "case.yaml", TAGS)
    assert not cases and "not text" in problems[0].message


def test_a_date_and_its_quoted_text_are_never_confused_by_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EUCHRE_SPEC_CACHE", str(tmp_path / "cache"))
    text = (FIXTURES / "short-bid.yaml").read_text()
    quoted, date = tmp_path / "quoted.yaml", tmp_path / "date.yaml"
    quoted.write_text(text.replace("\ntitle:", "\ntitle: '2001-01-01'\nx-title:").replace("\nx-title:", "\n#"))
    date.write_text(text.replace("\ntitle:", "\ntitle: 2001-01-01\nx-title:").replace("\nx-title:", "\n#"))
    for _ in range(2):
        assert load_case_file(quoted, TAGS)[1] == []
        problems = load_case_file(date, TAGS)[1]
        assert problems and "is not of type 'string'" in problems[0].message


@pytest.mark.parametrize("old, new, phrase", [
    ("setup: {dealer: 0}", "setup: {dealer: 0.0}", "0.0 is not of type 'integer'"),
    ("{seat: 1, action: pass", "{seat: 1.0, action: pass", "1.0 is not of type 'integer'"),
])
def test_integers_are_integers_in_cases(tmp_path, old, new, phrase):
    text = (FIXTURES / "short-bid.yaml").read_text()
    assert old in text
    (tmp_path / "case.yaml").write_text(text.replace(old, new, 1))
    cases, problems = load_case_file(tmp_path / "case.yaml", TAGS)
    assert not cases and phrase in problems[0].message and problems[0].line


def test_integers_are_integers_in_tables(tmp_path):
    path = tmp_path / "euchre.yaml"
    path.write_text((ROOT / "spec" / "variants" / "euchre.yaml").read_text().replace("count: 4", "count: 4.0", 1))
    problems = variant_problems(path)
    assert problems and "4.0 is not of type 'integer'" in problems[0].message


def test_a_deep_extends_chain_is_refused_clearly(tmp_path):
    for index in range(1500):
        parent = f"extends: v{index + 1}\n" if index < 1499 else "extends: euchre\n"
        (tmp_path / f"v{index}.yaml").write_text(f"id: v{index}\ntitle: t\nsummary: s\nsources: {{x: {{title: t, kind: book}}}}\n{parent}")
    with pytest.raises(SpecError) as refused:
        resolve_file(tmp_path / "v0.yaml")
    assert "more than 16 parents" in str(refused.value)


def test_long_text_aliased_many_times_is_refused_quickly(tmp_path):
    body = "x" * 100_000
    text = f"id: euchre\ntitle: &t '{body}'\nsummary: s\nnotes: [{', '.join(['*t'] * 2000)}]\n"
    path = tmp_path / "euchre.yaml"
    path.write_text(text)
    started = time.monotonic()
    problems = variant_problems(path)
    assert time.monotonic() - started < 30
    assert problems and "aliases expand to more than" in problems[0].message


# -- the command line: a user's mistake is one line, never a traceback --------------------------

@pytest.mark.parametrize("args, phrase", [
    (["play", "euchre", "--games", "0"], "expected a number of at least 1"),
    (["play", "euchre", "--games", "-5"], "expected a number of at least 1"),
    (["check", "--engine", "reference", "--skip", "missing.txt"], "no such file: missing.txt"),
    (["check", "--engine", "reference", "--json", "docs"], "is a folder, not a file"),
    (["check", "--engine", "reference", "--junit", "/etc/passwd/x.xml"], "cannot write the JUnit file"),
    (["check", "--engine", "reference", "--timeout", "nan"], "positive, finite number of seconds"),
    (["check", "--engine", "reference", "--timeout", "-1"], "positive, finite number of seconds"),
    (["check", "--engine", "", "--case", "x"], "the engine command is empty"),
    (["check", "--engine", "reference", "-j", "0"], "at least 1"),
    (["validate", "no/such/table.yaml"], "no such file or folder"),
])
def test_usage_errors_exit_2_with_one_line(args, phrase):
    started = time.monotonic()
    result = cli(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert phrase in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) <= 3
    assert time.monotonic() - started < 30, "refused before any case runs"


def test_an_internal_error_exits_3_and_saves_the_traceback(monkeypatch, capsys):
    from conformance.cli import main
    from conformance.cli import variants as cli_module

    def broken(*args, **kwargs):
        raise RuntimeError("a bug of ours")
    monkeypatch.setattr(cli_module, "resolve", broken)
    assert main(["variants"]) == 3
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: a bug of ours" in err and "Traceback" not in err
    saved = Path(err.split("the traceback is in ")[1].split()[0])
    assert "Traceback" in saved.read_text()
    saved.unlink()
