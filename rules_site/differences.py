"""How a variant differs from the base game, axis by axis: the comparison page's cells
(:data:`rules_site.compare.AXES`, read from the tables) where this variant's differs."""

from __future__ import annotations

from .tables import VariantView


def differences(view: VariantView, base: VariantView) -> list[tuple[str, str, str, str]]:
    """(axis title, the variant page's section, this variant's cell, the base game's cell) for
    every axis where the two tables say different things (HTML cells)."""
    from .compare import AXES, _cell
    out = []
    for axis in AXES:
        mine, theirs = _cell(axis, view), _cell(axis, base)
        if mine != theirs:
            out.append((axis.title, axis.section, mine, theirs))
    return out
