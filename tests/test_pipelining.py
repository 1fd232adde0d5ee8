"""The runner sends a case's next scripted action as soon as a reply arrives, before it has
checked that reply, so that the engine computes while the runner checks (on two cores a
``-j 1`` run takes about the time of the slower side, not the sum of both).

That must change nothing a user sees: the same outcome and the same failure for every case,
the engine never holding two unanswered requests, and an engine that fails on an action
sent ahead of a failure (one a waiting runner would never have sent) costing nothing but
its own restart.
"""

from __future__ import annotations

import sys
import time

import pytest

from conformance.cases import Case, load_cases
from conformance.runner.run import run_cases
from conformance.runner.selection import table_groups
from conformance.runner.engine_process import EngineProcess, engine_command
from conformance.runner.results import CaseResult
from conformance.runner.session import Session
from robustness_fixtures import ENGINES, FIXTURE_CASES, FULL, SHORT, TAGS

TIMEOUT = 3.0
OOT = FIXTURE_CASES["robust-out-of-turn"]


def engine(name: str, *args: str) -> list[str]:
    return [sys.executable, str(ENGINES / f"{name}.py"), *args]


def results_of(argv: list[str], cases: list[Case], **options) -> dict[str, CaseResult]:
    results = {r.case.id: r for r in run_cases(cases, argv, timeout=TIMEOUT, **options)}
    assert sorted(results) == sorted(c.id for c in cases), "every case exactly once"
    return results


def seen(result: CaseResult) -> tuple:
    """What a report says of a case, but its times and stderr."""
    failure = result.failure
    return (result.outcome, failure and (failure.where, failure.message, failure.field, failure.expected,
                                         failure.actual, failure.step))


@pytest.mark.parametrize("mode", ["crash", "hang"])
def test_an_engine_that_fails_on_the_action_sent_ahead_of_a_failure_is_only_restarted(mode):
    started = time.monotonic()
    results = results_of(engine("lie_then_die", mode), [FULL, SHORT, OOT])
    full = results[FULL.id]
    assert full.outcome == "fail" and full.failure.field == "to_act", full.failure
    assert full.failure.step == 6 and "should be to act" in full.failure.message
    assert results[SHORT.id].outcome == results[OOT.id].outcome == "pass"
    assert sum(r.engine_starts for r in results.values()) == 2, "replaced once, after the unanswered action"
    assert time.monotonic() - started < 30 + (TIMEOUT if mode == "hang" else 0)


def test_the_engine_never_holds_two_unanswered_requests():
    cases, problems = load_cases(None, TAGS)
    assert not problems
    sample = [FULL, SHORT, OOT] + [case for group in table_groups(cases)[::6] for case in group][:60]
    results = results_of(engine("lockstep"), sample)
    assert {r.outcome for r in results.values()} == {"pass"}, [seen(r) for r in results.values() if r.outcome != "pass"]


MUTANTS = ["bowers-swapped", "march-scored-one", "reneging-allowed", "leader-keeps-the-lead"]


def test_every_result_of_mutant_engines_is_the_same_with_and_without_sending_ahead(monkeypatch):
    """Mutants fail at every kind of place (a step's state, a trick's winner, the score at
    the end): with the next action sent ahead, each case's report is exactly what a runner
    that waits gives."""
    cases, problems = load_cases(None, TAGS)
    assert not problems
    euchre = [case for case in cases if case.variant == "euchre" and not case.id.startswith("perft")]
    sample = euchre[::10][:45]
    # a march in the sample whatever the regenerated cases hold, so the march mutant fails somewhere
    sample += [case for case in euchre if "march" in case.clauses and case not in sample][:2]
    failures = 0
    outcomes: set[str] = set()
    for name in MUTANTS:
        argv = [sys.executable, "-m", "conformance.mutants", name]
        monkeypatch.setattr(EngineProcess, "pipelines", True)
        ahead = results_of(argv, sample)
        monkeypatch.setattr(EngineProcess, "pipelines", False)
        waiting = results_of(argv, sample)
        assert {k: seen(r) for k, r in ahead.items()} == {k: seen(r) for k, r in waiting.items()}, name
        assert any(r.outcome == "fail" for r in ahead.values()), name
        outcomes |= {r.outcome for r in ahead.values()}
        failures += sum(r.outcome == "fail" for r in ahead.values())
    # a mutant that breaks a rule every case meets (follow suit) fails the whole sample, which
    # moves with the corpus; passes and failures must both be compared, across the mutants
    assert outcomes == {"pass", "fail"}, outcomes
    assert failures >= 3 * len(MUTANTS), "the mutants must fail cases, or the comparison proves little"


def test_the_reference_engine_gets_no_request_it_did_not_need():
    """A passing case leaves nothing sent ahead: its last action has no next one."""
    cases, _ = load_cases(None, TAGS)
    session = Session(engine_command("reference"), timeout=TIMEOUT)
    try:
        for case in [FULL, SHORT] + cases[:20]:
            assert session.run(case).outcome == "pass"
            assert session.engine._ahead is None
    finally:
        session.close()
