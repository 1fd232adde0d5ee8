"""The modules setup.py compiles with mypyc type-check, as mypyc checks them before compiling.

A type error there does not fail ``pip install .``: setup.py falls back to the pure-Python
interpreter by design (a user without mypyc's approval still gets a working package), with
one line in a build log that ``pip -q`` hides. So a change that only a type checker objects
to (a helper whose return type makes mypy join a dict's values to ``object``) turned the
installed build pure, and only ``.ci/check-wheel``, ten minutes into CI, saw it. This test
runs mypy over the same modules with setup.py's own flags, in a few seconds of the test run.
"""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest
import setuptools

ROOT = Path(__file__).resolve().parent.parent


def compiled_modules_and_flags(monkeypatch) -> tuple[list[str], list[str]]:
    """setup.py's list of compiled modules and the flags it gives mypycify, read by running it
    with ``setup()`` stubbed out (not building: it compiles nothing)."""
    calls = []
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: calls.append(kwargs))
    monkeypatch.setattr(sys, "argv", ["setup.py", "--name"])
    found = runpy.run_path(str(ROOT / "setup.py"))
    assert calls == [{"ext_modules": []}]
    source = (ROOT / "setup.py").read_text(encoding="utf-8")
    flags = ["--ignore-missing-imports"]
    assert f'mypycify(["{flags[0]}", *COMPILED]' in source, "setup.py calls mypycify with other flags: update this test"
    return found["COMPILED"], flags


def test_every_step_kind_is_compiled(monkeypatch):
    modules, _ = compiled_modules_and_flags(monkeypatch)
    kinds = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "reference_impl" / "step_kinds").glob("*.py")
                   if p.name != "__init__.py")
    assert kinds and set(kinds) <= set(modules)
    assert "reference_impl/state.py" in modules and all((ROOT / m).is_file() for m in modules)


@pytest.mark.timeout(600)
def test_the_compiled_modules_type_check_as_mypyc_needs(monkeypatch):
    modules, flags = compiled_modules_and_flags(monkeypatch)
    done = subprocess.run([sys.executable, "-m", "mypy", *flags, "--no-incremental", "--no-error-summary", *modules],
                          cwd=ROOT, capture_output=True, text=True, timeout=540)
    assert done.returncode == 0, ("mypy refuses a module setup.py compiles, so pip install . would install the pure "
                                  "interpreter:\n" + done.stdout[-4000:] + done.stderr[-2000:])
