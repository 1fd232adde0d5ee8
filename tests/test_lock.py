"""The lock (constraints.txt) and the commands that install from it.

pyproject.toml keeps compatible ranges for users; CI and the README's two commands install
with every package pinned by constraints.txt, so a new release cannot change a green run.
These tests fail when a dependency is added without moving the lock (python
tools/check_latest.py --write), when a pin falls outside its range, and when a command of CI
or the README installs without the lock.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from check_latest import canonical, lock_text, moves, read_pins  # noqa: E402

LOCK = ROOT / "constraints.txt"


def requirements() -> list[tuple[str, Requirement]]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = [("dependencies", Requirement(r)) for r in data["project"]["dependencies"]]
    for extra, listed in data["project"].get("optional-dependencies", {}).items():
        found += [(f"[{extra}]", Requirement(r)) for r in listed if not Requirement(r).name.startswith("euchre-spec")]
    found += [("build-system", Requirement(r)) for r in data["build-system"]["requires"]]
    return found


def test_every_requirement_is_pinned_within_its_range():
    pins = read_pins(LOCK.read_text(encoding="utf-8"))
    problems = []
    for where, requirement in requirements():
        pinned = pins.get(canonical(requirement.name))
        if pinned is None:
            problems.append(f"{where}: {requirement.name} is not in constraints.txt")
        elif not requirement.specifier.contains(pinned, prereleases=True):
            problems.append(f"{where}: {requirement.name}=={pinned} is outside {requirement.specifier}")
    assert not problems, "\n".join(problems) + "\n(run: python tools/check_latest.py --write)"


def test_every_line_of_the_lock_is_a_pin_or_a_comment():
    for number, line in enumerate(LOCK.read_text(encoding="utf-8").splitlines(), 1):
        assert not line.strip() or line.startswith("#") or re.fullmatch(r"[A-Za-z0-9._-]+==[A-Za-z0-9.+!_-]+", line), \
            f"constraints.txt:{number}: {line!r}"


def test_ci_and_the_readme_install_from_the_lock():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r'^export PIP_CONSTRAINT="\$PWD/constraints\.txt"$', ci, re.MULTILINE), ".ci/run does not pin its installs"
    assert ci.index("export PIP_CONSTRAINT") < ci.index(".venv/bin/pip install")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", readme.split("## Check your own engine")[0], re.DOTALL)
    installs = [line for block in blocks for line in block.splitlines() if "pip install" in line]
    assert len(installs) == 2, installs
    for line in installs:
        assert "PIP_CONSTRAINT=$PWD/constraints.txt" in line, line


def test_the_lock_tool_sees_what_moved():
    old = read_pins("a==1.0\nMarkdown==3.10.2\n# note\nb_c==2\n")
    new = read_pins("a==1.0\nmarkdown==3.11.3\nd==4\n")
    assert old == {"a": "1.0", "markdown": "3.10.2", "b-c": "2"}
    assert [(m.package, m.locked, m.newest) for m in moves(old, new)] == [
        ("b-c", "2", None), ("d", None, "4"), ("markdown", "3.10.2", "3.11.3")]


def test_the_lock_tool_writes_sorted_pins_without_the_project():
    text = lock_text("zeta==1\n-e git+x#egg=euchre_spec\neuchre-spec==0.2.0\nAlpha==2\n", "3.11.7", "linux/x86_64")
    pins = [line for line in text.splitlines() if not line.startswith("#")]
    assert pins == ["Alpha==2", "zeta==1"]
    assert "3.11.7" in text
