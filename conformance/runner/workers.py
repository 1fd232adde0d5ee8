"""``check -j N``: N forked worker processes, each driving one engine.

Most of a run's CPU is the runner's own (decoding replies, checking them against the
schemas and the case), so threads under one interpreter lock cannot use a second core.
Workers are forked after the corpus is loaded, so they share it without copying or
pickling; each asks the parent for its next table group (the costliest first, so no
worker is left with a long one at the end), runs it, and sends back each result as a
small tuple. The parent owns everything that must be seen whole: the skip list, the stop
rules (``--max-fail``, the circuit breaker), the report.

Nothing a worker does can take the run down or lose a case: one that dies or goes silent
longer than a case can take is killed, the case it was running is reported as an error,
and the rest of its group goes back in the queue for the others (a replacement is forked
while there is work left, a bounded number of times). On SIGTERM a worker ends its
engine, with everything the engine started, before it exits; a worker whose parent is gone
does the same, told by SIGTERM on Linux (the parent-death signal) and elsewhere at its next
message. Each engine runs under its own keeper (a child subreaper, see
:mod:`conformance.runner.containment`), which also ends everything the engine started when the
worker dies without doing it; a worker tells the parent how many processes its engines
left behind, for the report.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterator

from conformance.cases import Case
from conformance.runner.containment import die_with_parent
from conformance.runner.engine_process import end_orphaned, forget_inherited, kill_all, left_behind_total, note_left
from conformance.runner.results import CaseResult, Failure
from conformance.runner.session import Session
from conformance.runner.stop_rules import StopRules


POLL = 0.2            # seconds between checks for a signal, a silent worker or a dead one
GRACE = 2.0           # seconds a worker has to kill its engine after SIGTERM


def can_fork() -> bool:
    """Whether workers can be forked (POSIX); elsewhere the runner uses threads."""
    return "fork" in multiprocessing.get_all_start_methods()


# -- in the worker ----------------------------------------------------------------------------

def _on_sigterm(signum: int, frame: object) -> None:
    kill_all()
    os._exit(128 + signum)


def _worker(cases: list[Case], make_session: Callable[[], Session], pipe: Connection) -> None:
    """Ask for a group, run it, send each result; stop early when told to.

    Messages to the parent: ``("hello", reply)`` once, ``("result", index, fields…)`` per
    case, ``("engine", handle)`` when its engine changes, ``("next",)`` for more work and,
    last, ``("left", count)``: the processes its engines left behind. From it:
    ``("group", indexes or None)`` and ``("stop",)``, after which the rest of the group is
    left for the parent to report.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the parent's to handle
    for name in ("SIGHUP", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM", "SIGPROF", "SIGXCPU", "SIGIO", "SIGPWR"):
        if hasattr(signal, name):                     # so are the others that end a run (a closed terminal
            signal.signal(getattr(signal, name), signal.SIG_IGN)     # reaches the whole process group)
    signal.signal(signal.SIGTERM, _on_sigterm)
    die_with_parent()                                 # a SIGKILLed parent: SIGTERM, so the engine ends too
    sys.stdout = open(os.devnull, "w")                # never print into the parent's output
    gc.freeze()                                       # the inherited corpus is never collected:
                                                      # leave its pages shared and unscanned
    forget_inherited()                                # the parent's engines, if any, are not ours
    session = make_session()
    hello_sent = stopping = False
    engine_group = None
    try:
        while True:
            pipe.send(("next",))
            while True:
                message = pipe.recv()
                if message[0] == "group":
                    break
                stopping = True                       # ("stop",): the answer to "next" follows
            indexes = message[1]
            if indexes is None:
                break
            for index in indexes:
                if stopping or (pipe.poll() and pipe.recv()[0] == "stop"):
                    stopping = True
                    break                             # the parent reports the rest as not run
                result = session.run(cases[index])
                if not hello_sent and session.engine.hello is not None:
                    pipe.send(("hello", session.engine.hello))
                    hello_sent = True
                group = _engine_group(session)
                if group != engine_group:
                    pipe.send(("engine", group))
                    engine_group = group
                pipe.send(("result", index, result.outcome, result.duration, result.failure, result.stderr,
                           result.engine_starts, result.detail, result.left_processes, result.hit_case_timeout))
    except (EOFError, OSError):                       # the parent is gone
        pass
    finally:
        session.close()
        kill_all()
        try:
            pipe.send(("left", left_behind_total()))
        except (OSError, ValueError):
            pass
        pipe.close()


def _engine_group(session: Session) -> tuple[int, int, bool] | None:
    """What the parent needs to end the worker's engine should the worker die without
    doing it (see :func:`conformance.runner.engine_process.end_orphaned`)."""
    handle = getattr(session.engine, "handle", None)
    if handle is not None:
        return handle()
    process = getattr(session.engine, "process", None)     # an engine of another kind: its group
    return (process.pid, process.pid, False) if process is not None and process.poll() is None else None


# -- in the parent ----------------------------------------------------------------------------

@dataclass
class _Worker:
    process: Any
    pipe: Connection
    group: deque = field(default_factory=deque)       # indexes sent and not yet reported
    heard: float = field(default_factory=time.monotonic)
    engine_group: tuple[int, int, bool] | None = None
    silent_since: float | None = None                 # when it was told to stop for silence

    def end(self) -> None:
        """Make sure the worker and its engine are gone (SIGTERM lets it kill the engine
        itself; SIGKILL and the engine's group, remembered here, if it does not)."""
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(GRACE)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        if self.engine_group is not None and (self.process.exitcode or 0) < 0:   # killed before it could
            end_orphaned(self.engine_group)
            self.engine_group = None


def run_in_processes(cases: list[Case], groups: list[list[Case]], jobs: int, make_session: Callable[[], Session],
                     finish: Callable[[CaseResult], CaseResult], rules: StopRules,
                     on_hello: Callable[[dict], None] | None, silence_budget: float) -> Iterator[CaseResult]:
    """Run ``groups`` of ``cases`` on ``jobs`` forked workers; yield each result as it comes.

    ``silence_budget`` is the longest a worker may go without a message while it has a
    case (an engine's start plus a case's own timeout, with slack): past it the worker is
    taken for hung and killed.
    """
    context = multiprocessing.get_context("fork")
    index_of = {id(case): i for i, case in enumerate(cases)}
    pending: deque[list[int]] = deque([index_of[id(case)] for case in group] for group in groups)
    workers: dict[Connection, _Worker] = {}
    forks_left = 2 * jobs + 2                           # forks in all: the first `jobs` and replacements

    def fork() -> None:
        nonlocal forks_left
        forks_left -= 1
        reader, writer = context.Pipe(duplex=True)
        process = context.Process(target=_worker, args=(cases, make_session, writer), daemon=True)
        process.start()
        writer.close()
        workers[reader] = _Worker(process, reader)

    def result_of(index: int, fields: tuple) -> CaseResult:
        outcome, duration, failure, stderr, starts, detail, left, hit = fields
        return CaseResult(cases[index], outcome, duration, failure, stderr, engine_starts=starts, detail=detail,
                          left_processes=left, hit_case_timeout=hit)

    def counted(result: CaseResult) -> CaseResult:
        result = finish(result)
        if rules.record(result):
            for other in workers.values():
                try:
                    other.pipe.send(("stop",))
                except OSError:
                    pass
        return result

    def lost(worker: _Worker, why: str) -> Iterator[CaseResult]:
        """A worker is gone: blame the case it was on, give the rest of its group back."""
        if not worker.group:
            return
        first = worker.group.popleft()
        if worker.group:
            pending.appendleft(list(worker.group))
            worker.group.clear()
        yield counted(CaseResult(cases[first], "error", 0.0, Failure(
            where="runner", message=f"the runner's worker process for this engine {why} while this case ran")))

    try:
        for _ in range(jobs):
            fork()
        while workers:
            ready = wait(list(workers), timeout=POLL)
            now = time.monotonic()
            for pipe in ready:
                worker = workers[pipe]                  # type: ignore[index]
                worker.heard = now
                try:
                    message = pipe.recv()               # type: ignore[union-attr]
                except (EOFError, OSError):             # the worker ended
                    del workers[pipe]                   # type: ignore[arg-type]
                    worker.process.join(GRACE)          # it closes its pipe last, then exits
                    worker.end()
                    pipe.close()
                    why = (f"stopped sending anything for {silence_budget:.0f} s" if worker.silent_since
                           else f"ended (exit code {worker.process.exitcode})")
                    yield from lost(worker, why)
                    if pending and not rules.stop.is_set() and forks_left > 0 and len(workers) < jobs:
                        fork()
                    continue
                kind = message[0]
                if kind == "result":
                    index = message[1]
                    if worker.group and worker.group[0] == index:
                        worker.group.popleft()
                    yield counted(result_of(index, message[2:]))
                elif kind == "hello":
                    if on_hello is not None:
                        on_hello(message[1])
                elif kind == "engine":
                    worker.engine_group = message[1]
                elif kind == "left":
                    note_left(message[1])
                elif kind == "next":
                    while worker.group:                 # left over after a stop
                        yield rules.not_run(cases[worker.group.popleft()])
                    work = pending.popleft() if pending and not rules.stop.is_set() else None
                    try:
                        pipe.send(("group", work))      # type: ignore[union-attr]
                    except OSError:                     # it died meanwhile: its end is read next
                        if work is not None:
                            pending.appendleft(work)
                        continue
                    if work is not None:
                        worker.group.extend(work)
            for worker in workers.values():
                if worker.group and worker.silent_since is None and now - worker.heard > silence_budget:
                    worker.silent_since = now           # hung: ended, then read as one that died
                    worker.process.terminate()
                elif worker.silent_since is not None and now - worker.silent_since > GRACE:
                    worker.process.kill()
            if not workers and pending and forks_left > 0 and not rules.stop.is_set():
                fork()
        while pending:                                  # after a stop, or once no worker could be kept alive
            group = pending.popleft()
            for index in group:
                if rules.stop.is_set():
                    yield rules.not_run(cases[index])
                else:
                    yield counted(CaseResult(cases[index], "error", 0.0, Failure(
                        where="runner", message="not run: the runner's worker processes kept ending unexpectedly")))
    finally:
        for worker in workers.values():
            if worker.process.is_alive():
                worker.process.terminate()              # all at once: each kills its engine, then exits
        for worker in workers.values():
            worker.end()
            worker.pipe.close()
