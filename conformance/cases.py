"""Reading the corpus: case files, checked against the case schema and against the rules.

A broken case is never silently dropped: it becomes a :class:`Problem` naming the file,
the line and the JSON path, and the runner reports it as an ``error`` line of its own.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from reference_impl import cache
from reference_impl.checks import deck_cards
from reference_impl.errors import Problem, SpecError
from reference_impl.resolve import ResolvedTable, resolve
from reference_impl.rules import Deal
from reference_impl.schemas import case_schema_problems
from reference_impl.yaml_source import CACHE_KIND, Located, load_file, load_text, size_problem

from . import CORPUS_DIR
from conformance.common.forked_map import forked_map, usable_cores

CASE_SCHEMA = "case.schema.json"
CORPUS_FILE = "corpus.yaml"


@dataclass
class Case:
    """One conformance case, normalised: card strings split into lists."""

    id: str
    title: str
    variant: str
    options: dict[str, Any]
    clauses: list[str]
    tags: list[str]
    setup: dict[str, Any]
    hands: list[dict[str, Any]]
    expect: dict[str, Any]
    file: str
    line: int | None
    data: dict[str, Any] = field(repr=False)
    table: ResolvedTable | None = field(default=None, repr=False)

    @property
    def steps(self) -> int:
        return sum(len(hand["steps"]) for hand in self.hands)

    @classmethod
    def unreadable(cls, problem: Problem) -> "Case":
        """A stand-in for a case that could not be read, so the report can still show it."""
        name = Path(problem.file).stem or "case"
        return cls(id=f"unreadable:{name}", title=str(problem), variant="(unknown)", options={}, clauses=[],
                   tags=[], setup={}, hands=[], expect={}, file=problem.file, line=problem.line, data={})


@dataclass(frozen=True)
class Corpus:
    """The vocabulary and version of a corpus directory."""

    version: str
    tags: dict[str, str]


def load_corpus_meta(root: Path = CORPUS_DIR) -> Corpus:
    located = load_file(root / CORPUS_FILE)
    data = located.data or {}
    if not isinstance(data.get("version"), str) or not isinstance(data.get("tags"), dict):
        raise SpecError(located.problem((), "corpus.yaml needs a version string and a tags mapping"))
    return Corpus(data["version"], {str(k): str(v) for k, v in data["tags"].items()})


def case_files(paths: Iterable[Path] | None = None) -> list[Path]:
    """Case files under the given paths (default: the whole corpus), sorted."""
    files: list[Path] = []
    for path in paths or [CORPUS_DIR]:
        path = Path(path)
        if path.is_dir():
            files += [p for p in path.rglob("*.yaml") if p.name != CORPUS_FILE]
        else:
            files.append(path)
    return sorted(set(files))


def split_cards(value: Any) -> Any:
    return value.split() if isinstance(value, str) else value


def _normalise_deal(deal: dict[str, Any]) -> dict[str, Any]:
    out = dict(deal)
    if "hands" in out:
        out["hands"] = [split_cards(h) for h in out["hands"]]
    for key in ("widow", "kitty", "deck"):
        if key in out:
            out[key] = split_cards(out[key])
    return out


def _normalise_expect(expect: dict[str, Any] | None) -> dict[str, Any]:
    expect = dict(expect or {})
    for key in ("hands", "discards", "passed", "received"):       # per seat: cards, or null where hidden
        if key in expect:
            expect[key] = [split_cards(h) if h is not None else None for h in expect[key]]
    return expect


def _normalise_setup(setup: dict[str, Any]) -> dict[str, Any]:
    out = dict(setup)
    if "first_dealer" in out:
        out["first_dealer"] = {**out["first_dealer"], "cards": split_cards(out["first_dealer"]["cards"])}
    out["expect"] = _normalise_expect(out.get("expect"))
    return out


@lru_cache(maxsize=512)
def _resolved(variant: str, options_json: str) -> ResolvedTable:
    """The resolved table of a case, by its options as sorted JSON (many cases share one)."""
    return resolve(variant, json.loads(options_json))


def resolved_table(variant: str, options: dict[str, Any]) -> ResolvedTable:
    """The resolved table of a case (cached: many cases share one)."""
    return _resolved(variant, json.dumps(options, sort_keys=True))


@lru_cache(maxsize=512)
def _anchors_and_pack(variant: str, options_json: str) -> tuple[frozenset[str], frozenset[str]]:
    """A resolved table's clause ids and cards, worked out once per table, not per case."""
    table = _resolved(variant, options_json).table
    return frozenset(c["id"] for c in table.get("clauses", [])), frozenset(deck_cards(table["deck"]))


