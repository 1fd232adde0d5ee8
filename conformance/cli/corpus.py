"""``euchre-spec corpus generate | lint | stats | export | stamp``: the corpus's own tools."""

from __future__ import annotations

import argparse
import shutil
from collections import Counter
from pathlib import Path

from rich.table import Table

from reference_impl.catalog import variant_ids

from conformance import CORPUS_DIR, __version__
from conformance.cases import CORPUS_FILE, case_files, load_cases, load_corpus_meta
from conformance.common.usage import EXIT_FAILED, EXIT_OK, UsageError, existing_path, positive_int, whole_number
from conformance.common.console import console, error, escape, plain, say


def cmd_generate(args: argparse.Namespace) -> int:
    from conformance.corpus_tools.generate import generate, load_profiles
    from conformance.corpus_tools.requirements import requirements_of, write_requirements

    variants = args.variant or variant_ids()
    unknown = [v for v in variants if v not in variant_ids()]
    if unknown:
        raise UsageError(f"unknown variant(s): {', '.join(unknown)} (known: {', '.join(variant_ids())})")
    out = Path(args.out) if args.out else CORPUS_DIR / "generated"
    profiles = None if args.pairwise_only else load_profiles()
    total = 0
    for variant in variants:
        written = generate(variant, out, seed=args.seed, hands_per_combination=args.hands, games_per_combination=args.games,
                           profiles=profiles)
        total += len(written)
        plain(f"{variant}: {len(written)} generated case(s) in {out}")
    cases, problems = load_cases([out])
    written_ids = {path.stem for variant in variants for path in out.glob(f"gen-{variant}-*.yaml")}
    mine = [case for case in cases if case.id in written_ids]
    write_requirements(mine, requirements_of(mine))
    plain(f"{total} case(s) written, each with its requires:")
    return EXIT_OK


def cmd_lint(args: argparse.Namespace) -> int:
    from conformance.corpus_tools.lint import lint

    report = lint(jobs=args.jobs, paths=args.paths or None, variants=args.variant)
    for problem in report.problems:
        say(f"[red]error[/red] {escape(problem)}")
    per_variant: dict[str, Counter] = {}
    for (variant, clause), ids in sorted(report.coverage.items()):
        counts = per_variant.setdefault(variant, Counter())
        counts["clauses"] += 1
        if ids:
            counts["cited"] += 1
        elif (variant, clause) in report.inherited:
            counts["inherited"] += 1
        else:
            counts["uncovered"] += 1
    table = Table(title="Clause coverage by variant")
    for column in ("variant", "clauses", "cited", "as parent", "uncovered"):
        table.add_column(column, justify="left" if column == "variant" else "right")
    for variant, counts in per_variant.items():
        missing = counts["uncovered"]
        table.add_row(escape(variant), str(counts["clauses"]), str(counts["cited"]), str(counts["inherited"]),
                      f"[bold red]{missing}[/]" if missing else "0")
    console.print(table)
    if args.verbose:
        detail = Table(title="Clause coverage (anchor -> cases)")
        for column in ("variant", "clause", "cases", "examples"):
            detail.add_column(column, overflow="fold")
        for (variant, clause), ids in sorted(report.coverage.items()):
            if ids:
                count, examples = str(len(ids)), ", ".join(sorted(ids)[:3])
            elif (variant, clause) in report.inherited:
                count, examples = "0", f"as in {report.inherited[(variant, clause)]} (the same clause)"
            else:
                count, examples = "0", ""
            detail.add_row(escape(variant), escape(clause), count, escape(examples))
        console.print(detail)
    uncovered = [f"{v}#{c}" for v, c in report.uncovered()]
    verdict = "[bold red]FAILED[/]" if report.problems or uncovered else "[bold green]PASSED[/]"
    say(f"{verdict} {report.cases} case(s), {len(report.coverage)} clause(s), {len(uncovered)} uncovered, "
        f"{len(report.problems)} problem(s)" + (f"; uncovered: {escape(', '.join(uncovered))}" if uncovered else ""))
    return EXIT_FAILED if report.problems or uncovered else EXIT_OK


def _requirement_names(case) -> list[str]:
    """What a case needs of an engine beyond the defaults, as ``stats`` counts it: each
    required option whose requirement leaves out the option's default, or "(not stated)"."""
    from conformance.runner.declared import allows, flow, stored

    requires = stored(case)
    if requires is None:
        return [f"{case.variant}: (no requires: stated)"]
    options = case.table.table.get("options", {}) if case.table else {}
    names = [f"{case.variant}: {key}={flow(value)}" for key, value in sorted(requires.items())
             if not allows(value, options.get(key, {}).get("default"))]
    return names or [f"{case.variant}: the defaults"]


