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


def test_the_state_before_the_first_deal_is_the_one_the_page_shows():
    """`hands` before the first deal: one empty list per seat (an engine answering null
    failed every case, and the page did not say)."""
    import json as _json
    import re as _re

    from reference_impl import load_rules, new_game
    from reference_impl.schemas import validator

    text = (Path(__file__).resolve().parent.parent / "spec" / "protocol.md").read_text(encoding="utf-8")
    shown = _json.loads(_re.search(r'```json\n(\{"phase": "deal".*?)```', text, _re.S).group(1))
    assert new_game(load_rules("euchre", {}), 2).observation() == shown
    assert not list(validator("protocol/observation.schema.json").iter_errors(shown))


def test_a_range_of_option_values_is_a_valid_hello():
    from reference_impl.schemas import validator

    hello = validator("protocol/hello-reply.schema.json")
    reply = {"id": 1, "ok": True, "protocol": 1, "engine": {"name": "e", "version": "1"}}
    for options in ({"game-target": [{"minimum": 1, "maximum": 1000}]}, {"game-target": {"minimum": 1}},
                    {"game-target": [0, {"maximum": 21}], "stick-the-dealer": [False, True]}):
        assert not list(hello.iter_errors({**reply, "variants": {"euchre": {"options": options}}})), options
    for wrong in ({"game-target": [{}]}, {"game-target": {"min": 1}}, {"game-target": [{"minimum": "1"}]}):
        assert list(hello.iter_errors({**reply, "variants": {"euchre": {"options": wrong}}})), wrong
