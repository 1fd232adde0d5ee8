"""The cold corpus load's fan-out over forked children: whatever a child does (dies, hangs,
raises, sends what cannot be read back), the caller gets every result that was delivered,
returns within the deadline, and no child outlives the call. A CI run once hung for its whole
budget in ``multiprocessing.Pool`` here; these are the ways that can happen."""

from __future__ import annotations

import multiprocessing
import os
import time

import pytest

from conformance import cases as cases_module
from conformance.cases import load_cases
from conformance.common.forked_map import forked_map, slices_by_weight
from conformance import CORPUS_DIR

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def square(n: int) -> int:
    return n * n


def dies_at_seven(n: int) -> int:
    if n == 7:
        os._exit(3)
    return n * n


def hangs_at_seven(n: int) -> int:
    if n == 7:
        time.sleep(600)
    return n * n


def raises_at_seven(n: int) -> int:
    if n == 7:
        raise ValueError("seven")
    return n * n


class NeedsTwoArguments(Exception):
    def __init__(self, first: str, second: str):
        super().__init__(f"{first} {second}")


def unreadable_at_seven(n: int) -> object:
    # pickles, but unpickling calls NeedsTwoArguments(message) and raises TypeError
    return NeedsTwoArguments("a", "b") if n == 7 else n * n


def unpicklable_at_seven(n: int) -> object:
    return (lambda: None) if n == 7 else n * n


ITEMS = list(range(20))
WEIGHTS = [1] * 20


def seven_slice() -> set[int]:
    return next(set(indexes) for indexes in slices_by_weight(WEIGHTS, 2) if 7 in indexes)


def no_children_left() -> bool:
    return multiprocessing.active_children() == []


def test_every_result_comes_back():
    assert forked_map(square, ITEMS, WEIGHTS, 2) == {n: n * n for n in ITEMS}
    assert no_children_left()


def test_slices_are_runs_of_neighbours_balanced_by_weight():
    weights = [100, 1, 1, 1, 50, 50]
    assert slices_by_weight(weights, 2) == [[0, 1], [2, 3, 4, 5]]         # 101 and 102
    assert slices_by_weight([5], 4) == [[0]]
    assert slices_by_weight([0, 0, 0], 2) == [[0, 1, 2]]
    weights = [(n * 37) % 11 + 1 for n in range(200)]
    for count in (2, 3, 8):
        slices = slices_by_weight(weights, count)
        assert [i for chosen in slices for i in chosen] == list(range(200))   # every item once, in order
        totals = [sum(weights[i] for i in chosen) for chosen in slices]
        assert len(slices) == count and max(totals) - min(totals) <= 2 * max(weights), totals


@pytest.mark.parametrize("function", [dies_at_seven, unpicklable_at_seven, unreadable_at_seven],
                         ids=["dies", "unpicklable", "unreadable"])
def test_a_failed_child_loses_only_its_own_slice(function):
    answer = forked_map(function, ITEMS, WEIGHTS, 2)
    lost = seven_slice()
    assert answer == {n: n * n for n in ITEMS if n not in lost}
    assert no_children_left()


def test_an_item_that_raises_is_the_only_one_missing():
    assert forked_map(raises_at_seven, ITEMS, WEIGHTS, 2) == {n: n * n for n in ITEMS if n != 7}


def test_a_hung_child_is_killed_at_the_deadline():
    started = time.monotonic()
    answer = forked_map(hangs_at_seven, ITEMS, WEIGHTS, 2, deadline=1.5)
    assert time.monotonic() - started < 10
    assert answer == {n: n * n for n in ITEMS if n not in seven_slice()}
    assert no_children_left()


def test_the_corpus_loads_whole_when_a_child_dies(tmp_path, monkeypatch):
    """A cold load whose child dies half way gives exactly the cases and problems of a load
    on one core: the files the child did not deliver are loaded by the caller."""
    files = sorted(CORPUS_DIR.glob("*/*.yaml"))[:24]
    monkeypatch.setenv("EUCHRE_SPEC_CACHE", str(tmp_path / "serial"))
    monkeypatch.setattr(cases_module, "usable_cores", lambda: 1)
    expected = load_cases(files)
    assert len(expected[0]) >= 24 and not expected[1]
    victim = files[5]
    original = cases_module._load_job

    def dies_on_the_victim(job):
        if job[0] == victim:
            os._exit(9)
        return original(job)

    monkeypatch.setenv("EUCHRE_SPEC_CACHE", str(tmp_path / "forked"))
    monkeypatch.setattr(cases_module, "usable_cores", lambda: 2)
    monkeypatch.setattr(cases_module, "PREWARM_AT_LEAST", 4)
    monkeypatch.setattr(cases_module, "_load_job", dies_on_the_victim)
    texts = {path: path.read_text(encoding="utf-8") for path in files}
    delivered = cases_module.load_cold_in_parallel(texts)
    assert victim not in delivered and len(delivered) >= 1
    got = load_cases(files)
    assert [case.id for case in got[0]] == [case.id for case in expected[0]] and got[1] == expected[1]
    assert [case.data for case in got[0]] == [case.data for case in expected[0]]
    assert no_children_left()
