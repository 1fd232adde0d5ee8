"""When a run stops starting cases: ``--max-fail`` reached, or an engine that cannot be started.

Kept apart from the drivers (:mod:`conformance.runner.threads`, :mod:`conformance.runner.workers`)
and from :mod:`conformance.runner.run`, which hands the rules to them: each reads them, none
imports another.
"""

from __future__ import annotations

import threading

from conformance.cases import Case
from conformance.runner.results import FAILING, CaseResult

GIVE_UP_AFTER = 5



def engine_unresponsive(result: CaseResult) -> bool:
    """Whether a case failed because the engine could not be started or did not answer."""
    if result.outcome == "timeout":
        return True
    return result.outcome in ("crash", "error") and result.failure is not None and result.failure.where == "engine start"



class StopRules:
    """When a run stops starting cases: after ``max_fail`` unexpected failures, or after
    ``give_up_after`` cases in a row in which the engine could not be started or did not
    answer (the circuit breaker: an engine that never says hello would otherwise cost a
    full timeout on every case). Results are recorded in the order they become known."""

    def __init__(self, max_fail: int | None, give_up_after: int | None, stopped: list[str] | None):
        self.max_fail, self.give_up_after = max_fail, give_up_after
        self.stopped = stopped if stopped is not None else []
        self.failures = self.unresponsive = 0
        self.reason = "not run: --max-fail reached"      # what a case not run is told
        self.stop = threading.Event()

    def record(self, result: CaseResult) -> bool:
        """Count one result; whether it is the one that stops the run."""
        if result.outcome in FAILING:
            self.failures += 1
            if self.max_fail is not None and self.failures >= self.max_fail and not self.stop.is_set():
                self.stop.set()
                self.stopped.append(f"stopped after {self.failures} unexpected failure(s) (--max-fail {self.max_fail})")
                return True
        self.unresponsive = self.unresponsive + 1 if engine_unresponsive(result) else 0
        if self.give_up_after and self.unresponsive >= self.give_up_after and not self.stop.is_set():
            self.reason = f"not run: the engine failed to start or answer in {self.unresponsive} cases in a row"
            self.stop.set()
            self.stopped.append(f"gave up: the engine failed to start or answer in {self.unresponsive} cases in a row "
                                f"(last: {result.failure.message if result.failure else result.outcome})")
            return True
        return False

    def not_run(self, case: Case) -> CaseResult:
        return CaseResult(case, "skipped", 0.0, detail=self.reason)
