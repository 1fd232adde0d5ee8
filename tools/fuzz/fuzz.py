#!/usr/bin/env python3
"""Fuzz a target for a while: ``python tools/fuzz/fuzz.py TARGET [--time S] [--seed N]``.

TARGET is ``tables``, ``cases``, ``protocol``, ``replies`` or ``all`` (see ``targets.py``
for what each must withstand). Inputs are mutants of the target's seeds and of the
regression inputs kept in ``tests/fixtures/fuzz/TARGET/``; an input that breaks an invariant,
raises, or runs longer than ``--per-input`` seconds is a finding, saved there (with
``--save``) so that ``tests/test_fuzz.py`` replays it for ever after. A seed replays a
campaign exactly.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from targets import TARGETS, Target  # noqa: E402

REGRESSIONS = HERE.parents[1] / "tests" / "fixtures" / "fuzz"


class InputTimedOut(Exception):
    pass


def _alarm(signum, frame):
    raise InputTimedOut


@dataclass
class Campaign:
    target: str
    inputs: int = 0
    seconds: float = 0.0
    findings: dict[str, bytes] = field(default_factory=dict)     # reason -> smallest input

    def line(self) -> str:
        return (f"{self.target}: {self.inputs} inputs in {self.seconds:.1f} s "
                f"({self.inputs / max(self.seconds, 1e-9):.0f}/s), {len(self.findings)} finding(s)")


def regression_inputs(target: Target) -> list[bytes]:
    folder = REGRESSIONS / target.name
    return [p.read_bytes() for p in sorted(folder.glob(f"*{target.suffix}"))] if folder.is_dir() else []


def check_one(target: Target, data: bytes, workdir: Path, per_input: float) -> str | None:
    """None if the input is handled as it must be, else the reason (one line)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, per_input)
    try:
        target.check(data, workdir)
    except InputTimedOut:
        return f"hang: more than {per_input:g} s"
    except RecursionError:
        return "RecursionError"
    except Exception as exc:  # noqa: BLE001 - every exception is a finding
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        kind = type(exc).__name__
        text = str(exc).splitlines()[0][:160] if str(exc) else ""
        if kind == "InvariantBroken":
            return f"invariant: {text}"
        return f"{kind} at {Path(frame.filename).name}:{frame.lineno}: {text}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return None


def fuzz(target_name: str, seconds: float = 10.0, seed: int = 0, max_inputs: int | None = None,
         per_input: float = 10.0) -> Campaign:
    """Mutate and check inputs of one target until the time or the input budget is spent."""
    target = TARGETS[target_name]
    rng = random.Random(seed)
    pool = target.seeds() + regression_inputs(target)
    campaign = Campaign(target_name)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{target_name}-") as tmp:
        workdir = Path(tmp)
        while time.monotonic() - started < seconds and (max_inputs is None or campaign.inputs < max_inputs):
            data = target.mutate(rng, rng.choice(pool), pool)
            campaign.inputs += 1
            reason = check_one(target, data, workdir, per_input)
            if reason is not None:
                kept = campaign.findings.get(reason)
                if kept is None or len(data) < len(kept):
                    campaign.findings[reason] = data
    campaign.seconds = time.monotonic() - started
    return campaign


def save(campaign: Campaign) -> list[Path]:
    target = TARGETS[campaign.target]
    folder = REGRESSIONS / target.name
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for data in campaign.findings.values():
        path = folder / f"finding-{hashlib.sha256(data).hexdigest()[:12]}{target.suffix}"
        path.write_bytes(data)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=sorted(TARGETS) + ["all"])
    parser.add_argument("--time", type=float, default=60.0, metavar="S", help="seconds per target (default 60)")
    parser.add_argument("--inputs", type=int, metavar="N", help="stop after N inputs per target")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-input", type=float, default=10.0, metavar="S", help="an input slower than this is a finding")
    parser.add_argument("--save", action="store_true", help="save each finding under tests/fixtures/fuzz/TARGET/")
    args = parser.parse_args(argv)
    names = sorted(TARGETS) if args.target == "all" else [args.target]
    found = 0
    for name in names:
        campaign = fuzz(name, args.time, args.seed, args.inputs, args.per_input)
        print(campaign.line(), flush=True)
        for reason, data in sorted(campaign.findings.items()):
            print(f"  {reason}  ({len(data)} bytes)")
        if args.save:
            for path in save(campaign):
                print(f"  saved {path.relative_to(REGRESSIONS.parents[2])}")
        found += len(campaign.findings)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
