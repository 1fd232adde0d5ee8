"""What the fuzzers attack, and what must hold for every input.

Four targets, each with seed inputs, a mutation and a check that raises
:class:`InvariantBroken` (or any other exception, which is a finding too):

- ``tables``: variant tables, through ``validate`` (schema, semantics, every option):
  a list of problems, each naming the file and, where the YAML parses, a line;
- ``cases``: case files, through the corpus loader: a case or located problems;
  for both, the quick paths (the quick YAML loader, the Rust validator) never disagree
  with the careful ones (:func:`check_fast_paths`);
- ``protocol``: request lines to the reference engine: one schema-valid reply per line,
  never the category ``internal`` (a bug of the engine);
- ``replies``: the runner against an engine whose replies are damaged: every case ends
  with an outcome, a report line that can be written, and well-formed JUnit.
"""

from __future__ import annotations

import io
import json
import random
import re
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import yaml

from conformance import CORPUS_DIR
from conformance.cases import load_case_file, load_cases, load_corpus_meta
from conformance.runner.engine_process import InProcessEngine
from conformance.reference_engine import ReferenceEngine, serve
from conformance.reports.junit import write_junit
from conformance.runner.results import OUTCOMES
from conformance.runner.session import Session
from reference_impl.catalog import load_schema, variants_dir
from reference_impl.errors import Problem, SpecError
from reference_impl import schemas, yaml_source
from reference_impl.schemas import validator
from reference_impl.validate import variant_problems

from mutate import mutate_bytes, mutate_data, mutate_yaml

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "robustness"


class InvariantBroken(AssertionError):
    """An input for which the target did something it must never do."""


@dataclass
class Target:
    name: str
    suffix: str
    seeds: Callable[[], list[bytes]]
    mutate: Callable[[random.Random, bytes, list[bytes]], bytes]
    check: Callable[[bytes, Path], None]


# -- tables and cases -------------------------------------------------------------------------------

def _parses(text: str) -> bool:
    try:
        yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return False
    return True


def _check_problems(problems: list[Problem], path: Path, text: str) -> None:
    parsed = _parses(text)
    for problem in problems:
        if not isinstance(problem, Problem) or problem.file != str(path):
            raise InvariantBroken(f"a problem that does not name the file: {problem!r}")
        if not isinstance(problem.message, str) or not problem.message.strip():
            raise InvariantBroken(f"a problem without a message: {problem!r}")
        if parsed and not (isinstance(problem.line, int) and 1 <= problem.line <= text.count("\n") + 2):
            raise InvariantBroken(f"a problem of a file that parses, without its line: {problem}")
        str(problem).encode("utf-8", "surrogatepass")


def check_fast_paths(text: str, schema_name: str) -> None:
    """The quick YAML loader and the Rust validator are shortcuts for files that are plain
    and valid: where the quick loader gives data, the careful loader must give the same
    data, root line and float flag; where the Rust validator says "valid", the Python
    validator (the authority) must find no error."""
    quick = yaml_source._parse_quickly(text, "f.yaml")
    if quick is None:
        return
    try:
        careful = yaml_source._parse_carefully(text, "f.yaml")
    except SpecError as exc:
        raise InvariantBroken(f"the quick loader read a text the careful one refuses: {exc}") from None
    if (quick.data, quick.root_line) != (careful.data, careful.root_line):
        raise InvariantBroken(f"quick and careful loads differ: {quick.data!r:.300} / {careful.data!r:.300}")
    if quick.has_float != schemas._has_float(quick.data):
        raise InvariantBroken(f"the quick loader's float flag is {quick.has_float} for {quick.data!r:.300}")
    if quick.surely_json and json.loads(json.dumps(quick.data)) != quick.data:
        raise InvariantBroken(f"the quick loader takes for JSON what JSON does not keep: {quick.data!r:.300}")
    partial = schema_name == "variant.schema.json" and isinstance(quick.data, dict) and "extends" in quick.data
    if schemas._surely_valid(schema_name, quick.data, partial, quick.has_float):
        errors = [e.message for e in validator(schema_name, partial).iter_errors(quick.data)]
        if errors:
            raise InvariantBroken(f"Rust found valid what Python refuses: {errors[:3]}")


def _yaml_mutation(rng: random.Random, data: bytes, seeds: list[bytes]) -> bytes:
    siblings = []
    for seed in rng.sample(seeds, min(2, len(seeds))):
        try:
            siblings.append(yaml.safe_load(seed))
        except yaml.YAMLError:
            pass
    return mutate_yaml(rng, data.decode("utf-8", "surrogatepass"), siblings).encode("utf-8", "surrogatepass")


