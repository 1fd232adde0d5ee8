"""The cases a run takes, and in what order: by variant, id glob and shard; grouped by rule table,
the costliest group first (each engine then compiles a table once)."""

from __future__ import annotations

import fnmatch

from conformance.cases import Case

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
