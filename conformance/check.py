"""A whole conformance run: select cases, spread them over worker engines, classify results.

Each worker owns one engine process (``-j N`` gives N engines) and takes whole table
groups, the costliest first. Results stream back as cases finish; a skip file turns the
failures it lists into ``expected-fail`` and flags the ones that now pass as
``unexpected-pass``.
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
from .engine_process import START_TIMEOUT
from .runner import FAILING, CaseResult, Failure, Session, unsupported_needs
from conformance.common.usage import write_atomically
from .worker_processes import can_fork, run_in_processes


MAX_SKIP_BYTES = 4 * 1024 * 1024     # a skip file of every case of the corpus is about 60 KB
MAX_GLOB = 200                       # characters in one case id or glob (ids are under 80)
MAX_GLOB_BRACKETS = 8                # '[' in one glob


@dataclass
class SkipList:
    """Case-id globs from a skip (baseline) file: one per line, ``#`` starts a comment."""

    patterns: list[tuple[str, str]] = field(default_factory=list)   # (glob, reason)

    @classmethod
    def read(cls, path: str | Path) -> "SkipList":
        """The skip file at ``path``, bounded before it is read (its size, each glob's length
        and brackets: a glob of many ``[`` costs time quadratic in its length to match)."""
        try:
            size = Path(path).stat().st_size
            if size > MAX_SKIP_BYTES:
                raise SpecError(Problem(str(path), "$", f"the skip file is {size} bytes, more than {MAX_SKIP_BYTES}"))
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SpecError(Problem(str(path), "$", f"cannot read the skip file: {exc}")) from None
        patterns = []
        for number, line in enumerate(text.splitlines(), 1):
            body, _, reason = line.partition("#")
            body = body.strip()
            if not body:
                continue
            if len(body) > MAX_GLOB or body.count("[") > MAX_GLOB_BRACKETS:
                raise SpecError(Problem(str(path), f"line {number}", f"a case id or glob of {len(body)} characters and "
                                        f"{body.count('[')} '[' (at most {MAX_GLOB} and {MAX_GLOB_BRACKETS})"))
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
        write_atomically(path, "\n".join(lines) + "\n")
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


def run_cases(cases: list[Case], argv: list[str], jobs: int = 1, timeout: float = 10.0, case_timeout: float = 60.0,
              skips: SkipList | None = None, max_fail: int | None = None, strict_replies: bool = False,
              hello_callback: Callable[[dict], None] | None = None,
              give_up_after: int | None = GIVE_UP_AFTER, stopped: list[str] | None = None,
              corpus_version: str | None = None, start_timeout: float | None = None) -> Iterator[CaseResult]:
    """Run ``cases`` on ``jobs`` engines; yield each result as it is known.

    With more than one engine, each is driven by its own forked worker process (see
    :mod:`conformance.worker_processes`): checking replies is most of the runner's work, and
    threads would do it one at a time. Without ``fork`` (Windows), threads drive them.
    Once :class:`StopRules` stops the run, no new case is started; cases not run are
    yielded as ``skipped`` so that the report still accounts for every case, and the
    reason for stopping is appended to ``stopped``.
    """
    rules = StopRules(max_fail, give_up_after, stopped)
    groups = table_groups(cases)
    jobs = max(1, min(jobs, len(groups) or 1))

    def make_session() -> Session:
        return Session(argv, timeout=timeout, case_timeout=case_timeout, strict_replies=strict_replies,
                       corpus_version=corpus_version, start_timeout=start_timeout)

    seen_hello: dict = {}

    def on_hello(reply: dict) -> None:
        if not seen_hello:
            seen_hello.update(reply)
        if hello_callback is not None:
            hello_callback(reply)

    def finish(result: CaseResult) -> CaseResult:
        if result.outcome == "unsupported" and result.needs is None and seen_hello:
            # a worker process reports why; what to declare is worked out here, from its hello
            result.needs = sorted({what for what, _ in unsupported_needs(seen_hello, result.case)}) or None
        return apply_skip_list(result, skips)

    if jobs > 1 and can_fork():
        budget = (start_timeout or START_TIMEOUT) + case_timeout + timeout
        yield from run_in_processes(cases, groups, jobs, make_session, finish, rules, on_hello, budget)
    else:
        yield from _run_in_threads(groups, jobs, make_session, finish, rules, on_hello)


def _run_in_threads(groups: list[list[Case]], jobs: int, make_session: Callable[[], Session],
                    finish: Callable[[CaseResult], CaseResult], rules: StopRules,
                    hello_callback: Callable[[dict], None] | None) -> Iterator[CaseResult]:
    """Each thread owns one engine and takes whole table groups from a shared queue."""
    todo: queue.Queue = queue.Queue()
    for group in groups:
        todo.put(group)
    done: queue.Queue = queue.Queue()
    lock = threading.Lock()

    def worker() -> None:
        session = make_session()
        try:
            while True:
                try:
                    group = todo.get_nowait()
                except queue.Empty:
                    return
                for case in group:
                    if rules.stop.is_set():
                        done.put(rules.not_run(case))
                        continue
                    result = finish(session.run(case))
                    if hello_callback is not None and session.engine.hello is not None:
                        hello_callback(session.engine.hello)
                    with lock:
                        rules.record(result)
                    done.put(result)
        finally:
            session.close()
            done.put(None)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(jobs)]
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
