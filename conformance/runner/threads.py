"""``check -j N`` without ``fork`` (Windows): N threads, each driving one engine.

Each thread owns one engine and takes whole table groups from a shared queue; results come
back on another queue, read with a timeout so that a signal is handled at once.
"""

from __future__ import annotations

import queue
import threading
from typing import Callable, Iterator

from conformance.cases import Case
from conformance.runner.results import CaseResult
from conformance.runner.session import Session
from conformance.runner.stop_rules import StopRules

def run_in_threads(groups: list[list[Case]], jobs: int, make_session: Callable[[], Session],
                    finish: Callable[[CaseResult], CaseResult], rules: StopRules,
                    on_hello: Callable[[dict], None] | None) -> Iterator[CaseResult]:
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
                    if on_hello is not None and session.engine.hello is not None:
                        on_hello(session.engine.hello)
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
