"""A skip (baseline) file: the failures it lists are ``expected-fail``, the listed cases that now
pass ``unexpected-pass``; ``--write-baseline`` writes one from a run's results."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from reference_impl.errors import Problem, SpecError

from conformance.common.usage import write_atomically
from conformance.runner.results import FAILING, CaseResult, Failure

MAX_SKIP_BYTES = 4 * 1024 * 1024     # a skip file of every case of the corpus is about 60 KB

MAX_GLOB = 200                       # characters in one case id or glob (ids are under 80)

MAX_GLOB_BRACKETS = 8                # '[' in one glob



@dataclass
class SkipList:
    """Case-id globs from a skip (baseline) file: one per line, ``#`` starts a comment."""

    patterns: list[tuple[str, str]] = field(default_factory=list)   # (glob, reason)

    @classmethod
    def read(cls, path: str | Path) -> "SkipList":
        """The skip file at ``path``, bounded before it is read (its size, each glob's length
        and brackets: a glob of many ``[`` costs time quadratic in its length to match)."""
        try:
            size = Path(path).stat().st_size
            if size > MAX_SKIP_BYTES:
                raise SpecError(Problem(str(path), "$", f"the skip file is {size} bytes, more than {MAX_SKIP_BYTES}"))
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SpecError(Problem(str(path), "$", f"cannot read the skip file: {exc}")) from None
        patterns = []
        for number, line in enumerate(text.splitlines(), 1):
            body, _, reason = line.partition("#")
            body = body.strip()
            if not body:
                continue
            if len(body) > MAX_GLOB or body.count("[") > MAX_GLOB_BRACKETS:
                raise SpecError(Problem(str(path), f"line {number}", f"a case id or glob of {len(body)} characters and "
                                        f"{body.count('[')} '[' (at most {MAX_GLOB} and {MAX_GLOB_BRACKETS})"))
            patterns.append((body, reason.strip()))
        return cls(patterns)

    def match(self, case_id: str) -> str | None:
        """The reason a case is listed ("" when none is given), or None if it is not."""
        for glob, reason in self.patterns:
            if fnmatch.fnmatchcase(case_id, glob):
                return reason
        return None

    @staticmethod
    def write(path: str | Path, results: Iterable[CaseResult]) -> int:
        failing = sorted((r.case.id, r.outcome) for r in results if r.outcome in FAILING | {"expected-fail"})
        lines = ["# euchre-spec baseline: cases this engine is known to fail (one case id or glob per line)."]
        lines += [f"{case_id}  # {outcome}" for case_id, outcome in failing]
        write_atomically(path, "\n".join(lines) + "\n")
        return len(failing)



def apply_skip_list(result: CaseResult, skips: SkipList | None) -> CaseResult:
    if skips is None:
        return result
    reason = skips.match(result.case.id)
    if reason is None:
        return result
    if result.outcome in FAILING:
        result.detail = f"listed in the skip file{': ' + reason if reason else ''}"
        result.outcome = "expected-fail"
    elif result.outcome == "pass":
        result.outcome = "unexpected-pass"
        result.failure = Failure(where="skip file", message="listed as failing, but the case now passes: remove it from the skip file")
    return result