def _dropped_names(case) -> list[str]:
    """The option values under which a case runs with the steps their table lacks dropped (``steps_dropped:``)."""
    from conformance.runner.declared import flow, stored_dropped

    return [f"{case.variant}: {key}={flow(value)}" for key, value in sorted(stored_dropped(case).items())]


def cmd_stats(args: argparse.Namespace) -> int:
    meta = load_corpus_meta()
    cases, problems = load_cases(tags=meta.tags)
    for title, key in (("variant", lambda c: [c.variant]),
                       ("option", lambda c: [f"{c.variant}: {k}={v}" for k, v in sorted(c.options.items())] or [f"{c.variant}: defaults"]),
                       ("requirement", _requirement_names),
                       ("value it runs under with steps dropped", _dropped_names),
                       ("tag", lambda c: c.tags)):
        counts = Counter(name for case in cases for name in key(case))
        table = Table(title=f"Cases per {title}")
        table.add_column(title)
        table.add_column("cases", justify="right")
        table.add_column("steps", justify="right")
        steps: Counter = Counter()
        for case in cases:
            for name in key(case):
                steps[name] += case.steps
        for name, count in sorted(counts.items()):
            table.add_row(escape(name), str(count), str(steps[name]))
        console.print(table)
    plain(f"corpus {meta.version}: {len(cases)} case(s), {sum(c.steps for c in cases)} step(s), "
          f"{sum(1 for c in cases if 'generated' in c.tags)} generated, {len(problems)} unreadable")
    defaults = Counter(case.variant for case in cases if _requirement_names(case) == [f"{case.variant}: the defaults"])
    totals = Counter(case.variant for case in cases)
    plain("runnable with the default options (every requirement met by the defaults): " + ", ".join(
        f"{variant} {defaults[variant]} of {totals[variant]}" for variant in sorted(totals)))
    for problem in problems:
        error(str(problem))
    return EXIT_FAILED if problems else EXIT_OK


def cmd_requirements(args: argparse.Namespace) -> int:
    """Work out what each case's script reaches; say which cases state it wrongly, and with
    ``--write`` put the right ``requires:`` into their files."""
    from conformance.corpus_tools.requirements import requirements_of, stale, write_requirements

    meta = load_corpus_meta()
    cases, problems = load_cases(args.paths or None, tags=meta.tags)
    for problem in problems:
        error(str(problem))
    computed = requirements_of(cases, args.jobs)
    wrong = [(case, stale(case, computed[case.id])) for case in cases]
    wrong = [(case, why) for case, why in wrong if why]
    if args.write:
        changed = write_requirements([case for case, _ in wrong], computed)
        plain(f"requires: written in {len(changed)} file(s) of {len(cases)} case(s)")
        return EXIT_FAILED if problems else EXIT_OK
    for case, why in wrong:
        say(f"[red]error[/red] {escape(case.file)}: case {escape(case.id)} {escape(why)}")
    plain(f"{len(cases)} case(s), {len(wrong)} with stale or missing requires"
          + ("; write them with --write" if wrong else ""))
    return EXIT_FAILED if wrong or problems else EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    """Copy the built-in corpus of this version, ``corpus.yaml`` included, into a folder an
    engine's repository can keep and run with ``check --corpus DIR``."""
    target = Path(args.dir)
    if target.exists() and not target.is_dir():
        raise UsageError(f"{target} exists and is not a folder")
    if target.is_dir() and any(target.iterdir()) and not args.force:
        raise UsageError(f"{target} is not empty (give --force to replace the corpus in it)")
    meta = load_corpus_meta()
    files = [CORPUS_DIR / CORPUS_FILE] + case_files([CORPUS_DIR])
    try:
        if target.is_dir() and args.force:
            for old in target.rglob("*.yaml"):
                old.unlink()
        for source in files:
            destination = target / source.relative_to(CORPUS_DIR)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, destination)
    except OSError as exc:
        raise UsageError(f"cannot write the corpus to {target}: {exc.strerror or exc}") from None
    plain(f"corpus {meta.version} (euchre-spec {__version__}): {len(files) - 1} case file(s) written to {target}; "
          f"run it with: euchre-spec check --engine CMD --corpus {target}")
    return EXIT_OK


