"""How many cases an engine runs, by what its ``hello`` declares: worked out offline, with
the runner's own case selection (``conformance.runner.declared.unsupported_needs`` and the adapted
replay of ``conformance.runner.adapt.adapted``), without starting any engine.

    python tools/requirements_coverage.py                      # the built-in corpus
    python tools/requirements_coverage.py --corpus OLD_CORPUS  # e.g. a corpus from before requires:

Declarations: a standard-Euchre engine with one common set of house rules each, and what
each adapter in ``tools/adapters`` declares (read from its source: ``DECLARED_OPTIONS`` and
its variant, or the ``variants`` of its ``hello``). A corpus whose cases state no
``requires:`` is selected as before they existed: a case needs every option of its table. A
case run with some of its legal sets re-derived under the engine's options (its
``legal_sets_rederived:``), or with steps its table lacks dropped (``steps_dropped:``), is
counted as run, and the count of those is given beside.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.cases import load_cases  # noqa: E402
from conformance.runner.adapt import DROPPED_NOTE, adapted, rederived_note  # noqa: E402
from conformance.runner.declared import unsupported_needs  # noqa: E402

STANDARD = {
    "standard Euchre, the seeds' rules (defaults only)": {"euchre": {}},
    "standard Euchre, stick the dealer": {"euchre": {"options": {"stick-the-dealer": [True]}}},
    "standard Euchre, no lone defence": {"euchre": {"options": {"defending-alone": [False]}}},
    "standard Euchre, no going alone": {"euchre": {"options": {"going-alone": [False]}}},
    "standard Euchre, eldest leads against a loner": {"euchre": {"options": {"lone-lead": ["eldest"]}}},
    "standard Euchre, game to 11": {"euchre": {"options": {"game-target": [11]}}},
    "standard Euchre, the upcard never buried": {"euchre": {"options": {"dealer-discard": ["not-upcard"]}}},
    "standard Euchre, stick the dealer and no lone defence": {
        "euchre": {"options": {"stick-the-dealer": [True], "defending-alone": [False]}}},
}


def _literal_assignments(tree: ast.Module) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                try:
                    found[target.id] = ast.literal_eval(node.value)
                except ValueError:
                    pass
            elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                for name, value in zip(target.elts, node.value.elts):
                    if isinstance(name, ast.Name) and isinstance(value, ast.Constant):
                        found.setdefault(name.id, value.value)
                    elif isinstance(name, ast.Name) and isinstance(value, ast.Name) and value.id in found:
                        found.setdefault(name.id, found[value.id])
    return found


def _hello_variants(tree: ast.Module) -> tuple[dict[str, Any] | None, list[str]]:
    """The ``variants`` and ``commands`` of a literal hello reply in the source, if any."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            if "variants" in keys and "commands" in keys:
                values = dict(zip(keys, node.values))
                try:
                    return ast.literal_eval(values["variants"]), ast.literal_eval(values["commands"])
                except ValueError:
                    continue
    return None, []


def adapter_declarations(folder: Path = ROOT / "tools" / "adapters") -> dict[str, dict[str, Any]]:
    """Each adapter's hello (variants, commands and what it declines), read from its source:
    an adapter of ``protocol_adapter.OneVariantAdapter`` declines ``first-dealer`` with its
    ``NO_FIRST_DEALER``."""
    found = {}
    for path in sorted(folder.glob("*_engine.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        variants, commands = _hello_variants(tree)
        names = _literal_assignments(tree)
        if variants is None:
            if "DECLARED_OPTIONS" not in names or "VARIANT" not in names:
                continue
            variants = {names["VARIANT"]: {"options": names["DECLARED_OPTIONS"]}}
        hello: dict[str, Any] = {"variants": variants, "commands": commands}
        if "NO_FIRST_DEALER" in names:
            hello["declines"] = {"first-dealer": names["NO_FIRST_DEALER"]}
        found[f"adapter {path.stem}"] = hello
    return found


def runs(hello: dict[str, Any], case: Any) -> str | None:
    """How the case runs on an engine declaring ``hello``: ``as-is``, ``rederived`` (some of its
    legal sets re-derived by the reference under the engine's options), ``dropped`` (steps the
    engine's table lacks dropped), or None (it does not)."""
    if unsupported_needs(hello, case):
        return None
    played, why = adapted(hello, case)
    if why is not None:
        return None
    note = rederived_note(played) or ""
    return "dropped" if note.startswith(DROPPED_NOTE) else "rederived" if note else "as-is"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="a corpus folder (default: the built-in corpus)")
    args = parser.parse_args()
    cases, problems = load_cases([args.corpus] if args.corpus else None)
    if problems:
        print(f"{len(problems)} unreadable case(s); first: {problems[0]}", file=sys.stderr)
    hellos: dict[str, dict[str, Any]] = {name: {"variants": variants, "commands": []} for name, variants in STANDARD.items()}
    hellos.update(adapter_declarations())
    for name, hello in hellos.items():
        parts = []
        for variant in sorted(hello["variants"]):
            mine = [case for case in cases if case.variant == variant]
            how = [runs(hello, case) for case in mine]
            ran, rederived, dropped = sum(h is not None for h in how), how.count("rederived"), how.count("dropped")
            parts.append(f"{ran} of {len(mine)} {variant} cases ({ran * 100 // max(1, len(mine))}%)"
                         + (f", {rederived} of them with legal sets re-derived" if rederived else "")
                         + (f", {dropped} with steps dropped" if dropped else ""))
        print(f"{name}: " + "; ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
