"""The runner's session: one engine process, each case checked against what the engine declares,
adapted to the options it plays, then played and judged.

A :class:`Session` owns one long-lived engine process and plays cases through it, one at a
time (:class:`~conformance.runner.play.CasePlayer` plays and judges). Before a case is played
it is checked against the engine's ``hello`` (:mod:`conformance.runner.declared`): a case the
engine cannot run ends ``unsupported``, with what it should declare; a case whose options the
engine plays otherwise, where the case does not need them, is run under the engine's values
once the reference has replayed it so (:mod:`conformance.runner.adapt`).
"""

from __future__ import annotations

import time

from conformance.cases import Case
from conformance.runner.adapt import adapted, rederived_note
from conformance.runner.declared import unsupported_needs
from conformance.runner.play import CasePlayer
from conformance.runner.results import CaseResult


class Session(CasePlayer):
    """One engine process, used for case after case."""

    def _prepare(self, case: Case, started: float) -> Case | CaseResult:
        needs = unsupported_needs(self.engine.hello, case)
        if needs:
            return CaseResult(case, "unsupported", time.monotonic() - started, detail=needs[0][1],
                              needs=sorted({what for what, _ in needs}))
        played, why = adapted(self.engine.hello, case)   # the options it declares, where the script allows
        if why:
            return CaseResult(case, "unsupported", time.monotonic() - started, detail=why)
        return played

    def _adapted_detail(self, case: Case, played: Case) -> str | None:
        detail = "run under the options the engine declares: " + ", ".join(
            f"{k}={v}" for k, v in played.table.selected.items() if case.table.selected.get(k) != v)
        note = rederived_note(played)
        return detail + (f"; {note}" if note else "")
