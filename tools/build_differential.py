#!/usr/bin/env python3
"""The compiled build and the pure-Python source, side by side: same events, same verdicts,
same cited clauses. A difference exits 1.

The build users install compiles the interpreter's hot modules with mypyc (setup.py), which
checks declared types where pure Python does not: a list where a tuple is declared, a None
where an int is, raise ``TypeError`` in the compiled build only. A test suite run on the
editable (pure) install cannot see that, so this tool runs the same work in both builds and
compares what each says:

- ``corpus``: every case of the corpus replayed through the reference engine's request
  handler (every reply, refusals included, hashed per case: the events);
- ``mutants``: each mutant engine (pure Python in both builds: a mutant patches the
  interpreter's source) on the corpus until its first failure, as ``euchre-spec mutants``
  runs it: the case, outcome, field and the clause the runner's trace cites (the trace runs
  in the build under test), and any internal error;
- ``cited``: every failure of a few planted bugs on the standard Euchre cases, with its
  cited clause (the tracer at every kind of failure point);
- ``games``: seeded random games of every variant under random option selections (every
  legal list, action, event and final observation, hashed per table);
- ``conditions``: every atom of the condition language, each optional bound left out in
  turn, evaluated for every seat and side at every decision of random games.

Usage, from the venv of the installed wheel, in a folder outside the checkout::

    python /path/to/checkout/tools/build_differential.py [--games N] [--root CHECKOUT] [--records DIR]

The installed side runs in this interpreter as it is; the source side runs in a child with
``PYTHONPATH`` set to the checkout (so ``reference_impl`` is imported from its ``.py``
files). Each side prints its records as JSON Lines (``--side``); the first differences are
printed and the exit status is 1 if there is any (2 if a side fails to run).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent

# Every atom of the condition language with its optional parts left out in turn (an
# absent bound is where the compiled build met None for an int). tests/test_build_
# differential.py checks that every atom of the schema's registry is here.
CONDITION_ATOMS: list[dict[str, Any]] = [
    {"round": "round-1"}, {"round": "round-2"}, {"upcard": "benny"}, {"upcard": {"suits": ["H", "D"]}},
    {"upcard": {"ranks": ["J"]}}, {"upcard": {"cards": ["JH"]}}, {"trump": "none"}, {"trump": "H"},
    {"trump": ["C", "NT"]}, {"maker": "dealer"}, {"maker": "not-dealer"}, {"maker": "dealer-partner"},
    {"maker": "eldest"}, {"maker": "none"}, {"alone": True}, {"alone": False}, {"defender-alone": True},
    {"partner": "called"}, {"partner": "none"}, {"contract": "none"}, {"contract": "any"}, {"bid": ["x"]},
    {"made": True}, {"made": False}, {"maker-tricks": 3}, {"maker-tricks": [3, 5]}, {"defender-tricks": [0, 2]},
    {"trick-sequence": "M.D"}, {"hand-number": 1}, {"hand-number": [2, 4]},
    {"self": "dealer"}, {"self": "maker"}, {"self": "not-maker"}, {"self": "dealer-partner"}, {"self": "eldest"},
    {"self": "maker-side"}, {"self": "defenders"}, {"self-tricks": [1, 3]}, {"self-in-hand": True},
    {"holds": {"of": {"ranks": ["J"]}}}, {"holds": {"of": {"ranks": ["A"]}, "at-least": 1}},
    {"holds": {"of": {"suits": ["H"]}, "at-most": 2}}, {"holds": {"of": {"suits": ["S"]}, "only": True}},
    {"holds": {"of": {"trumps": True}}}, {"holds": {"of": {"trumps": True, "ranks": ["K"]}, "at-least": 1}},
    {"holds": {"of": {"trumps": True}, "at-most": 1}},
    {"stood": "self"}, {"stood": "other"}, {"stood": "nobody"}, {"reneged": True},
    {"renege-claimed": "makers"}, {"renege-claimed": "defenders"}, {"renege-claimed": "both"},
    {"renege-claimed": "none"}, {"conceded": "makers"}, {"conceded": "defenders"}, {"conceded": "none"},
    {"forced-contract": True}, {"forced-contract": False},
    {"score": {"at-most": 7}}, {"score": {"at-least": 5}}, {"score": {"at-least": 2, "at-most": 9}}, {"score": {}},
    {"any": [{"alone": True}, {"score": {"at-most": 3}}]}, {"all": [{"made": True}, {"hand-number": [1, 9]}]},
    {"not": {"trump": "none"}},
]
CONDITION_VARIANT = "euchre"
PLANTED = ("left-bower-not-trump-when-following", "march-scored-one", "loners-partner-still-plays",
           "leader-keeps-the-lead", "sitting-out-seat-may-act")


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr).encode()).hexdigest()[:16]


# -- the records of one side ------------------------------------------------------------------------
def corpus_records() -> Iterator[tuple[str, str, Any]]:
    from conformance.cases import load_cases, load_corpus_meta
    from conformance.reference_engine import ReferenceEngine

    cases, _ = load_cases(tags=load_corpus_meta().tags)
    for case in cases:
        engine, replies, ident = ReferenceEngine(), [], 0

        def send(kind: str, **fields: Any) -> dict[str, Any]:
            nonlocal ident
            ident += 1
            reply = engine.handle({"id": ident, "type": kind, **fields})
            replies.append(reply)
            return reply

        table = case.table
        send("rules", variant=case.variant, options=table.selected, sha256=table.sha256, table=table.table)
        setup = case.setup
        game = {"dealer": setup["dealer"]} if "dealer" in setup else {"first_dealer": setup["first_dealer"]}
        send("new_game", **game, **({"scores": setup["scores"]} if "scores" in setup else {}))
        for hand in case.hands:
            send("deal", **hand["deal"])
            for step in hand["steps"]:
                send("act", seat=step["seat"], action=step["action"])
                if "view" in step:
                    send("state", seat=step["view"]["seat"])
            for count in hand.get("perft") or []:
                send("perft", depth=count["depth"], divide="divide" in count)
        send("state")
        yield "corpus", case.id, _digest(replies)


def mutant_records(names: list[str] | None) -> Iterator[tuple[str, str, Any]]:
    from conformance.cases import load_cases, load_corpus_meta
    from conformance.corpus_tools.mutation import mutants, run_mutant, run_order

    cases, _ = load_cases(tags=load_corpus_meta().tags)
    order = run_order(cases)
    catalogue = mutants()
    for name in names if names is not None else list(catalogue):
        yield "mutants", name, run_mutant(name, catalogue[name], cases, order=order).record()


def cited_records() -> Iterator[tuple[str, str, Any]]:
    from conformance.cases import load_cases, load_corpus_meta
    from conformance.runner.run import run_cases
    from conformance.corpus_tools.mutation import mutant_command

    cases, _ = load_cases(tags=load_corpus_meta().tags)
    euchre = [c for c in cases if c.variant == "euchre" and "perft" not in c.tags]
    for name in PLANTED:
        for result in run_cases(euchre, mutant_command(name), jobs=1):
            failure = result.failure
            if result.outcome != "pass":
                yield "cited", f"{name} {result.case.id}", [
                    result.outcome, failure.field if failure else None,
                    (failure.clause or {}).get("id") if failure else None, failure.internal_error if failure else None]


def _option_selections(variant: str, count: int, rng: random.Random) -> list[dict[str, Any]]:
    """The defaults, then ``count - 1`` random selections that meet every value's ``requires``."""
    from reference_impl.options import meets, values_of
    from reference_impl.resolve import resolve

    options = resolve(variant).table.get("options", {})
    requires = {(key, choice["value"]): choice["requires"] for key, option in options.items()
                for choice in option.get("choices", []) if choice.get("requires")}
    found: list[dict[str, Any]] = [{}]
    for _ in range(count * 20):
        if len(found) >= count or not options:
            break
        selection = {key: rng.choice(values_of(option)) for key, option in options.items() if values_of(option)}
        if all(meets(wanted, selection.get(other)) for (key, value), needs in requires.items()
               if selection.get(key) == value for other, wanted in needs.items()):
            found.append(selection)
    return found


