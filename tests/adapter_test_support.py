"""What the tests of the adapters for engines written elsewhere share: where the adapters and
their recorded exchanges are, whether an engine's checkout is present, and the three checks
every adapter's test file makes the same way (its mapping replayed on its recording, the
recording replayed live on the engine, the missing engine's message naming its variable), so
that each test file holds only what is particular to its engine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ROOT / "tools" / "adapters"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "adapters"
sys.path.insert(0, str(ADAPTERS))

from replay_exchange import load, replay, replay_live  # noqa: E402


def engine_present(*variables: str) -> bool:
    """Whether each variable names a folder (an engine's checkout)."""
    return all(os.environ.get(v) and Path(os.environ[v]).is_dir() for v in variables)


def needs_engine(variable: str, checkout: str) -> pytest.MarkDecorator:
    """Skip a test unless ``variable`` names a checkout (``checkout`` says of what)."""
    return pytest.mark.skipif(not engine_present(variable), reason=f"set {variable} to a checkout of {checkout}")


def fixture(name: str) -> dict[str, Any]:
    """A recorded exchange of tests/fixtures/adapters/."""
    return load(FIXTURES / name)


def first_exchange(recorded: dict[str, Any], kind: str) -> dict[str, Any]:
    """The first recorded request of this type, with its recorded reply."""
    return next(item for item in recorded["protocol"] if item["request"]["type"] == kind)


def assert_replays(make_adapter: Callable[[Any, str], Any], name: str) -> None:
    """The adapter, its engine calls answered from the recording (each asked exactly as it was
    recorded), gives every recorded protocol reply."""
    for request, recorded, replayed in replay(make_adapter, fixture(name)):
        assert replayed == recorded, request


def assert_replays_live(adapter: str, name: str) -> None:
    """The adapter on the real engine gives every recorded protocol reply again."""
    for recorded, now in replay_live(ADAPTERS / adapter, fixture(name)):
        assert now == recorded


def missing_engine_message(adapter: str, variable: str) -> tuple[int, str]:
    """Exit status and stderr of the adapter started without its engine's variable."""
    env = {k: v for k, v in os.environ.items() if k != variable}
    done = subprocess.run([sys.executable, str(ADAPTERS / adapter)], input='{"id": 1, "type": "hello"}\n',
                          capture_output=True, text=True, env=env, timeout=60)
    return done.returncode, done.stderr


def assert_missing_engine_named(adapter: str, variable: str) -> None:
    """Started without its engine's variable, the adapter exits with status 2 and names it."""
    status, stderr = missing_engine_message(adapter, variable)
    assert status == 2 and variable in stderr, (status, stderr)


def assert_shuffle_gives(numbers: list[float], start: list[str], target: list[str]) -> None:
    """A JavaScript engine's Fisher-Yates shuffle from the end (``j = floor(random() * (i +
    1))``, as 67cards and euchre-webrtc write it), drawing ``numbers``, turns ``start`` into
    ``target``: the adapter's numbers lay out the runner's deal."""
    deck = list(start)
    drawn = iter(numbers)
    for i in range(len(deck) - 1, 0, -1):
        j = int(next(drawn) * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    assert deck == target
