"""The example session of the protocol page (spec/protocol.md) is real: it replays on the reference engine."""

import json
from pathlib import Path

from conformance.reference_engine import ReferenceEngine
from reference_impl.catalog import spec_root
from reference_impl.resolve import resolve

DOC = spec_root() / "protocol.md"


def session():
    lines = [line for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith((">>> ", "<<< "))]
    assert len(lines) >= 20 and len(lines) % 2 == 0
    for request, reply in zip(lines[::2], lines[1::2]):
        assert request.startswith(">>> ") and reply.startswith("<<< ")
        yield json.loads(request[4:]), json.loads(reply[4:])


def contains(actual, documented, path="$"):
    """Every value the document shows is what the engine says (the doc may leave fields out)."""
    if isinstance(documented, dict):
        assert isinstance(actual, dict), path
        for key, value in documented.items():
            assert key in actual, f"{path}.{key} missing"
            contains(actual[key], value, f"{path}.{key}")
    else:
        assert actual == documented, f"{path}: engine says {actual!r}, the page says {documented!r}"


def test_example_session_replays_on_the_reference_engine():
    engine = ReferenceEngine()
    table = resolve("euchre")
    kinds = set()
    for request, documented in session():
        if request["type"] == "rules":
            request = {**request, "options": table.selected, "sha256": table.sha256, "table": table.table}
        kinds.add(request["type"])
        contains(engine.handle(request), documented)
    assert {"hello", "rules", "new_game", "deal", "act", "legal", "bye"} <= kinds


def test_example_session_shows_refusals_and_a_whole_hand():
    replies = [reply for _, reply in session()]
    categories = {r["error"]["category"] for r in replies if not r["ok"]}
    assert {"out_of_turn", "illegal_action"} <= categories
    assert any(r.get("state", {}).get("hand_points") for r in replies)
