#!/usr/bin/env python3
"""How many corpus cases each adapted engine's declaration lets run, before and after a change
of declarations: the figure an adapter's honesty costs or gains, measured without playing.

"Before" is the declaration in the engine's published report (the ``hello`` its header keeps,
``docs/compliance/reports/<engine>.jsonl``, or that file at ``--before-rev``); "after" is the
adapter's ``hello`` now (the adapter is started, so its engine must be installed: see
tools/adapters/README.md, and ``. /work/engines/env.sh``). Both are counted by the runner's own
test (``conformance.runner.declared.unsupported_needs``) over today's corpus, so the two columns differ
only by the declarations.

    python tools/declared_cases.py [--only NAME] [--before-rev REV]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from conformance.cases import load_cases  # noqa: E402
from conformance.runner.declared import unsupported_needs  # noqa: E402
from publish_reports import ENGINES, REPORTS, available, engine_env  # noqa: E402


def published_hello(name: str, rev: str | None) -> dict | None:
    """The hello kept in the header of the engine's published report (at ``rev``, if given)."""
    path = REPORTS / f"{name}.jsonl"
    if rev:
        done = subprocess.run(["git", "show", f"{rev}:{path.relative_to(ROOT)}"], cwd=ROOT, capture_output=True, text=True)
        text = done.stdout if done.returncode == 0 else ""
    else:
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if not text:
        return None
    return json.loads(text.splitlines()[0]).get("engine")


def live_hello(name: str, engine: list[str]) -> dict | None:
    """The adapter's hello now (None when it does not start)."""
    argv = engine[0].split()
    done = subprocess.run(argv, input='{"id": 1, "type": "hello"}\n', capture_output=True, text=True, timeout=300,
                          env=engine_env(name))
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return json.loads(lines[0]) if lines else None


def runnable(hello: dict | None, cases: list, variants: set[str]) -> tuple[int, int]:
    """(cases the hello lets run, cases of the variants it names)."""
    if hello is None:
        return 0, 0
    mine = [case for case in cases if case.variant in variants]
    return sum(1 for case in mine if not unsupported_needs(hello, case)), len(mine)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="only these engines (repeatable)")
    parser.add_argument("--before-rev", metavar="REV", help="read the published reports at this git revision")
    args = parser.parse_args()
    cases, problems = load_cases()
    if problems:
        print(f"the corpus has {len(problems)} problem(s): counts may be short", file=sys.stderr)
    print(f"{'engine':32} {'before':>12} {'after':>12}")
    for name, (engine, _extra, need) in ENGINES.items():
        if name == "reference" or (args.only and name not in args.only):
            continue
        if not available(need):
            print(f"{name:32} {'(engine not installed)':>25}")
            continue
        before = published_hello(name, args.before_rev)
        after = live_hello(name, engine)
        variants = set(((after or before or {}).get("variants") or {}))
        b, total = runnable(before, cases, variants)
        a, total = runnable(after, cases, variants)
        print(f"{name:32} {b:>5} of {total:<4} {a:>5} of {total:<4}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
