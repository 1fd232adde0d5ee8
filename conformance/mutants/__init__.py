"""Mutant engines: the reference engine with one seeded rule bug each.

A mutant is a module in this package whose docstring names the bug and whose ``apply()``
patches ``reference_impl`` before the engine starts, usually through the hooks below.
``python -m conformance.mutants NAME`` serves one over the protocol; `euchre-spec mutants`
runs the corpus against every mutant: each must be caught.
"""

from __future__ import annotations

import ast
import importlib
import importlib.abc
import importlib.machinery
import importlib.resources
import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from reference_impl.rules import Rules
    from reference_impl.state import State

NOT_MUTANTS = {"__init__", "__main__"}


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds ``reference_impl``'s modules as their Python source even where a compiled
    (mypyc) build of them is installed beside it: a mutant seeds its bug by patching the
    interpreter's classes, which compiled classes ignore (their methods are bound natively)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if not name.startswith("reference_impl.") or not path:
            return None
        leaf = name.rpartition(".")[2]
        for folder in path:
            source = Path(folder) / f"{leaf}.py"
            if source.is_file():
                return importlib.util.spec_from_file_location(name, source)
            package = Path(folder) / leaf / "__init__.py"
            if package.is_file():     # a subpackage (the step kinds): its modules from source too
                return importlib.util.spec_from_file_location(name, package,
                                                              submodule_search_locations=[str(package.parent)])
        return None


def use_pure_python() -> None:
    """Make the interpreter load from source in this process (before it is first imported)."""
    if any(isinstance(finder, _SourceFirst) for finder in sys.meta_path):
        return
    if "reference_impl.state" in sys.modules and not str(sys.modules["reference_impl.state"].__file__).endswith(".py"):
        raise RuntimeError("the compiled interpreter is already loaded: a mutant must start in a fresh process")
    sys.meta_path.insert(0, _SourceFirst())


def _interpreter() -> tuple[type, type]:
    from reference_impl.rules import Rules
    from reference_impl.state import State
    return Rules, State


def mutants_dir() -> Path:
    """The folder of the mutant modules (package data, wherever the package is installed)."""
    return Path(str(importlib.resources.files(__name__)))


def mutant_names() -> list[str]:
    """Every mutant in this package, by name (module name with hyphens)."""
    return sorted(p.stem.replace("_", "-") for p in mutants_dir().glob("*.py") if p.stem not in NOT_MUTANTS)


def mutant_bugs() -> dict[str, str]:
    """Mutant name -> the bug it seeds (its docstring, on one line)."""
    found = {}
    for name in mutant_names():
        path = mutants_dir() / (name.replace("-", "_") + ".py")
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        found[name] = " ".join(doc.split())
    return found


def load(name: str):
    """The mutant module ``name`` (hyphens or underscores), or the mutant in the Python file
    at path ``name`` (a mutant of your own)."""
    if name.endswith(".py"):
        spec = importlib.util.spec_from_file_location(f"mutant_{Path(name).stem}", name)
        if spec is None or not Path(name).is_file():
            raise SystemExit(f"no mutant file {name!r}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    if name not in mutant_names():
        raise SystemExit(f"no mutant {name!r}; known: {', '.join(mutant_names())}")
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def after_compile(change: Callable[[Rules], None]) -> None:
    """Run ``change(rules)`` on every rule table once it is compiled."""
    Rules, _ = _interpreter()
    original = Rules.__init__

    def patched(self: Rules, resolved) -> None:
        original(self, resolved)
        change(self)

    Rules.__init__ = patched


def wrap_state(name: str, wrapper: Callable) -> None:
    """Replace a part of the interpreter by ``wrapper(original, state, *args)``.

    ``name`` is a method of ``State`` (``observation``, ``apply``, ``_start_hand``) or a function
    of a step kind's module as ``module.function`` (``play.playable`` is
    :func:`reference_impl.step_kinds.play.playable`). A function is replaced wherever the
    interpreter holds it: in its module, in the modules that import it by name, and in the
    state's dispatch tables."""
    import reference_impl.state as state_module

    _, State = _interpreter()
    if "." in name:
        module_name, function = name.split(".")
        original = getattr(importlib.import_module(f"reference_impl.step_kinds.{module_name}"), function)
    else:
        original = getattr(State, name)

    def patched(self: State, *args, **kwargs):
        return wrapper(original, self, *args, **kwargs)

    if "." not in name:
        setattr(State, name, patched)
    for module_name, module in list(sys.modules.items()):
        if module_name.startswith("reference_impl.") and module is not None:
            for key, value in list(vars(module).items()):
                if value is original:
                    setattr(module, key, patched)
    for table in (state_module._LEGAL, state_module._APPLY, state_module._BEGIN):
        for key, function in table.items():
            if function is original:
                table[key] = patched


def show_history_to_every_seat(field: str) -> None:
    """Every seat's view carries every seat's entry of the history field ``field``
    (``discards``, ``passed``, ``received``: see :data:`reference_impl.visibility.HISTORY_FIELDS`),
    as the full observation has it, where the seat's own view has it hidden: a leak of the
    cards a seat laid away or took unseen."""
    def observation(original, state: State, seat: int | None = None) -> dict:
        view = original(state, seat)
        if seat is not None:
            full = original(state, None)[field]
            view[field] = [cards if cards else mine for cards, mine in zip(full, view[field])]
        return view
    wrap_state("observation", observation)


def rebuild_suit_masks(rules: Rules) -> None:
    """Recompute the follow-suit masks from ``rules.eff`` after a mutant changed it."""
    n = rules.n_cards
    rules.suit_mask = tuple(tuple(sum(1 << c for c in range(n) if rules.eff[ctx][c] == s)
                                  for s in range(len(rules.suits))) for ctx in range(rules.contexts))


def change_table(change: Callable[[dict], None]) -> None:
    """Compile every rule table as ``change(table)`` leaves it (a copy): the engine plays rules
    other than those it is sent, as an engine that misreads a rule does. Most rule bugs are
    best seeded this way, since they then survive changes to the interpreter's internals."""
    import copy

    from reference_impl.resolve import ResolvedTable

    Rules, _ = _interpreter()
    original = Rules.__init__

    def patched(self: Rules, resolved) -> None:
        table = copy.deepcopy(resolved.table)
        change(table)
        original(self, ResolvedTable(resolved.id, table, resolved.sha256, resolved.selected, resolved.file))

    Rules.__init__ = patched


def steps(table: dict, kind: str, **match) -> list[dict]:
    """The steps of ``kind`` of a table's hand whose fields equal ``match``."""
    return [s for s in table["hand"] if s["kind"] == kind and all(s.get(k) == v for k, v in match.items())]


def row(table: dict, row_id: str) -> dict | None:
    return next((r for r in table["scoring"]["rows"] if r["id"] == row_id), None)


def rescore(row_id: str, *awards: dict) -> None:
    """Give scoring row ``row_id`` other awards (``{"to": ..., "points": ...}`` as in a table)."""
    def change(table: dict) -> None:
        found = row(table, row_id)
        if found is not None:
            found["award"] = list(awards)
    change_table(change)


def left_bower(rules: Rules, trump: int) -> int | None:
    """The card that is the left bower when suit ``trump`` is trumps, or None in a table without
    bowers (Double Hasenpfeffer, Napoleon): a bower mutant leaves such a table as it is."""
    return next((c for c, name in enumerate(rules.card_names)
                 if name[0] == "J" and name != "JK" and rules.eff[trump][c] == trump and rules.printed_suit[c] != trump),
                None)
