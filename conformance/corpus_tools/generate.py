"""Generated cases: seeded random deals and random legal play, expectations from the reference.

The hand-written cases check the interpreter against the rules; these check an engine
against the interpreter along paths nobody would write by hand: odd bids, lone hands and
lone defences, railroading, throw-ins, whole games to the target. Every case records the
generator version and its seed, so ``euchre-spec corpus generate`` rewrites the same files.

The option combinations are first the option sets real engines play
(``generator_profiles.yaml``: the seeds' rules, stick the dealer, no lone defence,
OpenSpiel's, ...), which get most of a variant's cases, so that an engine playing one
common set of house rules runs most of the corpus; then a pairwise covering set: every
pair of values of any two options appears together in at least one combination, which
keeps the corpus small while still crossing every option with every other.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import yaml

from reference_impl import State, load_rules
from reference_impl.errors import SpecError
from reference_impl.resolve import resolve
from reference_impl.yaml_source import load_file
from reference_impl.rules import Rules
from reference_impl.options import meets, reachable, values_of
from reference_impl.selfplay import BIDDING_PHASES, PASS_BIAS, random_action
from reference_impl.steps import THROW_IN

GENERATOR = "euchre-spec-generate 9"
PROFILES = Path(__file__).parent.parent / "generator_profiles.yaml"   # package data, beside corpus/


def clashes(requires: dict[tuple[str, Any], dict[str, Any]], a: str, va: Any, b: str, vb: Any) -> bool:
    """Whether value ``va`` of option ``a`` and ``vb`` of ``b`` cannot be chosen together."""
    for (key, value), other_key, other_value in (((a, va), b, vb), ((b, vb), a, va)):
        wanted = requires.get((key, value), {}).get(other_key)
        if wanted is not None and not meets(wanted, other_value):
            return True
    return False


def pairwise_combinations(options: dict[str, list[Any]], seed: int = 0,
                          requires: dict[tuple[str, Any], dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """A small set of option combinations covering every pair of values of every two options
    that may be chosen together (greedy: each new combination covers as many uncovered pairs
    as it can; every combination meets its values' ``requires``)."""
    requires = requires or {}
    keys = sorted(options)
    # every two values that cannot be chosen together, both ways round, looked up below a million times
    clashing = {((a, va), (b, vb)) for a, b in itertools.permutations(keys, 2)
                for va in options[a] for vb in options[b] if clashes(requires, a, va, b, vb)}
    uncovered = {((a, va), (b, vb)) for a, b in itertools.combinations(keys, 2)
                 for va in options[a] for vb in options[b] if ((a, va), (b, vb)) not in clashing}
    rng = random.Random(seed)
    chosen: list[dict[str, Any]] = []
    while uncovered:
        best, best_gain = None, -1
        ordered = sorted(uncovered, key=repr)     # once per combination chosen: sorting is most of the cost
        for _ in range(60):
            (a, va), (b, vb) = rng.choice(ordered)
            candidate = {a: va, b: vb}
            for key in keys:
                if key in candidate:
                    continue
                allowed = [v for v in options[key]
                           if not any(((key, v), (other, candidate[other])) in clashing for other in candidate)]
                candidate[key] = max(allowed or options[key], key=lambda v: sum(
                    1 for other in candidate if (((key, v), (other, candidate[other])) if key < other
                                                 else ((other, candidate[other]), (key, v))) in uncovered))
            gain = sum(1 for a2, b2 in itertools.combinations(keys, 2) if ((a2, candidate[a2]), (b2, candidate[b2])) in uncovered)
            if gain > best_gain:
                best, best_gain = candidate, gain
        chosen.append(best)
        uncovered -= {((a, best[a]), (b, best[b])) for a, b in itertools.combinations(keys, 2)}
    # Every value at least once, even with no pair to cover (a table with a single option).
    for key in keys:
        for value in options[key]:
            if any(combination.get(key) == value for combination in chosen):
                continue
            candidate = {key: value}
            for other in keys:
                if other != key:
                    allowed = [v for v in options[other] if not clashes(requires, key, value, other, v)]
                    candidate[other] = (allowed or options[other])[0]
            chosen.append(candidate)
    return chosen


OBSERVED = ("phase", "to_act", "trump", "maker", "alone", "defender_alone", "sitting_out", "partner", "counters")


def _observable(state: State) -> dict[str, Any]:
    obs = state.observation()
    return {k: obs[k] for k in OBSERVED if k in obs}


def topic_clauses(rules: Rules, topic: str) -> set[str]:
    """The clauses of one topic of the table in force (options' replacements included)."""
    return {c["id"] for c in rules.table.get("clauses", []) if c["topic"] == topic}


LONE_BIAS = 0.08    # in typical play a seat goes alone, or defends alone, this often when it may
LONE_ACTIONS = frozenset({"alone", "defend-alone"})


def typical_action(rng: random.Random, state: State) -> str:
    """A random legal action as play mostly goes: bidders pass seven times in ten and
    otherwise bid; a seat offered to play or defend alone takes it one time in ten (random
    play goes alone every other hand, which reaches the lone-hand rules in most cases); a
    dealer who has taken up the upcard keeps it and buries another card (it is a trump, or
    the card he took it for: random play buries it one time in six, so a case of the
    commonest rules could not run on an engine where the upcard is never buried)."""
    legal = state.legal_actions()
    if state.upcard_taken and state.upcard >= 0:
        taken = f"discard:{state.rules.card_names[state.upcard]}"
        others = [action for action in legal if action.startswith("discard:") and action != taken]
        if taken in legal and others:
            return rng.choice(others)
    lone = [action for action in legal if action in LONE_ACTIONS]
    if lone and "pass" in legal:
        return rng.choice(lone) if rng.random() < LONE_BIAS else "pass"
    if state.phase in BIDDING_PHASES and "pass" in legal and len(legal) > 1:
        return "pass" if rng.random() < PASS_BIAS else rng.choice([action for action in legal if action != "pass"])
    return random_action(rng, state)


def generate_case(rules: Rules, options: dict[str, Any], seed: int, whole_game: bool, deck_deal: bool,
                  typical: bool = False) -> dict[str, Any]:
    """One case: random deals and random legal actions (``typical``: as play mostly goes,
    see :func:`typical_action`), every expectation from ``rules``."""
    rng = random.Random(seed)
    setup: dict[str, Any]
    if whole_game and rules.first_dealer_method == "first-black-jack":
        # Whole games choose their first dealer by the table's own method.
        cards = [rules.card_names[c] for c in rules.shuffled(rng)]
        start = rng.randrange(rules.n)
        dealer = rules.first_dealer_by_black_jack(cards, start)
        cards = cards[:next(i for i, c in enumerate(cards) if rules.card_index[c] in rules.black_jacks) + 1]
        setup = {"first_dealer": {"cards": " ".join(cards), "start": start}, "expect": {"dealer": dealer}}
    elif whole_game and rules.first_dealer_method == "cut":
        cards = [rules.card_names[c] for c in rules.shuffled(rng)]
        dealer = rules.first_dealer_by_cut(cards)
        setup = {"first_dealer": {"cards": " ".join(cards)}, "expect": {"dealer": dealer}}
    else:
        dealer = rng.randrange(rules.n)
        setup = {"dealer": dealer}
    if whole_game and rules.count_down:
        # Start within half the way down to the target, so that games stay a few hands long.
        span = max(1, (rules.start_score - rules.target) // 2)
        setup["scores"] = [rules.target + rng.randint(1, span) for _ in rules.units]
    elif whole_game and rules.target > 0:
        # Start within half the target, so that games stay a few hands long.
        setup["scores"] = [rules.target - rng.randint(1, max(1, rules.target // 2)) for _ in rules.units]
    state = State(rules, dealer, setup.get("scores"))
    clauses: set[str] = set()
    hands: list[dict[str, Any]] = []
    while not state.is_terminal():
        deal = rules.random_deal(rng, state.dealer)
        entry: dict[str, Any] = {"deal": _deal_entry(rules, deal, deck_deal, rng, state.dealer)}
        state.deal(deal)
        entry["after_deal"] = {"phase": state.phase, "to_act": state.current_player(), "dealer": state.dealer}
        steps = []
        while state.current_player() is not None:
            legal = state.legal_actions()
            # random play passes often while bidding: reaches throw-ins, stuck dealers
            action = typical_action(rng, state) if typical else random_action(rng, state)
            seat = state.to_act
            if state.phase == "play":
                clauses |= topic_clauses(rules, "play")
            elif state.step is not None and state.step.clause:
                clauses.add(state.step.clause)      # the clause of the step waiting for this decision
            tricks_before = len(state.tricks)
            state.apply(action)
            step: dict[str, Any] = {"seat": seat, "action": action, "legal": sorted(legal)}
            expect = {}
            if len(state.tricks) > tricks_before:
                expect["trick_winner"] = state.tricks[-1][2]
            if state.phase not in ("play",) or action in ("order", "alone", "defend-alone") or action.startswith("call:"):
                expect.update(_observable(state))
            if expect:
                step["expect"] = expect
            steps.append(step)
        entry["steps"] = steps
        obs = state.observation()
        entry["expect"] = {"hand_points": obs["hand_points"], "scores": obs["scores"], "next_dealer": obs["next_dealer"],
                           "game_over": obs["game_over"], "winner": obs["winner"]}
        if state.thrown_in:
            thrown = next((step for step in rules.steps if step.kind == THROW_IN), None)
            if thrown is not None and thrown.clause:
                clauses.add(thrown.clause)
        elif obs["scoring_row"]:
            clauses.add(obs["scoring_row"])
        hands.append(entry)
        if not whole_game:
            break
    if state.is_terminal():
        clauses |= topic_clauses(rules, "game")
    anchors = {c["id"] for c in rules.table.get("clauses", [])}
    # A mechanism's clause may have been replaced by an option's: cite the one in force.
    replaced = {c["replaces"]: c["id"] for c in rules.table.get("clauses", []) if "replaces" in c}
    clauses = {replaced.get(clause, clause) for clause in clauses}
    non_default = {k: v for k, v in options.items() if rules.table["options"][k]["default"] != v}
    case = {
        "id": f"gen-{rules.id}-{seed}",
        "title": f"Generated {'game' if whole_game else 'hand'}: seed {seed}" + (
            f", {', '.join(f'{k}={v}' for k, v in sorted(non_default.items()))}" if non_default else ", default options"),
        "variant": rules.id,
        "options": non_default,
        "clauses": sorted(clauses & anchors),
        "tags": ["generated"] + (["multi-hand", "game-end"] if whole_game else []) + (["deal"] if deck_deal else []),
        "generated": {"generator": GENERATOR, "seed": seed},
        "setup": setup,
        "hands": hands,
    }
    if whole_game:
        case["expect"] = {"game_over": True, "winner": state.winner, "scores": list(state.scores)}
    return case


def _deal_entry(rules: Rules, deal, deck_deal: bool, rng: random.Random, dealer: int) -> dict[str, Any]:
    if deck_deal:
        # The same cards as a pack order: positions follow the table's packets.
        order: list[str | None] = [None] * rules.n_cards
        counters = [0] * rules.n
        widow_index = 0
        for position, destination in enumerate(rules.deal_plan):
            if destination >= 0:
                seat = (dealer + 1 + destination) % rules.n
                order[position] = deal.hands[seat][counters[seat]]
                counters[seat] += 1
            elif destination == -1:
                order[position] = deal.widow[widow_index]
                widow_index += 1
            else:
                order[position] = deal.upcard
        order[len(rules.deal_plan):] = list(deal.kitty)
        return {"deck": " ".join(order)}
    entry: dict[str, Any] = {"hands": [" ".join(h) for h in deal.hands]}
    if deal.upcard is not None:
        entry["upcard"] = deal.upcard
    if deal.widow:
        entry["widow"] = " ".join(deal.widow)
    entry["kitty"] = " ".join(deal.kitty)
    return entry


MIN_CASES = 24      # a variant with few option combinations still gets this many cases


def load_profiles(path: Path = PROFILES) -> dict[str, Any]:
    """The generator's profiles file (see ``generator_profiles.yaml``), checked for shape."""
    located = load_file(path)
    data = located.data
    if not isinstance(data, dict) or not isinstance(data.get("variants"), dict):
        raise SpecError(located.problem((), "a profiles file holds counts and a variants mapping"))
    for key in ("hands", "games", "pairwise-hands", "pairwise-games"):
        if not isinstance(data.get(key), int) or isinstance(data.get(key), bool) or data[key] < 0:
            raise SpecError(located.problem((key,), f"{key} must be a whole number"))
    for variant, profiles in data["variants"].items():
        for name, profile in (profiles or {}).items():
            if not isinstance(profile, dict) or not isinstance(profile.get("options"), dict):
                raise SpecError(located.problem(("variants", variant, name), "a profile needs an options mapping"))
            try:
                resolve(variant, profile["options"])
            except SpecError as exc:
                raise SpecError(located.problem(("variants", variant, name, "options"),
                                                "; ".join(p.message for p in exc.problems))) from None
    return data


def combinations_of(variant: str, seed: int, hands_per_combination: int, games_per_combination: int,
                    profiles: dict[str, Any] | None = None) -> list[tuple[dict[str, Any], int, int]]:
    """The option combinations to generate for, each with its hands and games: the variant's
    profiles first (real engines' option sets), then the pairwise covering set."""
    table = resolve(variant).table
    declared = table.get("options", {})
    values = {key: [v for v in values_of(option) if reachable(declared, key, v)] for key, option in declared.items()}
    requires = {(key, choice["value"]): choice["requires"] for key, option in declared.items()
                for choice in option.get("choices", []) if choice.get("requires")}
    pairwise = pairwise_combinations(values, seed, requires) if values else [{}]
    mine = ((profiles or {}).get("variants") or {}).get(variant) or {}
    if not mine:
        per_combination = hands_per_combination + games_per_combination
        if len(pairwise) * per_combination < MIN_CASES:
            hands_per_combination = -(-MIN_CASES // len(pairwise)) - games_per_combination
        return [(options, hands_per_combination, games_per_combination) for options in pairwise]
    assert profiles is not None
    return ([(dict(profile["options"]), profile.get("hands", profiles["hands"]), profile.get("games", profiles["games"]))
             for profile in mine.values()]
            + [(options, profiles["pairwise-hands"], profiles["pairwise-games"]) for options in pairwise])


def generate(variant: str, out: Path, seed: int = 1, hands_per_combination: int = 6,
             games_per_combination: int = 1, profiles: dict[str, Any] | None = None) -> list[Path]:
    """Write the generated cases of ``variant`` under ``out``; returns the files written.
    ``profiles``: the generator's profiles (:func:`load_profiles`), or None for pairwise only."""
    combinations = combinations_of(variant, seed, hands_per_combination, games_per_combination, profiles)
    profiled = len(((profiles or {}).get("variants") or {}).get(variant) or {})
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob(f"gen-{variant}-*.yaml"):
        old.unlink()
    written = []
    for index, (options, hands, games) in enumerate(combinations):
        rules = load_rules(variant, options)
        for k in range(hands + games):
            case_seed = seed * 1_000_000 + index * 100 + k
            whole_game = k >= hands
            # A profile's cases play as play mostly goes, and only the first profile's deal a
            # pack order (an engine declaring no deal-deck still runs the others).
            typical = index < profiled
            case = generate_case(rules, options, case_seed, whole_game, deck_deal=(k == min(1, hands - 1) and (not typical or index == 0)),
                                 typical=typical)
            path = out / f"{case['id']}.yaml"
            path.write_text(_dump(case), encoding="utf-8")
            written.append(path)
    return written


class _Flow(dict):
    """A mapping written on one line (each step of a generated case)."""


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):    # type: ignore[misc]
    """libyaml's emitter where PyYAML was built with it (the same bytes, over twice as fast:
    the pure-Python emitter was most of `corpus generate`'s time); else PyYAML's own."""


_Dumper.add_representer(_Flow, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True))


def _dump(case: dict[str, Any]) -> str:
    header = (f"# Generated by {GENERATOR} (euchre-spec corpus generate); seed {case['generated']['seed']}.\n"
              "# Expectations come from the reference interpreter. Do not edit: regenerate.\n")
    for hand in case["hands"]:
        hand["steps"] = [_Flow(step) for step in hand["steps"]]
        hand["after_deal"], hand["expect"] = _Flow(hand["after_deal"]), _Flow(hand["expect"])
    return header + yaml.dump(case, Dumper=_Dumper, sort_keys=False, default_flow_style=None, width=200, allow_unicode=True)