def table_seeds() -> list[bytes]:
    return [p.read_bytes() for p in sorted(variants_dir().glob("*.yaml"))]


def check_table(data: bytes, workdir: Path) -> None:
    text = data.decode("utf-8", "surrogatepass")
    found = re.search(r"^id:\s*([a-z0-9-]{1,40})\s*$", text, re.M)
    folder = Path(tempfile.mkdtemp(dir=workdir))      # alone: a parent is looked up beside a table
    path = folder / f"{found.group(1) if found else 'fuzzed'}.yaml"
    path.write_bytes(data)
    check_fast_paths(text, "variant.schema.json")
    problems = variant_problems(path)
    if not isinstance(problems, list):
        raise InvariantBroken(f"validate returned {type(problems).__name__}")
    _check_problems(problems, path, text)


def case_seeds() -> list[bytes]:
    files = sorted(p for p in CORPUS_DIR.rglob("*.yaml") if "generated" not in p.parts and p.name != "corpus.yaml")
    return [p.read_bytes() for p in files] + [p.read_bytes() for p in sorted(FIXTURES.glob("*.yaml"))]


_TAGS = load_corpus_meta().tags


def check_case(data: bytes, workdir: Path) -> None:
    path = workdir / "case.yaml"
    path.write_bytes(data)
    check_fast_paths(data.decode("utf-8", "surrogatepass"), "case.schema.json")
    cases, problems = load_case_file(path, _TAGS)
    if bool(cases) == bool(problems) and not (cases and not problems):
        raise InvariantBroken(f"both cases and problems, or neither: {len(cases)} / {problems}")
    _check_problems(problems, path, data.decode("utf-8", "surrogatepass"))


# -- the reference engine's requests -----------------------------------------------------------------

def _session_lines(case) -> list[dict]:
    """The requests a runner sends to play ``case``, with a few reads and a perft."""
    table = case.table
    lines: list[dict] = [{"type": "hello", "protocol": 1},
                         {"type": "rules", "variant": case.variant, "options": table.selected,
                          "sha256": table.sha256, "table": table.table}]
    setup = case.setup
    lines.append({"type": "new_game", "dealer": setup["dealer"]} if "dealer" in setup else
                 {"type": "new_game", "first_dealer": setup["first_dealer"]})
    for hand in case.hands:
        lines.append({"type": "deal", **hand["deal"]})
        for step in hand["steps"]:
            lines.append({"type": "act", "seat": step["seat"], "action": step["action"]})
            if len(lines) % 7 == 0:
                lines.append({"type": "state"})
                lines.append({"type": "legal"})
                lines.append({"type": "perft", "depth": 2})
    lines.append({"type": "bye"})
    return [{"id": number, **line} for number, line in enumerate(lines, 1)]


def protocol_seeds() -> list[bytes]:
    cases = load_cases([FIXTURES], _TAGS)[0]
    return ["\n".join(json.dumps(line, ensure_ascii=False) for line in _session_lines(c)).encode("utf-8") + b"\n"
            for c in cases]


MAX_FUZZ_PERFT = 3        # perft is exponential by design: a mutant asking depth 30 would only be slow


def mutate_protocol(rng: random.Random, data: bytes, seeds: list[bytes]) -> bytes:
    lines = data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n")
    for _ in range(rng.randint(1, 3)):
        if not lines:
            lines = [b"{}"]
        roll = rng.random()
        i = rng.randrange(len(lines))
        if roll < 0.5:
            try:
                message = json.loads(lines[i])
            except (ValueError, UnicodeDecodeError, RecursionError):
                continue
            changed = mutate_data(rng, message)
            if isinstance(changed, dict) and changed.get("type") == "perft" and isinstance(changed.get("depth"), int):
                changed["depth"] = min(changed["depth"], MAX_FUZZ_PERFT)
            try:
                lines[i] = json.dumps(changed, ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass")
            except (TypeError, ValueError):
                continue
        elif roll < 0.7:
            lines[i] = mutate_bytes(rng, lines[i]).replace(b"\n", b" ")
        elif roll < 0.8:
            del lines[i]
        elif roll < 0.9:
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines) + b"\n"


_REPLY_SCHEMAS = {"hello": "hello-reply", "rules": "ok-reply", "new_game": "state-reply", "deal": "state-reply",
                  "act": "state-reply", "state": "state-reply", "legal": "legal-reply", "bye": "ok-reply",
                  "perft": "perft-reply"}
