"""``check --generate N``: cases generated for exactly the rules an engine declares.

The corpus holds a few hundred cases a variant, spread over the option sets engines commonly
play; an engine playing a rarer set runs few of them. So besides the corpus, ``check
--generate N`` makes N cases for the engine's own declaration: for each, every option takes
a value the engine's ``hello`` declares (a random one, seeded by ``--seed``: the same seed and
declaration give the same cases), then a hand or a whole game of random legal play is
recorded with every expectation from the reference interpreter, as ``corpus generate`` does.
They run like corpus cases; each that fails is written out as a case file, to be run again
with ``check --corpus`` and kept as a regression case.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Mapping

from reference_impl import load_rules
from reference_impl.catalog import variant_ids
from reference_impl.errors import SpecError
from reference_impl.options import choice_for, meets, reachable, values_of
from reference_impl.resolve import resolve

from conformance.cases import Case, load_case_file
from conformance.corpus_tools.generate import _dump, generate_case
from conformance.runner.declared import declares_value

DEFAULT_OUT = "euchre-spec-generated"
TRIES = 20                 # random selections tried before falling back to the defaults
GAME_EVERY = 4             # one generated case in four is a whole game


def declared_variants(hello: Mapping[str, Any], only: str | None = None) -> list[str]:
    """The variants to generate for: those the hello declares (an engine of every table,
    ``"*"``: the one asked for with ``--variant``, else standard Euchre)."""
    variants = hello.get("variants")
    known = set(variant_ids())
    if variants == "*":
        return [only or "euchre"]
    names = sorted(v for v in (variants or {}) if v in known)
    return [v for v in names if only is None or v == only]


def declared_values(option: Mapping[str, Any], declared: Any, default: Any) -> list[Any]:
    """The values of an option that a declaration covers (an option not declared: its
    default; ``"*"``: its named values and its range's examples)."""
    if declared is None:
        return [default]
    if declared == "*":
        return list(values_of(option))
    values = [v for v in values_of(option) if declares_value(declared, v)]
    span = option.get("range")
    for item in declared if isinstance(declared, list) else [declared]:
        if isinstance(item, dict) and span is not None:
            low = max(item.get("minimum", span["minimum"]), span["minimum"])
            high = min(item.get("maximum", span["maximum"]), span["maximum"])
            values += [v for v in (low, high) if low <= high and v not in values]
    return values or [default]


def random_selection(rng: random.Random, variant: str, declared: Any) -> dict[str, Any]:
    """Random values the engine declares for every option of ``variant``, chosen together
    (each value's ``requires`` met); the defaults where no such pick is found."""
    options = resolve(variant).table.get("options", {})
    per_option = {}
    for key, option in options.items():
        said = "*" if declared == "*" else declared.get(key)
        values = declared_values(option, said, option.get("default"))
        per_option[key] = [v for v in values if reachable(options, key, v)] or [option.get("default")]
    for _ in range(TRIES):
        picked = {key: rng.choice(values) for key, values in per_option.items()}
        if all(meets(need, picked[other]) for key, value in picked.items()
               for other, need in (choice_for(key, options[key], value).patch.get("requires") or {}).items()
               if other in picked):
            try:
                resolve(variant, {k: v for k, v in picked.items() if v != options[k].get("default")})
            except SpecError:
                continue
            return picked
    return {key: option.get("default") for key, option in options.items()}


def generated_cases(hello: Mapping[str, Any], count: int, seed: int, out: Path,
                    only: str | None = None) -> list[tuple[Case, str]]:
    """``count`` cases for the engine's declared rules, each with the text of its file
    (written to ``out`` only if it fails: see :func:`write_failed`)."""
    variants = declared_variants(hello, only)
    if not variants:
        return []
    commands = hello.get("commands") or []
    made: list[tuple[Case, str]] = []
    for index in range(count):
        variant = variants[index % len(variants)]
        declared = hello.get("variants")
        declared = "*" if declared == "*" else ((declared.get(variant) or {}).get("options") or {})
        rng = random.Random(f"{seed}:{variant}:{index}")
        options = random_selection(rng, variant, declared)
        rules = load_rules(variant, options)
        case_seed = rng.randrange(1 << 30)
        data = generate_case(rules, options, case_seed, whole_game=index % GAME_EVERY == GAME_EVERY - 1,
                             deck_deal="deal-deck" in commands and index % 5 == 1, typical=index % 2 == 0)
        data["id"] = f"check-gen-{variant}-{seed}-{index}"
        data["title"] = data["title"].replace("Generated", "Generated for the engine's declaration", 1)
        text = _dump(data)
        path = out / f"{data['id']}.yaml"
        cases, problems = load_case_file(path, text=text)
        if problems or not cases:
            raise SpecError(problems[0] if problems else None)   # a generator bug: say it loudly
        made.append((cases[0], text))
    return made


def write_failed(made: list[tuple[Case, str]], failed_ids: set[str], out: Path) -> list[Path]:
    """Write the generated cases that failed into ``out``; returns their paths."""
    written = []
    for case, text in made:
        if case.id in failed_ids:
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"{case.id}.yaml"
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written
