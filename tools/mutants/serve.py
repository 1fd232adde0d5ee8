#!/usr/bin/env python3
"""Serve the reference engine with one seeded rule bug: ``serve.py <mutant-name>``.

A mutant is a module in this folder whose docstring names the bug and whose ``apply()``
patches ``reference_impl`` before the engine starts, usually through the hooks below.
`euchre-spec mutants` runs the corpus against every mutant: each must be caught.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE))

from reference_impl.rules import Rules  # noqa: E402
from reference_impl.state import State  # noqa: E402

NOT_MUTANTS = {"serve", "__init__"}


def mutant_names() -> list[str]:
    """Every mutant in this folder, by name (file name with hyphens)."""
    return sorted(p.stem.replace("_", "-") for p in HERE.glob("*.py") if p.stem not in NOT_MUTANTS)


def load(name: str):
    path = HERE / (name.replace("-", "_") + ".py")
    if not path.is_file():
        raise SystemExit(f"no mutant {name!r}; known: {', '.join(mutant_names())}")
    spec = importlib.util.spec_from_file_location(f"mutant_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def after_compile(change: Callable[[Rules], None]) -> None:
    """Run ``change(rules)`` on every rule table once it is compiled."""
    original = Rules.__init__

    def patched(self: Rules, resolved) -> None:
        original(self, resolved)
        change(self)

    Rules.__init__ = patched


def wrap_state(method: str, wrapper: Callable) -> None:
    """Replace ``State.<method>`` by ``wrapper(original, self, *args)``, in the class and in
    the phase dispatch tables that hold the method."""
    import reference_impl.state as state_module

    original = getattr(State, method)

    def patched(self: State, *args, **kwargs):
        return wrapper(original, self, *args, **kwargs)

    setattr(State, method, patched)
    for table in (state_module._LEGAL, state_module._APPLY, state_module._BEGIN):
        for key, function in table.items():
            if function is original:
                table[key] = patched


def rebuild_suit_masks(rules: Rules) -> None:
    """Recompute the follow-suit masks from ``rules.eff`` after a mutant changed it."""
    n = rules.n_cards
    rules.suit_mask = tuple(tuple(sum(1 << c for c in range(n) if rules.eff[ctx][c] == s)
                                  for s in range(len(rules.suits))) for ctx in range(rules.contexts))


def rescore(row_id: str, *awards: tuple) -> None:
    """Give scoring row ``row_id`` other awards: (target, fixed, contract, per-trick, at-least)."""
    def change(rules: Rules) -> None:
        rules.scoring_rows = tuple(row.__class__(**{**row.__dict__, "awards": awards}) if row.id == row_id else row
                                   for row in rules.scoring_rows)
    after_compile(change)


def left_bower(rules: Rules, trump: int) -> int:
    """The card that is the left bower when suit ``trump`` is trumps."""
    return next(c for c, name in enumerate(rules.card_names)
                if name[0] == "J" and name != "JK" and rules.eff[trump][c] == trump and rules.printed_suit[c] != trump)


def main() -> int:
    if len(sys.argv) != 2:
        print(f"usage: serve.py MUTANT   (one of: {', '.join(mutant_names())})", file=sys.stderr)
        return 2
    load(sys.argv[1]).apply()
    from conformance.reference_engine import main as serve
    return serve()


if __name__ == "__main__":
    sys.exit(main())
