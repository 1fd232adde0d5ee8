"""The house's floors: no import circle inside a package, each part of ``conformance/`` imports
only the floors below it, and the interpreter's step kinds are each a module of their own.

The graph is read from the source (:mod:`import_graph`), so nothing is imported to build it and
the check holds for the compiled build too. An import inside a function counts: a late import
hides a circle from the interpreter, not from a reader following the code. An import under
``if TYPE_CHECKING:`` does not: it never runs (it names a class for the type checker, and for
mypyc). ``docs/architecture.md`` describes the floors this test holds.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from import_graph import circles, floor_breaches, floors, import_graph

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["reference_impl", "conformance", "rules_site"]

# conformance/, floor by floor: a unit (a package, or a module alone) may import its own modules
# and the units of the floors below it, never a unit of its own floor or of one above.
CONFORMANCE_FLOORS: list[tuple[str, ...]] = [
    ("conformance", "conformance.common"),                              # constants; text, files, arguments
    ("conformance.cases", "conformance.reference_engine"),              # the case files; the reference behind the protocol
    ("conformance.runner", "conformance.egn", "conformance.mutants"),   # a case on an engine; game records; seeded bugs
    ("conformance.corpus_tools", "conformance.reports", "conformance.fuzzing"),   # the corpus's tools; reports; fuzzing
    ("conformance.cli", "conformance.pytest_plugin"),                            # the commands; the pytest plugin
    ("conformance.__main__",),                                                    # python -m conformance
]


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


def test_the_graph_reader_sees_a_planted_circle(tmp_path: Path) -> None:
    """The checks below can fail: a circle through a late import and a relative import is found."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .sub import b\n")
    (package / "sub" / "b.py").write_text("def f():\n    from pkg import c\n")
    (package / "c.py").write_text("import pkg.a\n")
    (package / "d.py").write_text("from pkg.sub.b import f\n")
    graph = import_graph(package)
    assert circles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    assert floor_breaches(graph, [("pkg", "pkg.sub"), ("pkg.d",)]) == [
        "pkg.a (floor 0, pkg) imports pkg.sub.b (floor 0, pkg.sub)",
        "pkg.sub.b (floor 0, pkg.sub) imports pkg.c (floor 0, pkg)"]


def test_conformance_imports_only_the_floors_below() -> None:
    assert floor_breaches(import_graph(ROOT / "conformance"), CONFORMANCE_FLOORS) == []


def _imported_tops(package: Path) -> dict[str, set[str]]:
    """Each module of a package and the top-level names of what it imports (run-time imports
    and the type checker's alike: a lower package must not even name a higher one)."""
    import ast
    found: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        tops = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                tops.update(alias.name.partition(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                tops.add(node.module.partition(".")[0])
        found[str(path.relative_to(ROOT))] = tops
    return found


@pytest.mark.parametrize("package, above", [("reference_impl", {"conformance", "rules_site"}),
                                            ("conformance", {"rules_site"})])
def test_a_lower_package_never_imports_a_higher_one(package, above):
    """The interpreter is below the suite, and the suite below the site that shows it."""
    breaches = {module: sorted(tops & above) for module, tops in _imported_tops(ROOT / package).items() if tops & above}
    assert breaches == {}
