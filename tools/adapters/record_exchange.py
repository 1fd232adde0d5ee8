#!/usr/bin/env python3
"""Record an adapter's exchange with its engine for the adapter tests: the protocol requests
of a corpus case's first hand (up to a number of steps) sent to the adapter, its replies,
and, for an engine in JavaScript, every call it made through the node bridge. The tests
replay the fixture without the engine (tests/test_<engine>_adapter.py).

    python tools/adapters/record_exchange.py tools/adapters/euchre_app_engine.py CASE_ID OUT.json [--steps N]

CASE_ID may also be a case file (``.yaml``): its first case is recorded.

The ``rules`` request carries the table's options and game only (what the adapters read);
the engine's environment variables must be set as for a check.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))


def session(case_id: str, steps: int) -> list[dict[str, Any]]:
    """The requests of a corpus case's first hand, up to ``steps`` actions, as the runner sends them."""
    from conformance.cases import load_cases, load_corpus_meta
    from reference_impl.resolve import resolve

    if case_id.endswith(".yaml"):          # a case file of its own (fuzz's shrunk case, say)
        from conformance.cases import load_case_file
        cases, _ = load_case_file(Path(case_id), load_corpus_meta().tags)
        case = cases[0]
    else:
        cases, _ = load_cases(tags=load_corpus_meta().tags)
        case = next(c for c in cases if c.id == case_id)
    resolved = resolve(case.variant, case.options)
    table = resolved.table
    setup = {key: case.setup[key] for key in ("dealer", "first_dealer", "scores") if key in case.setup}
    requests: list[dict[str, Any]] = [
        {"type": "hello", "protocol": 1},
        {"type": "rules", "variant": case.variant, "options": dict(resolved.selected),
         "table": {"options": {k: {"default": o.get("default")} for k, o in (table.get("options") or {}).items()},
                   "game": table.get("game", {})}},
        {"type": "new_game", **setup},
    ]
    hand = case.hands[0]
    requests.append({"type": "deal", **hand["deal"]})
    for step in hand["steps"][:steps]:
        requests.append({"type": "act", "seat": step["seat"], "action": step["action"]})
    requests += [{"type": "state"}, {"type": "bye"}]
    return requests


def record(adapter: str, requests: list[dict[str, Any]]) -> dict[str, Any]:
    """The adapter's replies to ``requests`` and the engine calls it made (through the node bridge)."""
    with tempfile.TemporaryDirectory() as folder:
        bridge = Path(folder) / "bridge.jsonl"
        env = dict(os.environ, EUCHRE_BRIDGE_RECORD=str(bridge))
        env.pop("EUCHRE_PROTOCOL_RECORD", None)
        lines = "".join(json.dumps({"id": i, **r}) + "\n" for i, r in enumerate(requests, 1))
        done = subprocess.run([sys.executable, adapter], input=lines, capture_output=True, text=True, env=env, timeout=120)
        replies = [json.loads(line) for line in done.stdout.splitlines()]
        calls = [json.loads(line) for line in bridge.read_text().splitlines()] if bridge.exists() else []
    protocol = [{"request": request, "reply": {k: v for k, v in reply.items() if k not in ("id",)}}
                for request, reply in zip(requests, replies)]
    return {"adapter": Path(adapter).name, "protocol": protocol, "bridge": calls}


def main() -> int:
    """Record one case's exchange to a fixture file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("adapter")
    parser.add_argument("case")
    parser.add_argument("out")
    parser.add_argument("--steps", type=int, default=8)
    args = parser.parse_args()
    data = record(args.adapter, session(args.case, args.steps))
    Path(args.out).write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(data['protocol'])} requests, {len(data['bridge'])} engine calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