def cmd_stamp(args: argparse.Namespace) -> int:
    """Record the corpus's digest, moving its version by what changed since the last stamp
    (see :mod:`conformance.corpus_tools.stamp`); with ``--check``, only say whether it is current."""
    from conformance.corpus_tools.stamp import (bumped, case_digests, changes, corpus_digest, read_stamp,
                                                stamp_problem, write_stamp)

    root = Path(args.root) if args.root else CORPUS_DIR
    try:
        stamp = read_stamp(root)
        if args.check:
            problem = stamp_problem(root)
            if problem:
                error(problem)
                return EXIT_FAILED
            plain(f"corpus {stamp.version} ({stamp.digest}): the stamp is current, {len(stamp.sums)} case file(s)")
            return EXIT_OK
        digests = case_digests(root)
        change = changes(stamp.sums, digests)
        digest = corpus_digest(digests)
        if stamp.digest == digest and not args.version:
            plain(f"corpus {stamp.version} ({digest}): nothing changed since it was stamped")
            return EXIT_OK
        kind = change.bump() if stamp.sums else None
        if args.patch:
            if change.added or change.removed:
                raise UsageError(f"--patch: cases were added or removed ({change.summary()}); that is a minor or major version")
            kind = "patch"
        if args.version:
            version = args.version
            if version == stamp.version and stamp.digest not in (None, digest):
                raise UsageError(f"--version {version}: that version already names another corpus ({stamp.digest})")
        elif kind is None:
            # no list of the case files stamped before: the change cannot be told, so it is
            # taken to be the worst (an expectation changed)
            version = bumped(stamp.version, "major" if stamp.digest and stamp.digest != digest else "minor")
        else:
            version = bumped(stamp.version, kind)
        write_stamp(root, version, digests)
    except (OSError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    plain(f"corpus {stamp.version} -> {version}: {change.summary() if stamp.sums else 'first stamp'}; "
          f"{len(digests)} case file(s), digest {digest}")
    plain(f"recorded in {root / CORPUS_FILE} and {root / 'SHA256SUMS'}; say what changed in CHANGELOG.md")
    return EXIT_OK


def add_arguments(corpus: argparse.ArgumentParser) -> None:
    actions = corpus.add_subparsers(dest="corpus_command", required=True, metavar="ACTION")
    p = actions.add_parser("generate", help="write generated cases (seeded random deals and play) under conformance/corpus/generated")
    p.add_argument("--variant", action="append", help="variant(s) to generate for (default: every variant)")
    p.add_argument("--seed", type=whole_number, default=1)
    p.add_argument("--hands", type=positive_int, default=6, help="single-hand cases per option combination "
                   "(variants without profiles in conformance/generator_profiles.yaml)")
    p.add_argument("--games", type=whole_number, default=1, help="whole-game cases per option combination "
                   "(variants without profiles)")
    p.add_argument("--pairwise-only", action="store_true", help="leave out the profiles (real engines' option sets)")
    p.add_argument("--out", help="output folder (default: the built-in corpus's generated/)")
    p.set_defaults(func=cmd_generate)
    p = actions.add_parser("lint", help="schema, ids, tags and anchors, replay on the reference engine, clause coverage")
    p.add_argument("-j", "--jobs", type=positive_int, default=2)
    p.add_argument("-v", "--verbose", action="store_true", help="list every clause with the cases citing it")
    p.add_argument("paths", nargs="*", metavar="PATH", type=existing_path,
                   help="case files or folders of your own (default: the built-in corpus)")
    p.add_argument("--variant", action="append", help="weigh clause coverage for this variant (repeatable; default: "
                   "every variant, or with PATHs the variants their cases use)")
    p.set_defaults(func=cmd_lint)
    p = actions.add_parser("requirements", help="work out the options each case's script reaches (its requires:)")
    p.add_argument("--write", action="store_true", help="write each case's requires: into its file")
    p.add_argument("-j", "--jobs", type=positive_int, default=None, help="cores to replay on (default: all)")
    p.add_argument("paths", nargs="*", metavar="PATH", type=existing_path,
                   help="case files or folders (default: the built-in corpus)")
    p.set_defaults(func=cmd_requirements)
    p = actions.add_parser("stats", help="cases per variant, option, requirement and tag")
    p.set_defaults(func=cmd_stats)
    p = actions.add_parser("export", help="copy this version's corpus into a folder, to keep and run with --corpus")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--force", action="store_true", help="replace the case files of a folder that is not empty")
    p.set_defaults(func=cmd_export)
    p = actions.add_parser("stamp", help="record the corpus's digest and move its version by what changed (added cases: "
                           "minor; a changed or removed case: major)")
    p.add_argument("--check", action="store_true", help="only say whether the recorded digest is the corpus's (exit 1 if not)")
    p.add_argument("--patch", action="store_true", help="the changed cases change no expectation (a typo): a patch version")
    p.add_argument("--version", metavar="X.Y.Z", help="give the new version instead of moving it")
    p.add_argument("--root", metavar="DIR", help=argparse.SUPPRESS)     # another corpus folder (the tests)
    p.set_defaults(func=cmd_stamp)
