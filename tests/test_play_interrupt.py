"""``play`` stops on Ctrl-C or SIGTERM at any point, even deep in the interpreter's loops
(compiled by mypyc in the wheel, where no Python signal handler runs inside a loop: the
signals take their default action while the interpreter plays)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from robustness_fixtures import ROOT

PY = sys.executable


def cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return 0.0
    fields = stat[stat.rfind(b")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_play_stops_on_a_signal_mid_game(signum):
    player = subprocess.Popen([PY, "-m", "conformance.cli", "play", "euchre", "--games", "10000000"], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))    # as from a terminal
    try:
        deadline = time.monotonic() + 60
        while cpu_seconds(player.pid) < 1.5 and time.monotonic() < deadline:     # well into the games
            time.sleep(0.05)
        player.send_signal(signum)
        player.wait(timeout=10)
    finally:
        player.kill()
    assert player.returncode in (-signum, 130), player.returncode
