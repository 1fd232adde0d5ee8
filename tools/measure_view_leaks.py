"""Measure what the reference's seat views leak and hide, over random games of every table.

At every state of random games (after each deal and each action), each seat's view
(``State.observation(seat)``) is scanned for card tokens, wherever they appear (hands,
``legal``, tricks, history fields, any string). A token is *known* to the seat when the game
told it the card: dealt to it, taken, given or laid away by it, the upcard, a card played
to a trick, the called card, or a card of a hand the table's visibility shows it (an open
misère after the lead). The knowledge is rebuilt here from the game's event log, not from the
view code, so the two can disagree:

- a *leaking* view names a card the seat cannot know;
- a *hiding* view leaves out a hand the table shows the seat (``hands[s]`` null);
- a *forgetting* view leaves out a card the seat itself laid away (``discards``).

Run::

    python tools/measure_view_leaks.py --games 10000          # every table, default options
    python tools/measure_view_leaks.py --games 200 euchre five-hundred --option five-hundred:misere=misere-and-open

It prints one row per table and the totals; the exit status is 1 when any view leaked.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.seat_views import card_tokens                        # noqa: E402
from reference_impl import load_rules, new_game                     # noqa: E402
from reference_impl.catalog import variant_ids                        # noqa: E402
from reference_impl.selfplay import MAX_HANDS, random_action         # noqa: E402
from reference_impl.visibility import visibility_of                   # noqa: E402

HANDS_PER_GAME = 60          # a random game of a table that rarely ends is cut here (as the property tests do)


@dataclass
class Tally:
    games: int = 0
    views: int = 0
    other_views: int = 0
    leaking: int = 0
    hiding: int = 0
    forgetting: int = 0
    example: str = ""


def knowledge(state: Any) -> tuple[list[set[str]], list[set[str]]]:
    """Per seat, the cards the game has told it this hand, and the cards it laid away."""
    rules = state.rules
    names = rules.card_names
    n = rules.n
    events = state.events
    start = len(events) - 1
    while start >= 0 and events[start][0] != "deal":      # the hand's deal: scanned back, not from the game's start
        start -= 1
    known: list[set[str]] = [set() for _ in range(n)]
    laid: list[set[str]] = [set() for _ in range(n)]
    public: set[str] = set()
    if start < 0:
        return known, laid
    _, _, _, hand_masks, upcard, _ = events[start]
    for seat in range(n):
        known[seat].update(rules.cards_of(hand_masks[seat]))
    if upcard >= 0:
        public.add(names[upcard])
    for event in events[start + 1:]:
        kind = event[0]
        if kind == "action":
            seat, token = event[1], event[2]
            head, _, card = token.partition(":")
            if head == "play":
                public.add(card)
            elif head in ("discard", "give"):
                known[seat].add(card)
                if head == "discard":
                    laid[seat].add(card)
        elif kind == "take":
            known[event[1]].update(event[3])
        elif kind in ("swap", "exchange"):
            known[event[1]].update(event[3])
        elif kind == "call":
            if event[3] is not None:
                public.add(event[3])
    for seat in range(n):
        known[seat] |= public
    return known, laid


def shown_hands(state: Any, seat: int) -> list[int]:
    """The other seats whose hands the table's visibility shows ``seat`` now."""
    vis = visibility_of(state.rules)
    return [owner for owner in range(state.rules.n) if owner != seat and vis.sees(state, "hands", owner, seat)]


def check_views(state: Any, tally: Tally, names: frozenset[str]) -> None:
    known, laid = knowledge(state)
    full_hands = state.observation().get("hands") or []
    for seat in range(state.rules.n):
        view = state.observation(seat)
        tally.views += 1
        if seat != state.current_player():
            tally.other_views += 1
        allowed = set(known[seat])
        shown = shown_hands(state, seat)
        for owner in shown:
            allowed.update(full_hands[owner])
        extra = sorted(set(card_tokens(view, names)) - allowed)
        if extra:
            tally.leaking += 1
            if not tally.example:
                tally.example = f"hand {state.hand_number} phase {state.phase}: seat {seat} sees {' '.join(extra[:6])}"
        hands = view.get("hands") or []
        if any(owner < len(hands) and hands[owner] is None for owner in shown):
            tally.hiding += 1
        own = (view.get("discards") or [None] * (seat + 1))[seat] if "discards" in view else None
        if laid[seat] and (own is None or set(own) != laid[seat]):
            tally.forgetting += 1


def measure(variant: str, options: dict[str, Any], games: int, seed: int, uniform: bool = False) -> Tally:
    rules = load_rules(variant, options)
    names = frozenset(rules.card_names)
    tally = Tally()
    for game in range(games):
        rng = random.Random(f"{seed}:{variant}:{game}")
        state = new_game(rules, rng=rng)
        while not state.is_terminal() and state.hand_number <= min(HANDS_PER_GAME, MAX_HANDS):
            if state.is_chance_node():
                if state.hand_number >= HANDS_PER_GAME:
                    break
                state.deal_random(rng)
            else:
                state.apply(rng.choice(state.legal_actions()) if uniform else random_action(rng, state))
            check_views(state, tally, names)
        tally.games += 1
    return tally


def parse_options(texts: list[str]) -> dict[str, dict[str, Any]]:
    chosen: dict[str, dict[str, Any]] = {}
    for text in texts:
        variant, _, setting = text.partition(":")
        key, _, value = setting.partition("=")
        parsed: Any = int(value) if value.lstrip("-").isdigit() else {"true": True, "false": False}.get(value, value)
        chosen.setdefault(variant, {})[key] = parsed
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", help="table ids (default: every table)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--uniform", action="store_true",
                        help="choose every action uniformly (self-play's bidders pass often and bid low, so they never "
                             "reach a high bid such as open misère)")
    parser.add_argument("--option", action="append", default=[], metavar="VARIANT:KEY=VALUE",
                        help="an option for one table (repeatable)")
    args = parser.parse_args(argv)
    chosen = parse_options(args.option)
    variants = args.variants or variant_ids()
    total = Tally()
    print(f"{'table':28} {'games':>6} {'views':>9} {'other-seat':>10} {'leaking':>9} {'hiding':>7} {'forgetting':>10} {'s':>6}")
    for variant in variants:
        began = time.perf_counter()
        tally = measure(variant, chosen.get(variant, {}), args.games, args.seed, args.uniform)
        label = variant + ("" if variant not in chosen else " " + ",".join(f"{k}={v}" for k, v in chosen[variant].items()))
        share = f" ({100 * tally.leaking / tally.other_views:.0f}% of other-seat views leak)" if tally.other_views else ""
        print(f"{label:28} {tally.games:>6} {tally.views:>9} {tally.other_views:>10} {tally.leaking:>9} {tally.hiding:>7} "
              f"{tally.forgetting:>10} {time.perf_counter() - began:>6.0f}{share}")
        if tally.example:
            print(f"    e.g. {tally.example}")
        for field in ("games", "views", "other_views", "leaking", "hiding", "forgetting"):
            setattr(total, field, getattr(total, field) + getattr(tally, field))
    print(f"{'total':28} {total.games:>6} {total.views:>9} {total.other_views:>10} {total.leaking:>9} {total.hiding:>7} {total.forgetting:>10}")
    return 1 if total.leaking or total.hiding or total.forgetting else 0


if __name__ == "__main__":
    sys.exit(main())
