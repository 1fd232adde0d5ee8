"""A whole conformance run: select cases, spread them over worker engines, classify results.

Each worker thread owns one engine process (``-j N`` gives N engines). Results stream back
as cases finish; a skip file turns the failures it lists into ``expected-fail`` and flags
the ones that now pass as ``unexpected-pass``.
"""

from __future__ import annotations

import fnmatch
import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from reference_impl.errors import Problem, SpecError

from .cases import Case
from .runner import FAILING, CaseResult, Failure, Session


@dataclass
class SkipList:
    """Case-id globs from a skip (baseline) file: one per line, ``#`` starts a comment."""

    patterns: list[tuple[str, str]] = field(default_factory=list)   # (glob, reason)

    @classmethod
    def read(cls, path: str | Path) -> "SkipList":
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SpecError(Problem(str(path), "$", f"cannot read the skip file: {exc}")) from None
        patterns = []
        for line in text.splitlines():
            body, _, reason = line.partition("#")
            body = body.strip()
            if body:
                patterns.append((body, reason.strip()))
        return cls(patterns)

    def match(self, case_id: str) -> str | None:
        """The reason a case is listed ("" when none is given), or None if it is not."""
        for glob, reason in self.patterns:
            if fnmatch.fnmatchcase(case_id, glob):
                return reason
        return None

    @staticmethod
    def write(path: str | Path, results: Iterable[CaseResult]) -> int:
        failing = sorted((r.case.id, r.outcome) for r in results if r.outcome in FAILING | {"expected-fail"})
        lines = ["# euchre-spec baseline: cases this engine is known to fail (one case id or glob per line)."]
        lines += [f"{case_id}  # {outcome}" for case_id, outcome in failing]
        Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
        return len(failing)


def select(cases: list[Case], variant: str | None = None, globs: list[str] | None = None,
           shard: tuple[int, int] | None = None) -> list[Case]:
    """The cases to run: by variant, by id glob, then this shard's share (``K/N``, 1-based)."""
    chosen = [c for c in cases if variant is None or c.variant == variant]
    if globs:
        chosen = [c for c in chosen if any(fnmatch.fnmatchcase(c.id, g) for g in globs)]
    if shard:
        k, n = shard
        chosen = [c for i, c in enumerate(chosen) if i % n == k - 1]
    return chosen


def by_table(cases: list[Case]) -> list[Case]:
    """Cases sharing a rule table back to back, so an engine is sent each table rarely."""
    return sorted(cases, key=lambda c: (c.table.sha256 if c.table else "", c.id))


def case_cost(case: Case) -> int:
    """A rough measure of a case's work for the engine: its steps, and the positions its
    perft counts visit (a node costs about a tenth of a scripted step)."""
    cost = 1
    for hand in case.hands:
        cost += len(hand.get("steps", ()))
        cost += sum(int(count.get("nodes", 0)) for count in hand.get("perft", ())) // 10
    return cost


def table_groups(cases: list[Case]) -> list[list[Case]]:
    """The cases grouped by rule table, the costliest group first: workers take whole groups
    (each engine then compiles a table once) and the long ones start first, so that no
    worker is left with a long group at the end while the others idle."""
    groups: dict[str, list[Case]] = {}
    for case in by_table(cases):
        groups.setdefault(case.table.sha256 if case.table else "", []).append(case)
    return sorted(groups.values(), key=lambda group: (-sum(case_cost(c) for c in group), group[0].id))


def apply_skip_list(result: CaseResult, skips: SkipList | None) -> CaseResult:
    if skips is None:
        return result
    reason = skips.match(result.case.id)
    if reason is None:
        return result
    if result.outcome in FAILING:
        result.detail = f"listed in the skip file{': ' + reason if reason else ''}"
        result.outcome = "expected-fail"
    elif result.outcome == "pass":
        result.outcome = "unexpected-pass"
        result.failure = Failure(where="skip file", message="listed as failing, but the case now passes: remove it from the skip file")
    return result


GIVE_UP_AFTER = 5


def engine_unresponsive(result: CaseResult) -> bool:
    """Whether a case failed because the engine could not be started or did not answer."""
    if result.outcome == "timeout":
        return True
    return result.outcome in ("crash", "error") and result.failure is not None and result.failure.where == "engine start"


def run_cases(cases: list[Case], argv: list[str], jobs: int = 1, timeout: float = 10.0, case_timeout: float = 60.0,
              skips: SkipList | None = None, max_fail: int | None = None, strict_replies: bool = False,
              hello_callback: Callable[[dict], None] | None = None,
              give_up_after: int | None = GIVE_UP_AFTER, stopped: list[str] | None = None,
              corpus_version: str | None = None, start_timeout: float | None = None) -> Iterator[CaseResult]:
    """Run ``cases`` on ``jobs`` engines; yield each result as it is known.

    After ``max_fail`` unexpected failures no new case is started; after ``give_up_after``
    cases in a row in which the engine could not be started or did not answer (the circuit
    breaker: an engine that never says hello would otherwise cost a full timeout on every
    case), neither. Cases not run are yielded as ``skipped`` so that the report still
    accounts for every case; the reason for stopping is appended to ``stopped``.
    """
    todo: queue.Queue = queue.Queue()
    for group in table_groups(cases):
        todo.put(group)
    done: queue.Queue = queue.Queue()
    stop = threading.Event()
    failures = 0
    unresponsive = 0
    reason = "not run: --max-fail reached"
    lock = threading.Lock()

    def worker() -> None:
        nonlocal failures, unresponsive, reason
        session = Session(argv, timeout=timeout, case_timeout=case_timeout, strict_replies=strict_replies,
                          corpus_version=corpus_version, start_timeout=start_timeout)
        try:
            while True:
                try:
                    group = todo.get_nowait()
                except queue.Empty:
                    return
                for case in group:
                    if stop.is_set():
                        done.put(CaseResult(case, "skipped", 0.0, detail=reason))
                        continue
                    run_one(session, case)
        finally:
            session.close()
            done.put(None)

    def run_one(session: Session, case: Case) -> None:
        nonlocal failures, unresponsive, reason
        result = apply_skip_list(session.run(case), skips)
        if hello_callback is not None and session.engine.hello is not None:
            hello_callback(session.engine.hello)
        with lock:
            if result.outcome in FAILING:
                failures += 1
                if max_fail is not None and failures >= max_fail and not stop.is_set():
                    stop.set()
                    if stopped is not None:
                        stopped.append(f"stopped after {failures} unexpected failure(s) (--max-fail {max_fail})")
            unresponsive = unresponsive + 1 if engine_unresponsive(result) else 0
            if give_up_after and unresponsive >= give_up_after and not stop.is_set():
                reason = f"not run: the engine failed to start or answer in {unresponsive} cases in a row"
                stop.set()
                if stopped is not None:
                    stopped.append(f"gave up: the engine failed to start or answer in {unresponsive} cases in a row "
                                   f"(last: {result.failure.message if result.failure else result.outcome})")
        done.put(result)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(max(1, min(jobs, len(cases) or 1)))]
    for thread in threads:
        thread.start()
    finished = 0
    while finished < len(threads):
        try:
            # A timeout, not a plain get(): a SIGINT or SIGTERM that the kernel hands to one
            # of the worker threads only sets Python's flag, and the main thread runs the
            # handler (KeyboardInterrupt) only once it wakes up.
            item = done.get(timeout=0.2)
        except queue.Empty:
            continue
        if item is None:
            finished += 1
        else:
            yield item
    for thread in threads:
        thread.join()
