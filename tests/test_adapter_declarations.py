"""Each adapter of an engine written elsewhere declares only what its engine plays: its
declaration is compared with the recorded result of `euchre-spec identify` on that engine
(docs/compliance/fuzz/<engine>/identify.json, written by tools/publish_reports.py --fuzz),
so no test needs the engine itself.

- A house rule identify confirms (verdict ``differs``, the value sent losing at least
  ``CLEAR`` times as many games as it won) is declared, and the value it refutes is not, unless
  the adapter tells the engine that option (``TOLD``: the engine plays the value it is sent) or
  plays it in its own game loop (``ADAPTER_PLAYS``: never credited to the engine). Where the
  value sent still won a fair share the engine plays neither value cleanly: a defect the suite
  reports, not a house rule to declare (euchre-plt offers a lone defence, but after the
  dealer's discard: 71 games for, 157 against).
- A value identify's evidence refutes (games lost against the engine, none won) is not
  declared, with the same two exceptions.
- An adapter that refuses ``first_dealer`` does not declare choosing the first dealer by cards.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from adapter_test_support import ROOT
from conformance.fuzzing.options import show
from reference_impl.resolve import resolve

RECORDED = ROOT / "docs" / "compliance" / "fuzz"
CLEAR = 4          # a value sent that loses four times as many games as it wins is refuted

# engine (its folder of recorded runs) -> adapter module
ADAPTED = {
    "euchre-app": "euchre_app_engine",
    "cards-ts": "cards_ts_engine",
    "rlcard-euchre-w23": "rlcard_euchre_engine",
    "rlcard-euchre-euchre-rl": "rlcard_euchre_engine",
    "rlcard-500": "rlcard_500_engine",
    "euchre-plt": "euchre_plt_engine",
    "buck-euchre": "buck_euchre_engine",
    "euchre-webrtc": "euchre_webrtc_engine",
    "euchre-arena": "euchre_arena_engine",
    "fun-euchre": "fun_euchre_engine",
    "moltblox": "moltblox_euchre_engine",
}


def declared_values(declared: dict[str, list[Any]], variant: str, option: str) -> set[str]:
    """The values of ``option`` the declaration covers, as identify writes them (an option not
    listed is played at its default only)."""
    if option in declared:
        return {show(value) for value in declared[option]}
    return {show(resolve(variant).table["options"][option]["default"])}


def mismatches(declared: dict[str, list[Any]], adapter: Any, identified: dict[str, Any]) -> list[str]:
    """Where a declaration and one recorded identify result disagree, in words."""
    variant = identified["variant"]
    exempt = set(getattr(adapter, "TOLD", ())) | set(getattr(adapter, "ADAPTER_PLAYS", ()))
    found = []
    for verdict in identified["verdicts"]:
        option = verdict["option"]
        if option in exempt:
            continue
        values = declared_values(declared, variant, option)
        sent = (verdict.get("evidence") or {}).get(show(verdict["sent"])) or {}
        if verdict["status"].startswith("differs") and CLEAR * sent.get("wins", 0) <= sent.get("losses", 0):
            if show(verdict["identified"]) not in values:
                found.append(f"{option}: identify finds {show(verdict['identified'])}, not declared")
            if show(verdict["sent"]) in values:
                found.append(f"{option}: identify refutes {show(verdict['sent'])}, still declared")
        for value, tally in (verdict.get("evidence") or {}).items():
            if tally["losses"] > 0 and tally["wins"] == 0 and value in values:
                found.append(f"{option}: identify refutes {value} ({tally['losses']} against), still declared")
    if getattr(adapter, "NO_FIRST_DEALER", None) and "first-black-jack" in declared.get("first-dealer", []):
        found.append("first-dealer: first-black-jack declared, but the adapter refuses first_dealer")
    return found


@pytest.mark.parametrize("engine", sorted(ADAPTED))
def test_the_declaration_agrees_with_the_recorded_identify(engine):
    module = importlib.import_module(ADAPTED[engine])
    recorded = json.loads((RECORDED / engine / "identify.json").read_text(encoding="utf-8"))
    problems = [f"{result['variant']}: {problem}" for result in recorded["results"]
                for problem in mismatches(module.DECLARED_OPTIONS, module.Adapter, result)]
    assert problems == [], f"{ADAPTED[engine]}.py: " + "; ".join(problems)


def test_the_comparison_sees_a_house_rule_left_undeclared():
    """The check has teeth: cards-ts's old declaration (maker-left leading against a loner,
    the upcard buried, first dealer by cards) is refused against its recorded identify."""
    module = importlib.import_module("cards_ts_engine")
    before = ROOT / "tests" / "fixtures" / "identify" / "cards-ts-before-35.json"   # identify as published before issue 35
    recorded = json.loads(before.read_text(encoding="utf-8"))["results"][0]
    old = {"defending-alone": [False], "first-dealer": ["first-black-jack", "random"], "game-target": [5, 7, 10, 11]}
    found = mismatches(old, module.Adapter, recorded)
    assert any(p.startswith("lone-lead: identify finds eldest") for p in found)
    assert any(p.startswith("dealer-discard: identify finds not-upcard") for p in found)
    assert any(p.startswith("first-dealer") for p in found)


def test_the_adapters_own_game_loop_is_not_credited_to_rlcard():
    """identify's game-target and fast-break on RLCard are the adapter's loop: exempt, and said so."""
    module = importlib.import_module("rlcard_euchre_engine")
    assert {"game-target", "fast-break"} <= module.Adapter.ADAPTER_PLAYS
    recorded = json.loads((RECORDED / "rlcard-euchre-w23" / "identify.json").read_text(encoding="utf-8"))["results"][0]
    assert recorded["house_rules"].keys() <= module.Adapter.ADAPTER_PLAYS
