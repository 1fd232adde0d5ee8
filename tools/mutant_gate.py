#!/usr/bin/env python3
"""The mutant gate: every mutant engine (the reference with one seeded rule bug) is caught by
the corpus on a rule (a ``fail``, not a crash), with no internal error of the runner, and its
first failure, the one a user reads, cites the rule the mutant breaks (tests/mutant_clauses.yaml).

The rule cited is worked out by the runner's trace, which runs in the build under test; the
compiled build once cited the right rule for 4 of 10 planted bugs where the pure build cited 9.
So CI judges the build users install: ``.ci/check-wheel`` runs this tool in the installed
wheel's venv on the mutant records ``tools/build_differential.py --records`` already made
there (the corpus is not run a second time). With no ``--records`` it runs the mutants itself,
two at a time, in whatever build imports here (a developer's check, about a minute)::

    python tools/mutant_gate.py [--records installed.jsonl] [--only NAME ...] [--expected FILE]

Exit status 0 when every mutant passes the gate, 1 with one line per problem otherwise, 2 when
the records or the list of rules cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml

DEFAULT_EXPECTED = Path(__file__).resolve().parent.parent / "tests" / "mutant_clauses.yaml"


def judge(records: dict[str, dict[str, Any]], expected: dict[str, Any], catalogue: list[str]) -> list[str]:
    """The gate's problems, one line each: a mutant with no record, unlisted, not caught on a
    rule, caught through an internal error, or whose first failure cites another rule."""
    breaks: dict[str, list[str]] = expected.get("breaks") or {}
    listed = set(breaks) | set(expected.get("no-rule") or [])
    problems = [f"{name}: no record (it did not run)" for name in catalogue if name not in records]
    for name, record in records.items():
        if name not in listed:
            problems.append(f"{name}: not listed in mutant_clauses.yaml with the rule it breaks")
        if record["status"] != "caught":
            how = "survived the whole corpus" if record["status"] == "survived" else \
                f"was not caught on a rule: its first failure is `{record['outcome']}` in {record['case']}"
            problems.append(f"{name}: {how}")
            continue
        if record.get("internal_error"):
            problems.append(f"{name}: an internal error while reporting {record['case']}: {record['internal_error']}")
        if name in breaks and record.get("clause") not in breaks[name]:
            problems.append(f"{name}: its first failure ({record['case']}) cites {record.get('clause')!r}, "
                            f"not the rule it breaks ({', '.join(breaks[name])})")
    return problems


def read_records(path: Path) -> dict[str, dict[str, Any]]:
    """The ``mutants`` records of one side of tools/build_differential.py (JSON Lines of
    ``[part, key, value]``)."""
    records = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            part, key, value = json.loads(line)
        except (ValueError, TypeError) as exc:
            raise OSError(f"{path}, line {number}: not a record of tools/build_differential.py ({exc})") from None
        if part == "mutants":
            records[key] = value
    return records


def run_records(names: list[str] | None) -> dict[str, dict[str, Any]]:
    """Each chosen mutant run on the corpus in this interpreter's build, two at a time."""
    from conformance.cases import load_cases, load_corpus_meta
    from conformance.corpus_tools.mutation import run_mutants

    cases, _ = load_cases(tags=load_corpus_meta().tags)
    return {result.name: result.record() for result in run_mutants(cases, names, jobs=2)}


def main(argv: list[str] | None = None) -> int:
    from conformance.corpus_tools.mutation import mutants

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=Path, help="a side's records of tools/build_differential.py --records")
    parser.add_argument("--only", action="append", help="judge only these mutants (repeatable; default all)")
    parser.add_argument("--expected", type=Path, default=DEFAULT_EXPECTED,
                        help="the rule each mutant breaks (default: tests/mutant_clauses.yaml)")
    args = parser.parse_args(argv)
    try:
        expected = yaml.safe_load(args.expected.read_text(encoding="utf-8"))
        records = read_records(args.records) if args.records else None
    except (OSError, yaml.YAMLError) as exc:
        print(f"mutant gate: {exc}", file=sys.stderr)
        return 2
    if not isinstance(expected, dict) or not isinstance(expected.get("breaks"), dict):
        print(f"mutant gate: {args.expected} has no `breaks:` mapping of mutant to rules", file=sys.stderr)
        return 2
    catalogue = args.only or list(mutants())
    if records is None:
        records = run_records(catalogue)
    if args.only:
        records = {name: record for name, record in records.items() if name in args.only}
    problems = judge(records, expected, catalogue)
    for line in problems:
        print(f"  {line}")
    if problems:
        print(f"mutant gate: {len(problems)} problem(s) in {len(catalogue)} mutants", file=sys.stderr)
        return 1
    print(f"mutant gate: {len(catalogue)} of {len(catalogue)} mutants caught on a rule, "
          "each first failure citing the rule its mutant breaks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