def _case_problems(case: Case, located: Located, path: tuple, tags: dict[str, str] | None) -> list[Problem]:
    problems = []
    options_json = json.dumps(case.options, sort_keys=True)
    try:
        case.table = _resolved(case.variant, options_json)
    except SpecError as exc:
        message = "; ".join(p.message for p in exc.problems)
        return [located.problem(path + ("variant",), f"cannot resolve {case.variant} with these options: {message}")]
    anchors, pack = _anchors_and_pack(case.variant, options_json)
    for i, clause in enumerate(case.clauses):
        if clause not in anchors:
            problems.append(located.problem(path + ("clauses", i), f"no clause {clause!r} in {case.variant} with these options"))
    for h, hand in enumerate(case.hands):
        for s, step in enumerate(hand["steps"]):
            if "clause" in step and step["clause"] not in anchors:
                problems.append(located.problem(path + ("hands", h, "steps", s, "clause"), f"no clause {step['clause']!r} in {case.variant}"))
    if tags is not None:
        for i, tag in enumerate(case.tags):
            if tag not in tags:
                problems.append(located.problem(path + ("tags", i), f"unknown tag {tag!r} (see {CORPUS_FILE})"))
    given = [(("setup", "first_dealer", "cards"), (case.setup.get("first_dealer") or {}).get("cards") or [])]
    for h, hand in enumerate(case.hands):
        deal = hand["deal"]
        given += [(("hands", h, "deal", "hands", s), cards) for s, cards in enumerate(deal.get("hands", []))]
        given += [(("hands", h, "deal", key), deal[key] if key != "upcard" else [deal[key]])
                  for key in ("upcard", "widow", "kitty", "deck") if deal.get(key) is not None]
    dealt: dict[tuple, set[str]] = {}     # the cards of each deal, to find one dealt twice
    for where, cards in given:
        unknown = [c for c in cards if c not in pack]
        if unknown:
            problems.append(located.problem(path + where, f"not cards of the {case.variant} pack: {', '.join(unknown)}"))
        if where[0] != "hands":
            continue                          # first-dealer cards are no deal
        seen = dealt.setdefault(where[:3], set())
        twice = sorted({c for c in cards if c in seen} | {c for c in cards if cards.count(c) > 1})
        if twice:
            problems.append(located.problem(path + where, f"cards dealt twice: {', '.join(twice)}"))
        seen.update(cards)
    n = case.table.table["players"]["count"]
    units = len(case.table.table["players"].get("teams", [])) or n
    scores = case.setup.get("scores")
    if scores is not None and len(scores) != units:
        problems.append(located.problem(path + ("setup", "scores"), f"{len(scores)} scores for {units} sides"))
    setup_seats = {("setup", "dealer"): case.setup.get("dealer"),
                   ("setup", "first_dealer", "start"): (case.setup.get("first_dealer") or {}).get("start")}
    for where, seat in setup_seats.items():
        if seat is not None and seat >= n:
            problems.append(located.problem(path + where, f"no seat {seat} among {n} players"))
    for h, hand in enumerate(case.hands):
        if "hands" in hand["deal"] and len(hand["deal"]["hands"]) != n:
            problems.append(located.problem(path + ("hands", h, "deal", "hands"), f"{len(hand['deal']['hands'])} hands for {n} players"))
        for s, step in enumerate(hand["steps"]):
            if step["seat"] >= n:
                problems.append(located.problem(path + ("hands", h, "steps", s, "seat"), f"no seat {step['seat']} among {n} players"))
    return problems


