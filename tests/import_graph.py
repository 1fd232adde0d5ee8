"""The import graph of a package, read from its source with ``ast`` (nothing is imported).

Used to hold the layers apart: a package whose modules import each other in a circle cannot
be read (or changed) one floor at a time. Only imports that run count: those at a module's top
and those inside its functions. Imports under ``if TYPE_CHECKING:`` never run; they name a
class for the type checker (and for mypyc, which compiles attribute access on it natively),
so a step kind may name the ``State`` it is given without importing the module that walks it.
"""

from __future__ import annotations

import ast
from pathlib import Path


def module_name(package_dir: Path, path: Path) -> str:
    """``reference_impl/step_kinds/play.py`` -> ``reference_impl.step_kinds.play`` (a package's
    ``__init__.py`` is the package itself)."""
    parts = (package_dir.name, *path.relative_to(package_dir).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for child in node.body:
                skipped.update(id(n) for n in ast.walk(child))
    return skipped


def imports_of(package_dir: Path, path: Path, modules: set[str]) -> set[str]:
    """The modules of the package that the module at ``path`` imports when it runs.

    ``from . import x`` imports the submodule ``x`` (its package is loaded first in any case,
    so that is not counted as an import of the package); ``from .m import name`` imports
    ``m``, or the submodule ``m.name`` where there is one."""
    name = module_name(package_dir, path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skipped = _type_checking_only(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            submodules = {f"{source}.{alias.name}" for alias in node.names} & modules
            found.update(submodules)
            if node.module and source in modules and len(submodules) < len(node.names):
                found.add(source)
    return {m for m in found if m in modules and m != name}


def import_graph(package_dir: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, for every module under ``package_dir``."""
    paths = sorted(package_dir.rglob("*.py"))
    modules = {module_name(package_dir, p) for p in paths}
    return {module_name(package_dir, p): imports_of(package_dir, p, modules) for p in paths}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other by imports (strongly connected components
    of more than one module, or a module importing itself), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:            # Tarjan's algorithm; a package has few modules
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1 or module in graph[module]:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def floors(graph: dict[str, set[str]]) -> dict[str, int]:
    """Each module's floor: 0 for one that imports none of the package, else one above the
    highest floor it imports (for a graph without circles)."""
    floor: dict[str, int] = {}
    visiting: set[str] = set()

    def of(module: str) -> int:
        if module not in floor:
            if module in visiting:
                raise ValueError(f"{module} imports itself round a circle: it has no floor")
            visiting.add(module)
            floor[module] = 1 + max((of(t) for t in graph[module]), default=-1)
        return floor[module]

    for module in graph:
        of(module)
    return floor


def unit_of(module: str, floors: list[tuple[str, ...]]) -> tuple[str, int] | None:
    """The unit (the longest one naming the module or a package above it) and its floor."""
    best: tuple[str, int] | None = None
    for level, units in enumerate(floors):
        for unit in units:
            if (module == unit or module.startswith(unit + ".")) and (best is None or len(unit) > len(best[0])):
                best = (unit, level)
    return best


def floor_breaches(graph: dict[str, set[str]], floors: list[tuple[str, ...]]) -> list[str]:
    """Each import that goes sideways or up the floors, and each module that sits on no floor."""
    breaches = []
    for module in sorted(graph):
        mine = unit_of(module, floors)
        if mine is None:
            breaches.append(f"{module} sits on no floor")
            continue
        for target in sorted(graph[module]):
            theirs = unit_of(target, floors)
            if theirs is None or theirs[0] == mine[0]:
                continue
            if theirs[1] >= mine[1]:
                breaches.append(f"{module} (floor {mine[1]}, {mine[0]}) imports {target} (floor {theirs[1]}, {theirs[0]})")
    return breaches
