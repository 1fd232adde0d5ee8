"""Work spread over forked children that can fail without taking the caller down.

The corpus loader uses this for a cold first load (see ``cases.load_cold_in_parallel``). It
replaces ``multiprocessing.Pool``, which once hung a CI run for its whole budget: when a
pool worker dies in the middle of a task, or a result cannot be unpickled, ``Pool.map``
waits forever, and ``Pool.terminate`` can block on the queue lock a dead worker holds.
Here each child has its own one-way pipe and sends one message, the parent waits on
those pipes with a deadline, and whatever a child did not deliver (it died, hung, raised,
or sent something unreadable) is simply absent from the answer: the caller does that part
itself. Every child is killed and reaped before this returns, whatever happened.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import time
from multiprocessing.connection import Connection, wait
from typing import Callable, Sequence, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

DEADLINE = 120.0      # seconds for the whole map; past it, what is missing is left to the caller


def usable_cores() -> int:
    """The cores this process may run on (its affinity mask, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def slices_by_weight(weights: Sequence[int], count: int) -> list[list[int]]:
    """Indexes of ``weights`` in up to ``count`` runs of neighbouring items, of nearly equal
    total weight (each item goes to the run its middle falls in, so a run is within one
    item of an equal share). Neighbours stay together because they share work: the case
    files of one folder mostly use the same rule tables, which a child then resolves once,
    where dealing items round-robin made every child resolve nearly every table."""
    count = max(1, count)
    share = sum(weights) / count
    slices: list[list[int]] = [[] for _ in range(count)]
    done = 0.0
    for index, weight in enumerate(weights):
        slices[min(count - 1, int((done + weight / 2) / share)) if share else 0].append(index)
        done += weight
    return [chosen for chosen in slices if chosen]


def _child(function: Callable[[Item], Result], items: list[Item], pipe: Connection) -> None:
    """In the child: no Ctrl-C traceback (the parent handles the interrupt and kills us),
    the default SIGTERM (the parent's handler raises KeyboardInterrupt), no garbage
    collection (the child lives for one job). Each item's result, or None where it raised."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    gc.disable()
    results: list[tuple[bool, Result | None]] = []
    for item in items:
        try:
            results.append((True, function(item)))
        except Exception:                      # the caller redoes it and meets the error itself
            results.append((False, None))
    try:
        pipe.send(results)
    except Exception:                          # a result pickle cannot take: send nothing
        pass
    pipe.close()


def forked_map(function: Callable[[Item], Result], items: Sequence[Item], weights: Sequence[int],
               children: int, deadline: float = DEADLINE) -> dict[int, Result]:
    """``function`` over ``items`` in up to ``children`` forked processes, by index of the
    item. An item is missing from the answer when its child failed in any way or the
    deadline passed, or when ``function`` raised for it; nothing here raises for those.
    Needs the ``fork`` start method (the children inherit the caller's loaded state);
    where there is none, the answer is empty."""
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        return {}
    answer: dict[int, Result] = {}
    started: list[tuple[multiprocessing.process.BaseProcess, Connection, list[int]]] = []
    try:
        for indexes in slices_by_weight(weights, children):
            reader, writer = context.Pipe(duplex=False)
            child = context.Process(target=_child, args=(function, [items[i] for i in indexes], writer), daemon=True)
            child.start()
            writer.close()
            started.append((child, reader, indexes))
        waiting = {reader: indexes for _, reader, indexes in started}
        ends_at = time.monotonic() + deadline
        while waiting:
            left = ends_at - time.monotonic()
            if left <= 0:
                break
            for reader in wait(list(waiting), timeout=left):
                indexes = waiting.pop(reader)           # type: ignore[call-overload]
                try:
                    results = reader.recv()             # type: ignore[union-attr]
                except Exception:                       # died (EOF) or sent something unreadable
                    continue
                if not isinstance(results, list) or len(results) != len(indexes):
                    continue
                for index, (done, result) in zip(indexes, results):
                    if done:
                        answer[index] = result
        return answer
    finally:
        for child, reader, _ in started:
            reader.close()
            if child.is_alive():
                child.kill()
            child.join()
