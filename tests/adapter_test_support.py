"""What the tests of the adapters for engines written elsewhere share: where the adapters
and their recorded exchanges are, and whether an engine's checkout is present."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ROOT / "tools" / "adapters"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "adapters"
sys.path.insert(0, str(ADAPTERS))


def engine_present(*variables: str) -> bool:
    return all(os.environ.get(v) and Path(os.environ[v]).is_dir() for v in variables)


def missing_engine_message(adapter: str, variable: str) -> tuple[int, str]:
    """Exit status and stderr of the adapter started without its engine's variable."""
    env = {k: v for k, v in os.environ.items() if k != variable}
    done = subprocess.run([sys.executable, str(ADAPTERS / adapter)], input='{"id": 1, "type": "hello"}\n',
                          capture_output=True, text=True, env=env, timeout=60)
    return done.returncode, done.stderr
