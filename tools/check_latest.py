#!/usr/bin/env python3
"""Build and test the project with the newest dependencies pip resolves today, beside the lock.

CI and the README's commands install from ``constraints.txt`` (every package pinned), so a
new release of a dependency cannot turn main red, or hide a defect, behind anyone's back.
The lock moves on purpose, with this tool:

    python tools/check_latest.py                 # what moved, and whether the gates still pass
    python tools/check_latest.py --write         # ... and, when they pass, write the new lock
    python tools/check_latest.py --write --force # write the lock even though a gate failed
    python tools/check_latest.py --pytest-args "tests/test_docs_build.py -x"   # fewer tests

It makes a fresh venv in a temporary folder, installs the project (editable, every extra of
pyproject.toml, plus the build requirements and the tools CI uses) with no constraint, lists
each package whose newest version differs from the lock, then runs the gates in that venv:
``mkdocs build --strict`` with every WARNING line counted (the site gate of
tests/site_support.py) and pytest. It prints what breaks (the warnings, the failing tests)
and exits 0 only when everything passed.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "constraints.txt"
# Installed into the lock's environment beside the project's extras: CI builds the sdist and
# the wheel with `build` (.ci/check-wheel).
TOOLS = ["build"]
HEADER = """\
# The lock: every package CI and the README's commands install, pinned (pip -c / PIP_CONSTRAINT).
# Written by `python tools/check_latest.py --write` from a fresh venv holding the project with
# every extra, its build requirements and {tools}, on Python {python} ({platform}).
# pyproject.toml keeps compatible ranges for users; docs/maintaining.md says how the lock moves.
"""
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)")


def canonical(name: str) -> str:
    """A distribution name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins(text: str) -> dict[str, str]:
    """``name==version`` lines of a requirements-style text, by canonical name."""
    pins = {}
    for line in text.splitlines():
        match = PIN.match(line.strip())
        if match:
            pins[canonical(match.group(1))] = match.group(2)
    return pins


@dataclass(frozen=True)
class Move:
    package: str
    locked: str | None
    newest: str | None


def moves(locked: dict[str, str], newest: dict[str, str]) -> list[Move]:
    """Every package whose version differs between the lock and the newest install, or that
    is in one of them only."""
    names = sorted(set(locked) | set(newest))
    return [Move(name, locked.get(name), newest.get(name)) for name in names if locked.get(name) != newest.get(name)]


def project_requirements() -> tuple[list[str], list[str]]:
    """The extras of pyproject.toml and its build requirements."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras = sorted(data["project"].get("optional-dependencies", {}))
    return extras, list(data["build-system"]["requires"])


def lock_text(frozen: str, python: str, platform: str) -> str:
    """The lock file's text: the header, then the frozen pins sorted by name."""
    lines = sorted((line.strip() for line in frozen.splitlines() if PIN.match(line.strip())
                    and canonical(PIN.match(line.strip()).group(1)) != "euchre-spec"), key=lambda l: canonical(l.split("==")[0]))
    return HEADER.format(tools=", ".join(TOOLS), python=python, platform=platform) + "\n".join(lines) + "\n"


def run(command: list[str], console: Console, **kwargs) -> subprocess.CompletedProcess:
    console.print(f"[dim]$ {' '.join(command)}[/dim]")
    return subprocess.run(command, cwd=ROOT, text=True, capture_output=True, **kwargs)


def site_problems(python: Path, work: Path) -> list[str]:
    """The strict-site gate in the new venv: the same command and the same reading of its log
    as tests/site_support.py."""
    sys.path.insert(0, str(ROOT / "tests"))
    from site_support import build_problems  # noqa: E402 (the one reading of a build's log)
    result = subprocess.run([str(python), "-m", "mkdocs", "build", "--strict", "-d", str(work / "site")], cwd=ROOT,
                            text=True, capture_output=True, env={"NO_MKDOCS_2_WARNING": "1", "NO_COLOR": "1",
                                                                 "HOME": str(work), "PATH": ""})
    return build_problems(result.returncode, result.stdout + result.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write the new lock when every gate passes")
    parser.add_argument("--force", action="store_true", help="with --write: write it even when a gate failed")
    parser.add_argument("--pytest-args", default="-q -p no:cacheprovider",
                        help="arguments for pytest in the new venv (default: the whole suite)")
    parser.add_argument("--no-tests", action="store_true", help="only install and compare, run no gate")
    args = parser.parse_args(argv)
    console = Console()
    extras, build_requires = project_requirements()
    with tempfile.TemporaryDirectory(prefix="euchre-latest-") as tmp:
        work = Path(tmp)
        venv = work / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        python = venv / "bin" / "python"
        pip = [str(python), "-m", "pip", "install", "-q", "--upgrade"]
        # no constraint: the environment variable a CI shell may carry is dropped too
        env = {key: value for key, value in os.environ.items() if key != "PIP_CONSTRAINT"}
        for command in (pip + ["pip"], pip + build_requires + TOOLS, pip + ["-e", f".[{','.join(extras)}]"]):
            result = run(command, console, env=env)
            if result.returncode:
                console.print(f"[red]install failed[/red]:\n{result.stdout}{result.stderr}")
                return 1
        frozen = run([str(python), "-m", "pip", "freeze", "--all", "--exclude-editable"], console).stdout
        newest = read_pins(frozen)
        locked = read_pins(LOCK.read_text(encoding="utf-8")) if LOCK.is_file() else {}
        changed = moves(locked, newest)
        table = Table(title=f"{len(changed)} package(s) differ from {LOCK.name}")
        for column in ("package", "locked", "newest"):
            table.add_column(column)
        for move in changed:
            table.add_row(move.package, move.locked or "-", move.newest or "-")
        console.print(table)
        broken: list[str] = []
        if not args.no_tests:
            problems = site_problems(python, work)
            broken += [f"site: {line}" for line in problems]
            console.print(f"mkdocs build --strict: {'[green]no warning[/green]' if not problems else f'[red]{len(problems)} problem line(s)[/red]'}")
            tests = run([str(python), "-m", "pytest", *args.pytest_args.split()], console)
            summary = tests.stdout.strip().splitlines()[-1:] if tests.stdout.strip() else ["(no output)"]
            console.print(f"pytest: {summary[0]}")
            if tests.returncode:
                broken += [f"test: {line}" for line in tests.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))] \
                    or [f"test: pytest exited with status {tests.returncode}"]
        for line in broken:
            console.print(f"[red]breaks[/red] {line}")
        if args.write and (not broken or args.force):
            version = ".".join(map(str, sys.version_info[:3]))
            LOCK.write_text(lock_text(frozen, version, f"{sys.platform}/{platform.machine()}"),
                            encoding="utf-8")
            console.print(f"wrote {LOCK.relative_to(ROOT)} ({len(newest)} pins)")
        elif args.write:
            console.print("[yellow]the lock was not written: a gate failed (use --force to write it anyway)[/yellow]")
        return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
