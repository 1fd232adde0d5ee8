#!/usr/bin/env python3
"""Fuzz every mutant engine the corpus catches, shrink what it finds, and print the table.

For each mutant (the reference with one seeded rule bug, conformance/mutants/), the corpus
is run until its first failing case; that case's variant and options are the rules the
mutant is fuzzed under (the rules an author would say the engine plays), up to 20,000
hands. The first divergence is shrunk and written as a case file, which must load, pass
on the reference engine and fail on the mutant. The issue's bar: a divergence for every
mutant the corpus catches, and at least 90% of them shrunk to one hand of at most 30 steps.

    python tools/fuzz_mutants.py [--only GLOB]... [--hands 20000] [--seed 1] [-j 2] [--out reports/fuzz-mutants]

Prints the table, the misses, and as its last lines ``found=K/N`` and ``shrunk_to_one_hand_30_steps=P%``.
Exit status 0 when the bar is met.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from conformance.cases import Case, load_case_file, load_cases, load_corpus_meta  # noqa: E402
from conformance.runner.engine_process import engine_command  # noqa: E402
from conformance.fuzzing.casefile import write_divergence  # noqa: E402
from conformance.fuzzing.lockstep import OverlappingEngine, SetupError  # noqa: E402
from conformance.fuzzing.divergence import Divergence  # noqa: E402
from conformance.fuzzing.loop import Fuzzer  # noqa: E402
from conformance.fuzzing.shrink import shrink_divergence  # noqa: E402
from conformance.corpus_tools.mutation import mutant_command, mutants, run_mutant  # noqa: E402
from conformance.runner.session import Session  # noqa: E402
from reference_impl.resolve import resolve  # noqa: E402

MAX_STEPS = 30


@dataclass
class Row:
    name: str
    caught_by: Case | None = None
    hands: int = 0
    seconds: float = 0.0
    found: Divergence | None = None
    shrunk: Divergence | None = None
    case: Path | None = None
    verdict: str = ""

    @property
    def small(self) -> bool:
        return self.shrunk is not None and self.shrunk.hands <= 1 and self.shrunk.steps <= MAX_STEPS


def fuzz_mutant(name: str, cases: list[Case], hands: int, seed: int, out: Path, shrink_seconds: float,
                tags: set[str]) -> Row:
    row = Row(name)
    caught = run_mutant(name, "", cases)
    if not caught.caught:
        row.verdict = f"not caught by the corpus ({caught.status})"
        return row
    case = caught.caught_by.case
    row.caught_by = case
    table = resolve(case.variant, case.options)
    argv = mutant_command(name)

    def make() -> OverlappingEngine:
        return OverlappingEngine(argv)

    started = time.monotonic()
    try:
        result = Fuzzer(make, case.variant, table, seed=seed, hands=hands).run()
    except SetupError as exc:
        row.verdict = f"cannot fuzz: {exc}"
        return row
    row.seconds = time.monotonic() - started
    row.hands = result.hands + (1 if result.divergences else 0)     # the hand it diverged in counts
    if not result.divergences:
        row.verdict = f"no divergence in {result.hands:,} hands"
        return row
    row.found = result.divergences[0]
    shrunk = shrink_divergence(make, case.variant, table, table, row.found, seconds=shrink_seconds)
    row.shrunk = shrunk.divergence
    row.case = write_divergence(out, row.shrunk, case.variant, table, seed, name, f"tools/fuzz_mutants.py (mutant {name})",
                                tags, prefix=f"fuzz-{name}")
    row.verdict = check_case(row.case, argv)
    return row


def check_case(path: Path, argv: list[str]) -> str:
    """The written case must load, pass on the reference engine and fail on the mutant."""
    cases, problems = load_case_file(path, load_corpus_meta().tags)
    if problems or len(cases) != 1:
        return f"case does not load: {problems[0] if problems else len(cases)}"
    outcomes = []
    for command in (engine_command("reference"), argv):
        session = Session(command)
        try:
            outcomes.append(session.run(cases[0]).outcome)
        finally:
            session.close()
    if outcomes[0] != "pass":
        return f"case {outcomes[0]} on the reference"
    if outcomes[1] == "pass":
        return "case passes on the mutant"
    return f"case: reference pass, mutant {outcomes[1]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", metavar="GLOB")
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--shrink-time", type=float, default=60.0)
    parser.add_argument("--out", default="reports/fuzz-mutants")
    args = parser.parse_args()
    console = Console(highlight=False, width=200)
    meta = load_corpus_meta()
    cases, problems = load_cases(tags=meta.tags)
    if problems:
        console.print(f"the corpus has problems: {problems[0]}", markup=False)
        return 1
    names = [n for n in mutants() if not args.only or any(fnmatch.fnmatchcase(n, g) for g in args.only)]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(lambda n: fuzz_mutant(n, cases, args.hands, args.seed, out, args.shrink_time,
                                                   set(meta.tags)), names))
    table = Table(title=f"Mutants fuzzed (up to {args.hands:,} hands each, seed {args.seed})")
    for column in ("mutant", "rules (from the corpus case that catches it)", "hands", "s", "diverged on",
                   "shrunk to", "case"):
        table.add_column(column, overflow="fold")
    for row in rows:
        rules = ""
        if row.caught_by is not None:
            options = ", ".join(f"{k}={v}" for k, v in sorted(row.caught_by.options.items()))
            rules = row.caught_by.variant + (f" ({options})" if options else "")
        found = ", ".join(d.field for d in row.found.differences[:3]) + f" at {row.found.phase}" if row.found else ""
        shrunk = f"{row.shrunk.hands} hand(s), {row.shrunk.steps} steps" if row.shrunk else ""
        table.add_row(row.name, rules, f"{row.hands:,}" if row.caught_by else "", f"{row.seconds:.1f}" if row.caught_by else "",
                      found, shrunk if row.small or not row.shrunk else f"[yellow]{shrunk}[/]", row.verdict)
    console.print(table)
    caught = [r for r in rows if r.caught_by is not None]
    found = [r for r in caught if r.found is not None]
    small = [r for r in found if r.small]
    bad_cases = [r for r in found if not r.verdict.startswith("case: reference pass")]
    misses = [r.name for r in caught if r.found is None]
    console.print(f"{len(found)} of {len(caught)} mutants the corpus catches diverged within {args.hands:,} hands; "
                  f"{len(small)} of {len(found)} shrunk to one hand of at most {MAX_STEPS} steps; "
                  f"{time.monotonic() - started:.0f} s", markup=False)
    if misses:
        console.print("missed: " + ", ".join(misses), markup=False)
    if bad_cases:
        console.print("cases that do not reproduce: " + ", ".join(f"{r.name} ({r.verdict})" for r in bad_cases), markup=False)
    not_small = [f"{r.name} ({r.shrunk.hands} hand(s), {r.shrunk.steps} steps)" for r in found if not r.small and r.shrunk]
    if not_small:
        console.print("not shrunk to one hand of at most 30 steps: " + ", ".join(not_small), markup=False)
    share = 100 * len(small) / len(found) if found else 0.0
    print(f"found={len(found)}/{len(caught)}")
    print(f"shrunk_to_one_hand_30_steps={share:.0f}%")
    return 0 if not misses and not bad_cases and share >= 90 else 1


if __name__ == "__main__":
    sys.exit(main())
