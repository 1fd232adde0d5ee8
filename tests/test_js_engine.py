"""The from-scratch JavaScript engine (tools/engines/js/engine.js) passes the euchre corpus.

It was written from docs/protocol.md, the protocol schemas, the variant table and the case
files only, so this test shows the protocol page suffices to build a conforming engine. It
runs the whole euchre corpus through `euchre-spec check` with two engines in parallel.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = "node tools/engines/js/engine.js"
ACCEPTED = {"pass", "unsupported", "skipped"}


@pytest.mark.skipif(shutil.which("node") is None,
                    reason="Node.js (`node`) is not installed: the JavaScript engine cannot run")
def test_js_engine_passes_the_euchre_corpus(tmp_path):
    report = tmp_path / "report.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "check", "--engine", ENGINE,
         "--variant", "euchre", "-j", "2", "--json", str(report)],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]

    records = [json.loads(line) for line in report.read_text().splitlines() if line.strip()]
    cases = [r for r in records if r.get("type") == "case"]
    outcomes = {}
    for case in cases:
        outcomes.setdefault(case["outcome"], []).append(case["id"])
    bad = {outcome: ids for outcome, ids in outcomes.items() if outcome not in ACCEPTED}
    assert not bad, f"cases with outcomes other than {sorted(ACCEPTED)}: {bad}"
    assert len(outcomes.get("pass", [])) >= 20, outcomes
    defaults = [c["id"] for c in cases if not c["options"]]
    assert defaults and all(c["outcome"] == "pass" for c in cases if not c["options"]), \
        "every case of the default rules runs and passes (a renamed option value would make them unsupported)"

    footer = [r for r in records if r.get("type") == "footer"]
    assert footer and footer[0]["exit_code"] == 0


@pytest.mark.skipif(shutil.which("node") is None,
                    reason="Node.js (`node`) is not installed: the JavaScript engine cannot run")
def test_fuzz_and_identify_agree_with_the_js_engine(tmp_path):
    """Random games step by step beside the reference, and house-rule identification, both
    through the command line on an engine written elsewhere (fuzzing it first found that it
    named a lone maker's euchre by the ordinary row: case lone-maker-euchred-scoring-row)."""
    engine = f"node {ROOT / 'tools' / 'engines' / 'js' / 'engine.js'}"
    fuzz = subprocess.run([sys.executable, "-m", "conformance.cli", "fuzz", "--engine", engine, "--hands", "150",
                           "--seed", "3", "--out", str(tmp_path / "fuzz")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert fuzz.returncode == 0, fuzz.stdout[-3000:] + fuzz.stderr[-2000:]
    assert "AGREED on every step of 150 hands" in fuzz.stdout
    identify = subprocess.run([sys.executable, "-m", "conformance.cli", "identify", "--engine", engine, "--variant",
                               "euchre", "--check-hands", "60", "--out", str(tmp_path / "id")],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert identify.returncode == 0, identify.stdout[-3000:] + identify.stderr[-2000:]
    assert "house rules (values other than the ones sent): none" in identify.stdout


@pytest.mark.skipif(shutil.which("node") is None,
                    reason="Node.js (`node`) is not installed: the JavaScript engine cannot run")
def test_js_engine_refuses_card_rules_it_does_not_play():
    """The engine plays a single pack in the usual rank order with follow suit the only rule
    of play: sent a table with copies, cards left out, another rank order, `must` rules, or
    any ranking key, play rule or kind of step it does not read (top trumps, orders by colour,
    trumping at will, the right to renege, trumps set with no bidding, an offer it does not
    play or one decided for a whole side, a give of several cards or before the discard), it answers
    `unsupported` rather than playing other rules than the table's."""
    import copy

    from reference_impl.resolve import resolve

    table = resolve("euchre", {"railroading": True}).table

    def _railroad(t: dict) -> dict:
        return next(s for s in t["hand"] if s["kind"] == "give")
    changes = {
        "copies": lambda t: t["deck"].update(copies=2),
        "without": lambda t: t["deck"].update(without=["9C"]),
        "order": lambda t: t["deck"].update(ranks=["9", "T", "J", "Q", "A", "K"]),
        "must": lambda t: next(s for s in t["hand"] if s["kind"] == "play").update(must=["head"]),
        # Issue 37's mechanisms, and any key of the play step or ranking it does not read:
        "top-trumps": lambda t: t["ranking"].update({"top-trumps": [{"rank": "9"}]}),
        "colour-orders": lambda t: t["ranking"].update({"colour-orders": {"plain": {"red": ["A", "9", "T", "J", "Q", "K"]}}}),
        "may-trump": lambda t: next(s for s in t["hand"] if s["kind"] == "play").update({"may-trump": "always"}),
        "privileged-trumps": lambda t: next(s for s in t["hand"] if s["kind"] == "play").update({"privileged-trumps": 2}),
        "renege": lambda t: next(s for s in t["hand"] if s["kind"] == "play").update(renege="allowed"),
        "set-trumps": lambda t: t["hand"].insert(0, {"id": "clubs", "kind": "set-trumps", "trumps": "C"}),
        # mechanism 5: a give of several cards, a discard before the give
        "give-count": lambda t: _railroad(t).update({"give-count": 2, "giver-may-pass": False,
                                                      "receiver-may-refuse": False}),
        "give-order": lambda t: _railroad(t).update({"give-order": "discard-first", "giver-may-pass": False,
                                                      "receiver-may-refuse": False}),
        # mechanism 5: an auction of a fixed number of rounds
        "rounds": lambda t: t["hand"].insert(0, {"id": "auction", "kind": "auction", "from": "eldest", "rounds": 2,
                                                  "bids": [{"id": "3", "tricks": 3}]}),
        "unit": lambda t: t["scoring"].update(unit="half"),
        # a rule for a forced contract (Double Hasenpfeffer's forced dealer), here a stuck dealer euchred
        "forced-contract": lambda t: (next(s for s in t["hand"] if s["id"] == "round-2").update(stuck="dealer"),
                                      t["scoring"]["rows"].insert(0, {"id": "forced", "when": {"not": {"any": [
                                          {"made": True}, {"forced-contract": False}]}},
                                          "award": [{"to": "defenders", "points": 1}]})),
        # mechanism 4: one decision for a side, a concession that ends the hand
        "decision": lambda t: next(s for s in t["hand"] if s["id"] == "defending-alone").update(decision="first-seat"),
        "concede": lambda t: t["hand"].insert(len(t["hand"]) - 1, {
            "id": "fold", "kind": "offer", "to": {"seats": "defenders", "from": "maker-left"}, "accept": "fold",
            "decline": "play", "effect": "concede"}),
    }
    messages = [{"id": 1, "type": "hello", "protocol": 1, "protocol_version": "1.1.0"},
                {"id": 2, "type": "rules", "variant": "euchre", "options": {"railroading": True}, "sha256": "0" * 64, "table": table}]
    for n, change in enumerate(changes.values(), start=3):
        changed = copy.deepcopy(table)
        change(changed)
        messages.append({"id": n, "type": "rules", "variant": "euchre", "options": {"railroading": True}, "sha256": "0" * 64, "table": changed})
    double = resolve("double-hasenpfeffer").table            # the first table scored in half points
    messages.append({"id": 98, "type": "rules", "variant": "double-hasenpfeffer", "options": {}, "sha256": "0" * 64,
                     "table": double})
    messages.append({"id": 99, "type": "bye"})
    proc = subprocess.run(ENGINE.split(), cwd=ROOT, input="".join(json.dumps(m) + "\n" for m in messages),
                          capture_output=True, text=True, timeout=60)
    replies = {r["id"]: r for r in map(json.loads, proc.stdout.splitlines())}
    assert replies[2]["ok"] is True, replies[2]
    assert replies[98]["ok"] is False and replies[98]["error"]["category"] == "unsupported", replies[98]
    assert "forced-contract" in next(r for n, r in replies.items() if n == 3 + list(changes).index("forced-contract"))[
        "error"]["message"]
    for n, name in enumerate(changes, start=3):
        assert replies[n]["ok"] is False and replies[n]["error"]["category"] == "unsupported", (name, replies[n])
