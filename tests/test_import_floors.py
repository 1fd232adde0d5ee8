"""No import circle within a package; the interpreter's step kinds each a module of their own.

The graph is read from the source (see :mod:`import_graph`), so the check costs nothing and
holds for the compiled build too. Add a package root to ``PACKAGES`` once it is free of
circles (the conformance package is being cut into packages for that, issue 39).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from import_graph import circles, floors, import_graph

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["reference_impl"]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_of_the_package_imports_itself_round_a_circle(package):
    found = circles(import_graph(ROOT / package))
    assert not found, f"modules of {package} that import each other in a circle: {found}"


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_a_circle_is_found_through_a_subpackage_and_an_import_in_a_function(tmp_path):
    root = _package(tmp_path, {
        "low.py": "def helper():\n    from .kinds.play import begin\n    return begin\n",
        "kinds/__init__.py": "",
        "kinds/play.py": "from ..low import helper\n\ndef begin():\n    return helper\n",
        "top.py": "from .kinds import play\n",
    })
    assert circles(import_graph(root)) == [["pkg.kinds.play", "pkg.low"]]


def test_an_import_for_the_type_checker_only_is_no_circle(tmp_path):
    root = _package(tmp_path, {
        "state.py": "from .kinds import play\n\nclass State:\n    pass\n",
        "kinds/__init__.py": "",
        "kinds/play.py": ("from __future__ import annotations\nfrom typing import TYPE_CHECKING\n"
                          "if TYPE_CHECKING:\n    from ..state import State\n\n"
                          "def begin(state: State) -> bool:\n    return True\n"),
    })
    graph = import_graph(root)
    assert graph["pkg.state"] == {"pkg.kinds.play"} and graph["pkg.kinds.play"] == set()
    assert circles(graph) == []
    assert floors(graph)["pkg.state"] == floors(graph)["pkg.kinds.play"] + 1


def test_the_state_sits_above_its_step_kinds_and_they_above_their_helpers():
    graph = import_graph(ROOT / "reference_impl")
    floor = floors(graph)
    package = "reference_impl.step_kinds"
    helpers = {f"{package}.common", f"{package}.hand_end"}
    kinds = {m for m in graph if m.startswith(f"{package}.")} - helpers
    assert all(floor["reference_impl.state"] > floor[m] for m in kinds | helpers), floor
    assert not any(graph[h] & kinds for h in helpers), "a helper imports a step kind"
    assert not any("reference_impl.state" in graph[m] for m in kinds | helpers), "a step kind imports the state"


def test_every_step_kind_of_a_table_has_its_module():
    """Each kind a table may name is begun by the module of :mod:`reference_impl.step_kinds`
    that declares it, and every decision a state can wait for has its legal actions."""
    from reference_impl import state as state_module
    from reference_impl.step_kinds import common
    from reference_impl.steps import KINDS

    declared = {module.KIND: module for module in state_module.STEP_KINDS}
    assert sorted(declared) == sorted(KINDS.values())
    assert all(state_module._BEGIN[kind] is module.begin for kind, module in declared.items())
    modes = {value for key, value in vars(common).items() if key.startswith("M_")}
    assert set(state_module._LEGAL) | {common.M_PLAY} == modes
    assert set(state_module._APPLY) | {common.M_PLAY, common.M_NONE} == modes