def game_records(games: int, tables: int) -> Iterator[tuple[str, str, Any]]:
    from reference_impl import load_rules, new_game
    from reference_impl.catalog import variant_ids
    from reference_impl.errors import SpecError
    from reference_impl.selfplay import random_action

    for variant in variant_ids():
        rng = random.Random(variant)
        for selection in _option_selections(variant, tables, rng):
            try:
                rules = load_rules(variant, selection)
            except SpecError as exc:               # a combination the table refuses: refused alike
                yield "games", f"{variant} {json.dumps(selection, sort_keys=True)}", f"refused: {exc}"
                continue
            h = hashlib.sha256()
            for seed in range(games):
                game_rng = random.Random(seed)
                state = new_game(rules, rng=game_rng)
                while not state.is_terminal() and state.hand_number <= 40:
                    if state.is_chance_node():
                        if state.hand_number >= 40:
                            break
                        state.deal_random(game_rng)
                        continue
                    legal = state.legal_actions()
                    action = random_action(game_rng, state)
                    h.update(json.dumps([legal, action], separators=(",", ":")).encode())
                    state.apply(action)
                h.update(json.dumps([state.observation(), [list(map(repr, e)) for e in state.events]],
                                    sort_keys=True, separators=(",", ":")).encode())
            yield "games", f"{variant} {json.dumps(selection, sort_keys=True)}", h.hexdigest()[:16]