_CATEGORIES = set(load_schema("protocol/common.schema.json")["$defs"]["category"]["enum"])


def check_protocol(data: bytes, workdir: Path) -> None:
    lines = data.split(b"\n")[:-1]
    out = io.BytesIO()
    serve(io.BytesIO(data), out)
    replies = out.getvalue().split(b"\n")[:-1]
    if not 1 <= len(replies) <= len(lines) and lines:
        raise InvariantBroken(f"{len(replies)} replies to {len(lines)} lines")
    for line, raw in zip(lines, replies):
        reply = json.loads(raw.decode("utf-8"))
        try:
            message = json.loads(line)
        except (ValueError, UnicodeDecodeError, RecursionError):
            message = None
        if reply.get("ok") is True:
            schema = _REPLY_SCHEMAS.get(message.get("type")) if isinstance(message, dict) else None
            if schema is None:
                raise InvariantBroken(f"a success reply to {line[:80]!r}")
            errors = [e.message for e in validator(f"protocol/{schema}.schema.json").iter_errors(reply)]
        else:
            errors = [e.message for e in validator("protocol/error-reply.schema.json").iter_errors(reply)]
            category = reply.get("error", {}).get("category")
            if category == "internal":
                raise InvariantBroken(f"the reference engine failed (internal) on {line[:200]!r}: {reply['error']['message']}")
            if category not in _CATEGORIES:
                raise InvariantBroken(f"unknown category {category!r}")
        if errors:
            raise InvariantBroken(f"an invalid reply {raw[:200]!r} to {line[:120]!r}: {errors[0]}")
    if len(replies) < len(lines):
        last = json.loads(lines[len(replies) - 1])
        if not (isinstance(last, dict) and last.get("type") == "bye"):
            raise InvariantBroken("the engine stopped answering before the end of its input")


# -- the runner against damaged replies ----------------------------------------------------------------

def reply_seeds() -> list[bytes]:
    """A plan: which case to run, and which reply lines to damage and how."""
    plans = []
    for case in ("robust-full-hand", "robust-short-bid", "robust-out-of-turn", "robust-short-bid-stick"):
        plans.append(json.dumps({"case": case, "damage": {}}).encode())
    return plans


def mutate_replies(rng: random.Random, data: bytes, seeds: list[bytes]) -> bytes:
    plan = json.loads(data)
    for _ in range(rng.randint(1, 3)):
        request = str(rng.randint(1, 30))
        plan["damage"][request] = {"kind": rng.choice(["json", "bytes"]), "seed": rng.randrange(2**31)}
    return json.dumps(plan, sort_keys=True).encode()


_FIXTURE_CASES: dict[str, Any] = {}


def check_replies(data: bytes, workdir: Path) -> None:
    plan = json.loads(data)
    if not _FIXTURE_CASES:
        _FIXTURE_CASES.update({c.id: c for c in load_cases([FIXTURES], _TAGS)[0]})
    case = _FIXTURE_CASES[plan["case"]]
    damage = {int(k): v for k, v in plan["damage"].items()}

    def transform(number: int, line: bytes) -> bytes:
        spec = damage.get(number)
        if spec is None:
            return line
        if spec["kind"] == "raw":                 # a regression input: exactly these bytes
            return bytes.fromhex(spec["hex"])
        rng = random.Random(spec["seed"])
        if spec["kind"] == "bytes":
            return mutate_bytes(rng, line)
        try:
            changed = mutate_data(rng, json.loads(line))
            return json.dumps(changed, ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass")
        except (TypeError, ValueError):
            return line

    session = Session([], timeout=5.0)
    session.engine = InProcessEngine(timeout=5.0, transform=transform)
    result = session.run(case)
    if result.outcome not in OUTCOMES:
        raise InvariantBroken(f"unknown outcome {result.outcome!r}")
    line = json.dumps(result.to_json(), ensure_ascii=False).encode("utf-8")
    if len(line) > 200_000:
        raise InvariantBroken(f"a report line of {len(line)} bytes")
    junit = workdir / "junit.xml"
    write_junit(junit, [result], "fuzzed engine")
    ET.parse(junit)


TARGETS = {
    "tables": Target("tables", ".yaml", table_seeds, _yaml_mutation, check_table),
    "cases": Target("cases", ".yaml", case_seeds, _yaml_mutation, check_case),
    "protocol": Target("protocol", ".jsonl", protocol_seeds, mutate_protocol, check_protocol),
    "replies": Target("replies", ".json", reply_seeds, mutate_replies, check_replies),
}
