"""Replay a recorded exchange (tools/adapters/record_exchange.py) against an adapter without
its engine: each recorded engine call is answered from the recording (and must be asked
exactly as recorded), and each protocol reply must be what was recorded. So the adapter's
own mapping (tokens, phases, legal sets, refusals) is checked where the engine is absent."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from jsonl_server import Refused  # noqa: E402
from node_engine import ReplayBridge  # noqa: E402


def load(path: str | Path) -> dict[str, Any]:
    """A recorded exchange: its protocol requests and replies and its engine calls."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def replay(make_adapter: Callable[[ReplayBridge, str], Any], fixture: dict[str, Any]) -> list[tuple[dict, dict, dict]]:
    """(request, recorded reply, replayed reply) for every protocol request of the fixture."""
    bridge = ReplayBridge(fixture["bridge"])
    hello = fixture["protocol"][0]["reply"]
    adapter = make_adapter(bridge, hello.get("engine", {}).get("version", "unknown"))
    out = []
    for number, item in enumerate(fixture["protocol"], 1):
        request = {"id": number, **item["request"]}
        try:
            reply = {"ok": True, **adapter.handle(request)}
        except Refused as exc:
            reply = {"ok": False, "error": {"category": exc.category, "message": str(exc)}}
        out.append((request, item["reply"], reply))
    assert not bridge.exchanges, f"{len(bridge.exchanges)} recorded engine calls were never asked"
    return out


def replay_live(adapter: str | Path, fixture: dict[str, Any], env: dict[str, str] | None = None) -> list[tuple[dict, dict]]:
    """(recorded reply, reply now) for every protocol request of the fixture, sent to the
    adapter as a subprocess driving the real engine."""
    import subprocess
    requests = [item["request"] for item in fixture["protocol"]]
    lines = "".join(json.dumps({"id": i, **r}) + "\n" for i, r in enumerate(requests, 1))
    done = subprocess.run([sys.executable, str(adapter)], input=lines, capture_output=True, text=True, env=env, timeout=300)
    replies = [{k: v for k, v in json.loads(line).items() if k != "id"} for line in done.stdout.splitlines()]
    assert len(replies) == len(requests), done.stderr[-2000:]
    return [(item["reply"], reply) for item, reply in zip(fixture["protocol"], replies)]


def check_cases(adapter: str | Path, cases: list[str], env: dict[str, str] | None = None,
                corpus: list[str | Path] = ()) -> dict[str, dict[str, Any]]:
    """Run ``euchre-spec check`` with the adapter on the named cases (or on the case files
    ``corpus``, such as fuzz's shrunk cases): case id -> report line."""
    import subprocess
    import tempfile
    root = Path(__file__).resolve().parent.parent.parent
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.jsonl"
        argv = [sys.executable, "-m", "conformance.cli", "check", "--engine", f"{sys.executable} {adapter}",
                "--json", str(report)] + [arg for case in cases for arg in ("--case", case)] \
            + [arg for path in corpus for arg in ("--corpus", str(path))]
        subprocess.run(argv, cwd=root, capture_output=True, text=True, env=env, timeout=600)
        lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    return {line["id"]: line for line in lines if line.get("type") == "case"}