def condition_records(games: int) -> Iterator[tuple[str, str, Any]]:
    from reference_impl import load_rules, new_game
    from reference_impl.conditions import compile_condition
    from reference_impl.selfplay import random_action

    rules = load_rules(CONDITION_VARIANT)
    for atom in CONDITION_ATOMS:
        try:
            predicate = compile_condition(rules, atom)
        except Exception as exc:                   # noqa: BLE001 - compared, not raised: both builds must agree
            yield "conditions", json.dumps(atom, sort_keys=True), f"{type(exc).__name__}: {exc}"
            continue
        seen: list[Any] = []
        for seed in range(games):
            rng = random.Random(seed)
            state = new_game(rules, rng=rng)
            while not state.is_terminal() and state.hand_number <= 6:
                if state.is_chance_node():
                    if state.hand_number >= 6:
                        break
                    state.deal_random(rng)
                    continue
                try:
                    seen.append([predicate(state, seat, -1) for seat in range(rules.n)]
                                + [predicate(state, -1, unit) for unit in range(len(rules.units))])
                except Exception as exc:           # noqa: BLE001 - the compiled build's TypeError, compared
                    seen.append(f"{type(exc).__name__}: {exc}")
                state.apply(random_action(rng, state))
        yield "conditions", json.dumps(atom, sort_keys=True), _digest(seen)


def side(args: argparse.Namespace) -> int:
    import reference_impl.state as state_module

    build = "compiled" if not str(state_module.__file__).endswith(".py") else "pure"
    parts = set(args.parts.split(","))
    out = sys.stdout
    out.write(json.dumps(["build", "", build]) + "\n")
    records: list[Iterator[tuple[str, str, Any]]] = []
    if "corpus" in parts:
        records.append(corpus_records())
    if "games" in parts:
        records.append(game_records(args.games, args.tables))
    if "conditions" in parts:
        records.append(condition_records(max(1, args.games // 10)))
    if "cited" in parts:
        records.append(cited_records())
    if "mutants" in parts:
        records.append(mutant_records(args.mutant or None))
    for stream in records:
        for part, key, value in stream:
            out.write(json.dumps([part, key, value], sort_keys=True) + "\n")
            out.flush()
    return 0


def compare(installed: list[list[Any]], source: list[list[Any]], limit: int = 20) -> list[str]:
    """The differences between the two sides' records, as lines to print."""
    mine = {(part, key): value for part, key, value in installed if part != "build"}
    theirs = {(part, key): value for part, key, value in source if part != "build"}
    differences = []
    for key in sorted(set(mine) | set(theirs), key=str):
        if mine.get(key, "<missing>") != theirs.get(key, "<missing>"):
            differences.append(f"{key[0]} {key[1]}: installed {mine.get(key, '<missing>')!r}, "
                               f"source {theirs.get(key, '<missing>')!r}")
    return differences


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose source is the pure side")
    parser.add_argument("--games", type=int, default=20, help="random games per table (default 20)")
    parser.add_argument("--tables", type=int, default=4, help="option selections per variant, the defaults first")
    parser.add_argument("--parts", default="corpus,games,conditions,cited,mutants")
    parser.add_argument("--mutant", action="append", help="only these mutants (repeatable; default all)")
    parser.add_argument("--side", action="store_true", help="print this build's records (internal)")
    parser.add_argument("--records", type=Path, help="keep each side's records in this folder "
                        "(installed.jsonl, source.jsonl: tools/mutant_gate.py judges their mutants)")
    parser.add_argument("--require-compiled", action="store_true",
                        help="fail unless this interpreter imports the compiled build")
    args = parser.parse_args(argv)
    if args.side:
        return side(args)
    # what a side makes (the checks of the whole, --records and --require-compiled, stay here)
    forwarded = ["--games", str(args.games), "--tables", str(args.tables), "--parts", args.parts,
                 *(arg for name in args.mutant or [] for arg in ("--mutant", name))]
    command = [sys.executable, str(Path(__file__).resolve()), "--side", *forwarded]
    with tempfile.TemporaryDirectory() as scratch:
        work = args.records.resolve() if args.records else Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        outputs = {}
        processes = {}
        for name, extra in (("installed", {}), ("source", {"PYTHONPATH": str(args.root.resolve())})):
            env = {**os.environ, **extra}
            if name == "installed":
                env.pop("PYTHONPATH", None)
            outputs[name] = work / f"{name}.jsonl"
            processes[name] = subprocess.Popen(command, cwd=work, env=env, stdout=open(outputs[name], "w"))
        failed = [name for name, process in processes.items() if process.wait() != 0]
        if failed:
            print(f"build differential: the {' and the '.join(failed)} side failed to run", file=sys.stderr)
            return 2
        records = {name: [json.loads(line) for line in path.read_text().splitlines()] for name, path in outputs.items()}
    builds = {name: lines[0][2] for name, lines in records.items()}
    counts = {}
    for part, _, _ in records["installed"][1:]:
        counts[part] = counts.get(part, 0) + 1
    print(f"build differential: installed build {builds['installed']}, source {builds['source']}; "
          + ", ".join(f"{n} {p}" for p, n in counts.items()))
    if builds["source"] != "pure":
        print("build differential: the source side did not import the pure-Python interpreter", file=sys.stderr)
        return 2
    if args.require_compiled and builds["installed"] != "compiled":
        print("build differential: the installed side is not the compiled build", file=sys.stderr)
        return 2
    differences = compare(records["installed"], records["source"])
    for line in differences[:20]:
        print("  " + line)
    if differences:
        print(f"build differential: {len(differences)} difference(s) between the installed build and the source",
              file=sys.stderr)
        return 1
    print("build differential: no difference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