def load_case_file(path: Path, tags: dict[str, str] | None = None,
                   text: str | None = None) -> tuple[list[Case], list[Problem]]:
    """The cases in one file and the problems found in it (``text``: the file's, already read)."""
    try:
        located = load_text(text, str(path)) if text is not None else load_file(path)
    except SpecError as exc:
        return [], exc.problems
    if not isinstance(located.data, dict):
        return [], [located.problem((), "a case file holds a case mapping or a `cases:` list")]
    problems = case_schema_problems(located)
    if problems:
        return [], problems
    if "cases" in located.data:
        entries = [(("cases", i), data) for i, data in enumerate(located.data["cases"])]
    else:
        entries = [((), located.data)]
    cases = []
    for where, data in entries:
        case = Case(
            id=data["id"], title=data["title"], variant=data["variant"], options=dict(data.get("options", {})),
            clauses=list(data["clauses"]), tags=list(data["tags"]),
            setup=_normalise_setup(data["setup"]),
            hands=[{**hand, "deal": _normalise_deal(hand["deal"]),
                    "after_deal": _normalise_expect(hand.get("after_deal")),
                    "expect": _normalise_expect(hand.get("expect")),
                    "steps": [{**step, "expect": _normalise_expect(step.get("expect")),
                               **({"view": {**step["view"], "expect": _normalise_expect(step["view"]["expect"])}}
                                  if "view" in step else {})} for step in hand["steps"]]}
                   for hand in data["hands"]],
            expect=_normalise_expect(data.get("expect")), file=str(path), line=located.line_of(where), data=data)
        case_problems = _case_problems(case, located, where, tags)
        if case_problems:
            problems += case_problems
        else:
            cases.append(case)
    return cases, problems


PREWARM_AT_LEAST = 64     # files not yet cached that make a parallel first pass worth its start


def _load_job(job: tuple[Path, dict[str, str] | None, str]) -> tuple[list[Case], list[Problem]]:
    path, tags, text = job
    return load_case_file(path, tags, text)


def load_cold_in_parallel(texts: dict[Path, str], tags: dict[str, str] | None = None) -> dict[Path, tuple[list[Case], list[Problem]]]:
    """Of the files read (``texts``), those the on-disk cache does not know yet, parsed and
    validated on every core (each child also fills the cache for the next run), by path. A
    first run (a fresh install, a changed corpus) would otherwise spend most of its time here
    on one core. Empty where that is not worth it (few such files, one core, no ``fork``, no
    cache); a file a child did not deliver is left out, and the caller loads it itself."""
    cores = min(usable_cores(), 8)
    if cache.cache_root() is None or cores < 2 or len(texts) < PREWARM_AT_LEAST:
        return {}
    cold = [path for path, text in texts.items()
            if not cache.has(CACHE_KIND, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())]
    if len(cold) < PREWARM_AT_LEAST:
        return {}
    loaded = forked_map(_load_job, [(path, tags, texts[path]) for path in cold],
                        [len(texts[path]) for path in cold], cores)
    return {cold[index]: result for index, result in loaded.items()}


@contextlib.contextmanager
def collector_paused():
    """Loading a corpus allocates millions of small objects and frees few of them, which
    makes the cyclic garbage collector run thousands of times for nothing: a third of a
    cold load and of a warm one. It is paused while loading (loading makes no garbage
    cycles to speak of), and what was loaded is then frozen out of later collections,
    which would otherwise walk the whole corpus again while the cases are checked."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        gc.freeze()


def load_cases(paths: Iterable[Path] | None = None, tags: dict[str, str] | None = None) -> tuple[list[Case], list[Problem]]:
    """Every case under ``paths`` (default: the corpus) and every problem, ids checked unique."""
    cases: list[Case] = []
    problems: list[Problem] = []
    files = case_files(paths)
    texts: dict[Path, str] = {}
    for path in files:
        if size_problem(path) is not None:
            continue                   # load_case_file reports it, unread
        try:
            texts[path] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            pass                       # load_case_file reports it
    with collector_paused():
        loaded = load_cold_in_parallel(texts, tags)
        for path in files:
            found, trouble = loaded[path] if path in loaded else load_case_file(path, tags, texts.get(path))
            cases += found
            problems += trouble
    seen: dict[str, Case] = {}
    unique = []
    for case in cases:
        if case.id in seen:
            problems.append(Problem(case.file, "$.id", f"duplicate case id {case.id!r} (also in {seen[case.id].file})", case.line))
        else:
            seen[case.id] = case
            unique.append(case)
    return sorted(unique, key=lambda c: c.id), problems


def case_deal(deal: dict[str, Any]) -> Deal:
    """A case's deal (its hands, upcard, widow and kitty as YAML lists) as the interpreter's
    :class:`Deal`, whose fields are tuples: the compiled interpreter (mypyc) checks the
    declared types and refuses a list where a tuple is declared."""
    return Deal(tuple(tuple(hand) for hand in deal["hands"]), deal.get("upcard"), tuple(deal.get("widow", ())),
                tuple(deal.get("kitty", ())))
