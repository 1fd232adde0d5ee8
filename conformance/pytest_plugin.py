"""A pytest plugin: run the conformance corpus inside an engine's own test suite.

    pip install euchre-spec
    pytest --euchre-engine "./my-engine --protocol"

Every case becomes one test item (``euchre-spec/<case-id>``). Under pytest-xdist each worker
process starts its own engine. A skip file (``--euchre-skip``) marks known failures as
xfail, and a listed case that passes fails the run, as with ``euchre-spec check``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .cases import Case, load_cases, load_corpus_meta
from .check import SkipList, apply_skip_list, select
from .engine_process import engine_command
from .runner import FAILING, Session

_session: Session | None = None


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("euchre-spec", "Euchre Spec conformance corpus")
    group.addoption("--euchre-engine", metavar="CMD", help="engine command line (run without a shell), or 'reference'")
    group.addoption("--euchre-variant", metavar="ID", help="only cases of this variant")
    group.addoption("--euchre-case", action="append", metavar="GLOB", help="only cases whose id matches (repeatable)")
    group.addoption("--euchre-corpus", action="append", metavar="PATH", help="case files or directories (default: the built-in corpus)")
    group.addoption("--euchre-skip", metavar="FILE", help="skip file: listed cases are expected to fail")
    group.addoption("--euchre-timeout", type=float, default=10.0, metavar="S", help="seconds to wait for each reply")


class EuchreCaseFailure(Exception):
    """The engine did not conform on one case."""


class EuchreCaseItem(pytest.Item):
    """One corpus case run against the engine under test."""

    def __init__(self, *, case: Case | None, problem: str | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.problem = problem
        if case is not None:
            for tag in case.tags:
                self.add_marker(pytest.mark.euchre_tag(tag))

    def runtest(self) -> None:
        if self.problem is not None:
            raise EuchreCaseFailure(f"unreadable case file: {self.problem}")
        config = self.config
        result = apply_skip_list(_engine_session(config).run(self.case), _skip_list(config))
        if result.outcome == "pass":
            return
        if result.outcome in ("skipped", "unsupported"):
            pytest.skip(f"{result.outcome}: {result.detail or ''}")
        if result.outcome == "expected-fail":
            pytest.xfail(result.detail or "listed in the skip file")
        text = result.failure.describe() if result.failure else (result.detail or result.outcome)
        if result.stderr:
            text += "\n    engine stderr (last lines):\n      " + "\n      ".join(result.stderr.strip().splitlines()[-5:])
        assert result.outcome in FAILING
        raise EuchreCaseFailure(f"{result.outcome}: {text}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        if isinstance(excinfo.value, EuchreCaseFailure):
            return f"{self.name}: {excinfo.value}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        if self.case is None:
            return self.name, None, self.name
        return Path(self.case.file), (self.case.line or 1) - 1, f"euchre-spec case {self.case.id}: {self.case.title}"


def _engine_session(config: pytest.Config) -> Session:
    global _session
    if _session is None:
        argv = engine_command(config.getoption("euchre_engine"))
        _session = Session(argv, timeout=config.getoption("euchre_timeout"))
    return _session


def _skip_list(config: pytest.Config) -> SkipList | None:
    path = config.getoption("euchre_skip")
    return SkipList.read(path) if path else None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "euchre_tag(name): a conformance case's feature tag")


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("euchre_engine"):
        return
    corpus = config.getoption("euchre_corpus")
    cases, problems = load_cases([Path(p) for p in corpus] if corpus else None, load_corpus_meta().tags)
    chosen = select(cases, config.getoption("euchre_variant"), config.getoption("euchre_case"))
    for case in chosen:
        items.append(EuchreCaseItem.from_parent(session, name=f"euchre-spec/{case.id}", case=case))
    for problem in problems:
        items.append(EuchreCaseItem.from_parent(session, name=f"euchre-spec/unreadable/{Path(problem.file).name}",
                                                case=None, problem=str(problem)))


def pytest_unconfigure(config: pytest.Config) -> None:
    global _session
    if _session is not None:
        _session.close()
        _session = None
