"""The fuzzers of ``tools/fuzz/``: every kept regression input passes its target's checks,
and each fuzzer runs for a short budget in CI without a finding (the longer campaigns are
run by hand: ``python tools/fuzz/fuzz.py all --time 600``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools" / "fuzz"
sys.path.insert(0, str(TOOLS))

from fuzz import REGRESSIONS, check_one, fuzz  # noqa: E402
from targets import TARGETS  # noqa: E402

INPUTS = sorted((name, path) for name in TARGETS for path in (REGRESSIONS / name).glob(f"*{TARGETS[name].suffix}"))


def test_every_target_has_regression_inputs():
    assert {name for name, _ in INPUTS} == set(TARGETS)


@pytest.mark.parametrize("target, path", INPUTS, ids=[f"{n}/{p.name}" for n, p in INPUTS])
def test_regression_input_is_handled(tmp_path, target, path):
    assert check_one(TARGETS[target], path.read_bytes(), tmp_path, per_input=20.0) is None


# A fixed number of inputs, not a time budget: the same inputs on a fast or a busy machine.
SHORT_CAMPAIGN = {"tables": 10, "cases": 40, "protocol": 120, "replies": 60}


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_short_fuzzing_campaign_finds_nothing(target):
    campaign = fuzz(target, seconds=600.0, seed=20261201, max_inputs=SHORT_CAMPAIGN[target], per_input=20.0)
    assert campaign.inputs == SHORT_CAMPAIGN[target], campaign.line()
    assert not campaign.findings, {reason: data[:300] for reason, data in campaign.findings.items()}


def test_the_checks_have_teeth(tmp_path, monkeypatch):
    """A target's check must catch what it is there to catch: a reference engine answering
    ``internal`` is reported, not waved through."""
    from conformance import reference_engine

    def broken(self, message):
        raise KeyError("play")
    monkeypatch.setitem(reference_engine._HANDLERS, "act", broken)
    reason = check_one(TARGETS["protocol"], (REGRESSIONS / "protocol" / "regression-bid-in-the-play.jsonl").read_bytes(),
                       tmp_path, per_input=20.0)
    assert reason is not None and "internal" in reason
