"""Perft: the number of distinct legal action sequences of a given length.

Counting exactly what a move generator allows exposes any difference in legal actions, as
perft does for chess engines. The definition (docs/protocol.md, "perft"): a state where
no one is to act (the hand is over, a deal is awaited, the game has ended) ends every
sequence through it and counts once; deals are never part of a sequence.
"""

from __future__ import annotations

from .state import State


def perft(state: State, depth: int) -> int:
    """Sequences of ``depth`` actions from ``state`` (shorter where the hand ends first)."""
    if depth == 0 or state.to_act < 0:
        return 1
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = state.clone(keep_events=False)
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def divide(state: State, depth: int) -> dict[str, int]:
    """The perft count under each first action (for bisecting a disagreement)."""
    counts = {}
    for action in state.legal_actions():
        child = state.clone(keep_events=False)
        child.apply(action)
        counts[action] = perft(child, depth - 1)
    return counts
