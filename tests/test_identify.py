"""Identifying house rules (conformance/fuzzing/identify.py, `euchre-spec identify`).

The proof the issue asks for: an engine that ignores the options it is sent and plays a
fixed set instead (tests/faulty_engines/fixed_options.py) has that set recovered, for 50
random sets across the variants (tools/identify_fixed_sets.py runs all 50; here a sample,
one set of each of the first variants, keeps the suite short). "Recovered" is checked
strictly where the evidence can tell: every option identify calls observed has the
engine's value, and fuzzing the engine against the reference under the identified set
finds no deviation at all (so an option it could not observe makes no difference to the
game either).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.runner.engine_process import InProcessEngine
from conformance.fuzzing.identify import Identifier
from conformance.fuzzing.options import table_for
from reference_impl.resolve import resolve

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "faulty_engines"))
sys.path.insert(0, str(ROOT / "tools"))

from fixed_options import FixedOptions  # noqa: E402
from identify_fixed_sets import SETS, identify_fixed, mismatches, random_sets, variants_with_options  # noqa: E402

SAMPLE = 4            # sets identified in the suite (each of another variant): the first by the
                      # proof tool's command line, the others here
CHECK_HANDS = 100     # hands fuzzed under the identified set to confirm it (the proof tool: 200)


def test_the_random_sets_are_fifty_and_span_every_variant_with_options():
    sets = random_sets(SETS)
    variants = variants_with_options()
    assert len(sets) == SETS and {v for v, _ in sets} == set(variants) and len(variants) >= 7
    assert all(table_for(v, o) is not None and o for v, o in sets)
    assert len({v for v, _ in sets[:SAMPLE]}) == SAMPLE


@pytest.mark.parametrize("index", range(1, SAMPLE))
def test_identify_recovers_a_fixed_option_set(index):
    variant, fixed = random_sets(SETS)[index]
    result = identify_fixed(variant, fixed, seed=index, check_hands=CHECK_HANDS)
    assert result.hands > 0 and result.check_hands > 0
    assert not mismatches(result, variant, fixed), json.dumps({f"{variant} {fixed}": mismatches(result, variant, fixed)}, indent=1)


def test_the_proof_tool_reports_a_set_it_recovers(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "identify_fixed_sets.py"), "--only", "0"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "recovered=1/1" and "| recovered" in result.stdout


def test_every_observable_house_rule_of_a_set_is_named():
    """A set chosen so that every value shows: each is named, as 'differs'."""
    fixed = {"stick-the-dealer": True, "game-target": 7, "dealer-discard": "not-upcard", "lone-lead": "eldest",
             "lone-defender-scoring": "four-for-euchre"}
    result = identify_fixed("euchre", fixed, seed=3, check_hands=CHECK_HANDS)
    assert result.changed == fixed
    assert {v.key for v in result.verdicts if v.status == "differs"} == set(fixed)
    assert result.deviations == []


def test_the_engine_is_sent_one_table_only():
    """Whatever the hypotheses, the engine only ever receives the table it was told to send."""
    sent: list[str] = []

    class Recording(FixedOptions):
        def handle(self, message):
            if isinstance(message, dict) and message.get("type") == "rules":
                sent.append(message["sha256"])
            return super().handle(message)

    table = resolve("euchre", {"super-euchre": True})
    Identifier(lambda: InProcessEngine(factory=lambda: Recording({"euchre": {"going-alone": False}})), "euchre", table,
               check_hands=50, max_hands=40).run()
    assert sent and set(sent) == {table.sha256}


def test_an_engine_that_plays_what_it_is_sent_has_no_house_rules():
    result = Identifier(InProcessEngine, "euchre", resolve("euchre", {"stick-the-dealer": True}), seed=2,
                        check_hands=100).run()
    assert result.changed == {} and result.deviations == []
    assert result.options["stick-the-dealer"] is True
    assert all(v.status in ("as sent", "not observed") or v.status.startswith("as sent") for v in result.verdicts)


# -- the command line --------------------------------------------------------------------------------
def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=900, env={"COLUMNS": "200", "PATH": ""})


def test_identify_command_names_the_house_rules_of_an_engine_and_writes_json(tmp_path):
    fixed = {"going-alone": False, "game-target": 5}
    engine = f"{sys.executable} {ROOT / 'tests' / 'faulty_engines' / 'fixed_options.py'} " \
             + json.dumps(json.dumps({"euchre": fixed}))
    result = run_cli("identify", "--engine", engine, "--variant", "euchre", "--json", "id.json", "--check-hands", "40",
                     cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr        # it does not play what it is sent
    assert "house rules (values other than the ones sent): game-target=5, going-alone=false" in result.stdout
    report = json.loads((tmp_path / "id.json").read_text())
    assert report["results"][0]["house_rules"] == fixed
    assert report["results"][0]["deviations"] == []


def test_identify_command_on_the_reference_finds_no_house_rule(tmp_path):
    result = run_cli("identify", "--engine", "reference", "--variant", "two-hand", "--check-hands", "50", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "house rules (values other than the ones sent): none" in result.stdout


@pytest.mark.parametrize("args, status, message", [
    (["--engine", "reference", "--option", "stick-the-dealer=true"], 2, "--option needs --variant"),
    (["--engine", "reference", "--variant", "euchre", "--option", "benny=three"], 1, "benny"),
    (["--engine", "/no/such/engine", "--variant", "euchre"], 1, "did not start"),
    (["--engine", f"{sys.executable} {ROOT / 'tests' / 'faulty_engines' / 'unsupported.py'}"], 1, "declares no variant"),
])
def test_identify_command_refuses_mistakes_without_a_traceback(tmp_path, args, status, message):
    result = run_cli("identify", *args, cwd=tmp_path)
    assert result.returncode == status, result.stdout + result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr
