"""Builds the interpreter's hot modules with mypyc, as `black` does, where that can be done.

Everything else about the package is in pyproject.toml. The compiled modules are optional
extensions: the pure-Python modules are always installed beside them, and Python imports
the compiled one where it exists. So a wheel built without a C compiler (or with
``EUCHRE_SPEC_COMPILE=0``) is the pure-Python package, works the same, and is what an
editable install and the test suite use.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent

# The modules of the step kinds are the state's own code: each is compiled as soon as it is added
# (their package's __init__ holds nothing to run).
STEP_KINDS = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "reference_impl" / "step_kinds").glob("*.py")
                    if path.name != "__init__.py")
# The modules a hand's every decision runs through, and perft (the costliest request an engine is
# sent); they type-check under mypy --strict-optional.
COMPILED = ["reference_impl/state.py", "reference_impl/rules.py", "reference_impl/conditions.py",
            "reference_impl/steps.py", "reference_impl/scoring.py", "reference_impl/perft.py",
            *STEP_KINDS]


def compiled_extensions() -> list:
    building = any(arg in ("bdist_wheel", "build_ext", "build", "install") for arg in sys.argv)
    if not building or os.environ.get("EUCHRE_SPEC_COMPILE", "1") == "0" or any("editable" in arg for arg in sys.argv):
        return []                         # metadata, an sdist, an editable install: nothing to compile
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("euchre-spec: mypyc is not available; installing the pure-Python interpreter", file=sys.stderr)
        return []
    try:
        extensions = mypycify(["--ignore-missing-imports", *COMPILED], opt_level="3")
    except BaseException as exc:          # mypyc reports type errors by SystemExit
        print(f"euchre-spec: mypyc could not compile the interpreter ({exc!r}); installing it as pure Python",
              file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True         # no C compiler: the build goes on without it
    return extensions


setup(ext_modules=compiled_extensions())
