"""Helpers for writing rule tests as short scripts.

A test states a deal (hands as space-separated card tokens), then the actions in the order
the seats take them, and asserts what the rules say must follow.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from reference_impl import Deal, State, load_rules
from reference_impl.rules import Rules


def shared_cache_env() -> dict[str, str]:
    """Environment for a subprocess with a HOME of its own that should still use this test
    run's cache: the cache is keyed by content, so sharing it changes no answer, and a fresh
    one makes every such process parse and validate the whole corpus again."""
    from reference_impl import cache
    root = cache.cache_root()
    return {"EUCHRE_SPEC_CACHE": str(root)} if root is not None else {"EUCHRE_SPEC_CACHE": "off"}


def rules_for(options: dict | None = None, variant: str = "euchre") -> Rules:
    return load_rules(variant, options or {})


def make_deal(hands: Sequence[str], upcard: str | None = None, kitty: str = "", widow: str = "") -> Deal:
    return Deal(tuple(tuple(h.split()) for h in hands), upcard, tuple(widow.split()), tuple(kitty.split()))


def start(hands: Sequence[str], upcard: str | None, *, dealer: int = 0, options: dict | None = None,
          scores: Sequence[int] | None = None, kitty: str = "", variant: str = "euchre") -> State:
    """A game whose current hand is the given deal."""
    state = State(rules_for(options, variant), dealer, scores)
    state.deal(make_deal(hands, upcard, kitty))
    return state


def act(state: State, script: str | Iterable[str]) -> None:
    """Apply each action in turn (whoever is to act takes it)."""
    tokens = script.split() if isinstance(script, str) else list(script)
    for token in tokens:
        state.apply(token)


def play_tricks(state: State, *tricks: str) -> list[int]:
    """Play whole tricks given as cards in play order; return each trick's winner."""
    winners = []
    for trick in tricks:
        before = len(state.tricks)
        act(state, ["play:" + card for card in trick.split()])
        assert len(state.tricks) == before + 1, f"trick {trick!r} did not complete"
        winners.append(state.tricks[-1][2])
    return winners


def legal_cards(state: State) -> set[str]:
    """The cards the seat to act may play, without the ``play:`` prefix."""
    return {token[5:] for token in state.legal_actions() if token.startswith("play:")}


# A deal used by many tests (dealer 0, eldest seat 1, upcard the nine of hearts).
D1 = ("9C TC QS KS AS", "JH JD AH 9S TS", "9D TD QD KD AD", "JC QC KC AC JS")
D1_UP, D1_KITTY = "9H", "TH QH KH"
# Seat 1 holds the five highest hearts.
D2 = ("9C TC QS KS AS", "JH JD AH KH QH", "9D TD QD KD AD", "JC QC KC AC JS")
D2_UP, D2_KITTY = "9H", "TH 9S TS"


def option_strategy(variant: str):
    """A Hypothesis strategy of option selections of ``variant`` that meet every value's
    ``requires`` (each value from the option's choices and its range's examples)."""
    from hypothesis import strategies as st

    from reference_impl.options import meets, values_of
    from reference_impl.resolve import resolve

    options = resolve(variant).table.get("options", {})
    requires = {(key, choice["value"]): choice["requires"] for key, option in options.items()
                for choice in option.get("choices", []) if choice.get("requires")}

    def valid(selection: dict) -> bool:
        return all(meets(wanted, selection[other]) for (key, value), needs in requires.items()
                   if selection.get(key) == value for other, wanted in needs.items())
    return st.fixed_dictionaries({key: st.sampled_from(values_of(option))
                                  for key, option in options.items()}).filter(valid)
