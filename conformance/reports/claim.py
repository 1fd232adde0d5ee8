"""How much of the selection a run really ran, and what the engine would declare to run the rest.

An engine's ``hello`` claims what it supports; the runner marks every case outside that
claim ``unsupported`` and never sends it. A run of 212 cases that ran 18 of them is not a
pass of 212: so each report says, per variant, "ran 18 of 212 euchre cases (8%); declare
game-target, stick-the-dealer, … to run 194 more", from the declarations each unsupported
case lacked (:func:`conformance.runner.declared.unsupported_needs`). ``--require`` and
``--fail-under PCT`` turn an incomplete claim into a failed run.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

NOT_RUN = ("unsupported", "skipped")       # skipped: not started (--max-fail, a run given up)
SHOWN_DECLARATIONS = 5


@dataclass
class VariantClaim:
    """One variant's share of a run."""

    variant: str
    cases: int = 0
    ran: int = 0
    unsupported: int = 0
    declare: Counter = field(default_factory=Counter)   # declaration -> unsupported cases that lack it

    @property
    def percent(self) -> int:
        """Whole percent run, rounded down (99% until every case ran)."""
        return 100 if self.ran == self.cases else self.ran * 100 // max(1, self.cases)

    def sentence(self) -> str:
        text = f"ran {self.ran} of {self.cases} {self.variant} case{'s' if self.cases != 1 else ''} ({self.percent}%)"
        if self.unsupported:
            names = [name for name, _ in sorted(self.declare.items(), key=lambda kv: (-kv[1], kv[0]))]
            shown = ", ".join(names[:SHOWN_DECLARATIONS]) + (", …" if len(names) > SHOWN_DECLARATIONS else "")
            text += f"; declare {shown} to run {self.unsupported} more" if names else \
                f"; {self.unsupported} unsupported"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"cases": self.cases, "ran": self.ran, "percent": self.percent, "unsupported": self.unsupported,
                "declare": dict(sorted(self.declare.items(), key=lambda kv: (-kv[1], kv[0])))}


def claims(rows: Iterable[tuple[str, str, list[str] | None]]) -> list[VariantClaim]:
    """Per variant, from (variant, outcome, needs) of each case."""
    found: dict[str, VariantClaim] = {}
    for variant, outcome, needs in rows:
        claim = found.setdefault(variant, VariantClaim(variant))
        claim.cases += 1
        if outcome not in NOT_RUN:
            claim.ran += 1
        if outcome == "unsupported":
            claim.unsupported += 1
            claim.declare.update(needs or [])
    return [found[v] for v in sorted(found)]


def claims_of_results(results: Iterable[Any]) -> list[VariantClaim]:
    """The claims of a run's :class:`~conformance.runner.results.CaseResult` list (an unreadable
    case file, which has no rule table, is left out)."""
    return claims((r.case.variant, r.outcome, r.needs) for r in results if r.case.table is not None)


def totals(found: list[VariantClaim]) -> tuple[int, int]:
    """Cases run and cases selected, over every variant."""
    return sum(c.ran for c in found), sum(c.cases for c in found)


def shortfall(found: list[VariantClaim], require: bool, fail_under: float | None) -> str | None:
    """Why the claim is not enough for ``--require`` or ``--fail-under``, or None."""
    ran, cases = totals(found)
    if not cases:
        return None
    if require and ran < cases:
        missing = [c for c in found if c.ran < c.cases]
        return (f"--require: {cases - ran} of {cases} selected case(s) were not run ("
                + "; ".join(c.sentence() for c in missing) + ")")
    if fail_under is not None and ran * 100 < fail_under * cases:
        return f"--fail-under {fail_under:g}: {ran} of {cases} selected case(s) run ({ran * 100 / cases:.1f}%)"
    return None


def to_json(found: list[VariantClaim]) -> dict[str, Any]:
    ran, cases = totals(found)
    return {"ran": ran, "cases": cases, "percent": 100 if ran == cases else ran * 100 // max(1, cases),
            "variants": {c.variant: c.to_json() for c in found}}
