"""Check variant tables completely: the file, the default resolution, and every option value.

A table can be valid with its defaults and broken under one option (a ``sets`` path that
does not exist, a clause that replaces nothing), so each option value is resolved once on
its own, on top of the defaults (with the values its ``requires`` asks of other options);
a range option is tried at its ends and at its examples.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .errors import Problem, SpecError
from .options import choice_for, meets, satisfying, values_of
from .resolve import declared_options, problems_beyond_the_schema, resolve_file


OPTION_VALUE = re.compile(r"option ([a-z0-9-]+)=[^ ):,;]+")    # "option lone-march-points=4"
TRAILING_LABEL = re.compile(r" \(option [a-z0-9-]+\)$")        # the option whose change failed, as labelled
INNER_PATH = re.compile(r"\(at \$[^ ,]*, ")                     # "(at $.hand[7].clause, inherited from ..."


def option_trials(table: dict[str, Any]) -> list[dict[str, Any]]:
    """One selection per value of every option other than its default."""
    trials = []
    declared = table.get("options", {})
    for key, option in declared.items():
        values = values_of(option)
        if "range" in option:
            values += [v for v in (option["range"]["minimum"], option["range"]["maximum"]) if v not in values]
        for value in values:
            if value == option["default"]:
                continue
            selection = {key: value}
            possible = True
            for other, wanted in (choice_for(key, option, value).patch.get("requires") or {}).items():
                if other in declared and not meets(wanted, declared[other]["default"]):
                    if not any(meets(wanted, v) for v in values_of(declared[other])):
                        possible = False      # this table restricts `other` so that the value can never be chosen
                        break
                    selection[other] = satisfying(declared[other], wanted)
            if possible:
                trials.append(selection)
    return trials


def _unlabelled(problem: Problem) -> tuple[str, str, int | None, str]:
    """A problem as found with the defaults: a trial's copy of it differs only by the
    ``(with options ...)`` that names the trial's values, or by the value of the one option
    behind it (a range option that cannot apply fails the same way at each value tried), or
    by the index an option's inserted step shifts in its path."""
    message = OPTION_VALUE.sub(r"option \1", problem.message.split(" (with options ")[0])
    message = TRAILING_LABEL.sub("", INNER_PATH.sub("(at ", message))
    # at a known line the path is left out: an option inserting a step moves the index after it
    return problem.file, problem.path if problem.line is None else "", problem.line, message


def variant_problems(path: str | Path) -> list[Problem]:
    """Every problem in the variant table at ``path`` (empty when it is sound).

    Each option value is tried even when the table fails with its defaults: a child whose
    inherited options no longer fit learns of every one of them in one run, not one option
    (or one kind of problem) per run."""
    problems: list[Problem] = []
    try:
        table = resolve_file(path).table
        failed = False
    except SpecError as exc:
        failed = True
        problems = list(exc.problems)
        seen = {(p.file, p.path) for p in problems}
        # The file's schema stopped the resolution: the semantic checks still read what they can.
        problems += [p for p in problems_beyond_the_schema(path) if (p.file, p.path) not in seen]
        declared = declared_options(path)
        if declared is None:
            return sorted(problems, key=lambda p: (p.file, p.line or 0))
        table = declared
    found = {_unlabelled(p) for p in problems}
    for selection in option_trials(table):
        try:
            resolve_file(path, selection)
        except SpecError as exc:
            for problem in exc.problems:
                if _unlabelled(problem) not in found:
                    found.add(_unlabelled(problem))
                    problems.append(problem)
    return sorted(problems, key=lambda p: (p.file, p.line or 0)) if failed else problems
