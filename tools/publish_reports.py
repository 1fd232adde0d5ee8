#!/usr/bin/env python3
"""Run the corpus against the reference engine and every adapted engine, and write their
JSON Lines reports where the rules site's compliance page reads them
(docs/compliance/reports/). Run it after the corpus changes, and commit the reports.

Each report is also kept by engine version under docs/compliance/history/<engine>/ (the
page's per-engine history, and `euchre-spec report history`); an engine with a baseline
(docs/compliance/baselines/<engine>.skip, a skip file whose reasons may carry bug-tracker
links) is checked with it, so its known failures show as such, with their links.

With ``--fuzz`` it also runs ``identify`` and ``fuzz`` on each engine written elsewhere (fixed
seeds, bounded hands) and keeps their JSON and the shrunk cases under
docs/compliance/fuzz/<engine>/, and ``fuzz --views`` on each engine whose adapter exposes a
seat's information state (views.json and views-cases/ there).

An engine whose dependencies are not installed, or whose checkout's environment variable
is not set, is left out with a message; its previous report, if any, is removed rather
than left stale (its history stays).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPLIANCE = ROOT / "docs" / "compliance"
REPORTS = COMPLIANCE / "reports"
HISTORY = COMPLIANCE / "history"
BASELINES = COMPLIANCE / "baselines"
FUZZ = COMPLIANCE / "fuzz"
PY = sys.executable
ADAPTERS = ROOT / "tools" / "adapters"


def adapter(name: str) -> list[str]:
    return [f"{PY} {ADAPTERS / name}"]


# name -> (engine command, extra check arguments, what it needs: a module, "node", or "env:VAR")
ENGINES = {
    "reference": (["reference"], [], None),
    "javascript": ([f"node {ROOT / 'tools/engines/js/engine.js'}"], ["--variant", "euchre"], "node"),
    "openspiel": (adapter("openspiel_engine.py"), ["--variant", "openspiel"], "pyspiel"),
    "openspiel-on-standard-euchre": (adapter("openspiel_engine.py"), ["--variant", "euchre"], "pyspiel"),
    "euchrelib": (adapter("euchrelib_engine.py"), ["--variant", "euchre"], "euchrelib"),
    "euchre-cli": (adapter("euchre_cli_engine.py"), ["--variant", "euchre"], "euchre.command.play"),
    "euchre-app": (adapter("euchre_app_engine.py"), ["--variant", "euchre"], "env:EUCHRE_APP_DIR"),
    "euchre-app-on-standard-euchre": ([f"{PY} {ADAPTERS / 'euchre_app_engine.py'} --standard"], ["--variant", "euchre"],
                                      "env:EUCHRE_APP_DIR"),
    "rlcard-euchre-w23": (adapter("rlcard_euchre_engine.py"), ["--variant", "euchre"], "env:RLCARD_EUCHRE_W23_DIR"),
    "rlcard-euchre-euchre-rl": (adapter("rlcard_euchre_engine.py"), ["--variant", "euchre"], "env:RLCARD_EUCHRE_RL_DIR"),
    "rlcard-500": (adapter("rlcard_500_engine.py"), ["--variant", "five-hundred-four"], "env:RLCARD_500_DIR"),
    "euchre-plt": (adapter("euchre_plt_engine.py"), ["--variant", "euchre"], "env:EUCHRE_PLT_DIR"),
    "cards-ts": (adapter("cards_ts_engine.py"), ["--variant", "euchre"], "env:CARDS_TS_DIR"),
    "cards-ts-on-standard-euchre": ([f"{PY} {ADAPTERS / 'cards_ts_engine.py'} --standard"], ["--variant", "euchre"],
                                    "env:CARDS_TS_DIR"),
    "buck-euchre": (adapter("buck_euchre_engine.py"), ["--variant", "buck-euchre-auction"], "env:BUCK_EUCHRE_DIR"),
}

# The two RLCard copies share one adapter and its variable; these name each copy's checkout.
ENGINE_ENV = {"rlcard-euchre-w23": {"RLCARD_EUCHRE_DIR": "RLCARD_EUCHRE_W23_DIR"},
              "rlcard-euchre-euchre-rl": {"RLCARD_EUCHRE_DIR": "RLCARD_EUCHRE_RL_DIR"}}

# identify and fuzz on the engines written elsewhere: the options they declare (fuzz plays
# one table) and a fixed seed, so that a re-run finds the same divergences
FUZZ_RUNS = {
    "euchre-app": ("euchre", ["defending-alone=false", "first-dealer=random"]),
    "rlcard-euchre-w23": ("euchre", ["stick-the-dealer=true", "going-alone=false", "first-dealer=random"]),
    "rlcard-euchre-euchre-rl": ("euchre", ["stick-the-dealer=true", "going-alone=false", "first-dealer=random"]),
    "rlcard-500": ("five-hundred-four", ["misere=misere-and-open"]),
    "euchre-plt": ("euchre", ["first-dealer=random"]),
    "cards-ts": ("euchre", ["defending-alone=false", "first-dealer=random"]),
    "buck-euchre": ("buck-euchre-auction", ["euchred-maker=five-only"]),
}

# fuzz --views (the seat views as information flow) on the engines whose adapters expose a
# seat's information state: the table, and a fixed seed; kept as views.json and views-cases/
VIEW_RUNS = {
    "openspiel": ("openspiel", []),
}


def available(need: str | None) -> bool:
    if need is None:
        return True
    if need == "node":
        return shutil.which("node") is not None
    if need.startswith("env:"):
        return all(os.environ.get(v) and Path(os.environ[v]).is_dir() for v in need[4:].split(","))
    try:
        return importlib.util.find_spec(need) is not None
    except ModuleNotFoundError:
        return False


def engine_env(name: str) -> dict[str, str]:
    env = dict(os.environ)
    for target, source in ENGINE_ENV.get(name, {}).items():
        if os.environ.get(source):
            env[target] = os.environ[source]
    return env


def safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "unknown"


def keep_in_history(name: str, report: Path) -> Path | None:
    """Copy a report to the engine's history, by the version its hello gave."""
    try:
        header = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
    except (OSError, ValueError, IndexError):
        return None
    version = safe(str((header.get("engine") or {}).get("version") or "unknown"))
    target = HISTORY / name / f"{version}.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(report, target)
    return target


def check(name: str, engine: list[str], extra: list[str]) -> None:
    report = REPORTS / f"{name}.jsonl"
    baseline = BASELINES / f"{name}.skip"
    skip = ["--skip", str(baseline), "--allow-fixed"] if baseline.exists() else []
    result = subprocess.run([PY, "-m", "conformance.cli", "check", "--engine", *engine, "-j", "2",
                             "--json", str(report), *skip, *extra], cwd=ROOT, capture_output=True, text=True,
                            env=engine_env(name))
    footer = json.loads(report.read_text().splitlines()[-1]) if report.exists() else {}
    counts = {k: v for k, v in footer.get("counts", {}).items() if v}
    kept = keep_in_history(name, report) if report.exists() and name != "reference" else None
    print(f"{name}: exit {result.returncode}, {counts or result.stderr[-300:]}" + (f"; kept as {kept.relative_to(ROOT)}" if kept else ""))


def fuzz(name: str, engine: list[str]) -> None:
    variant, options = FUZZ_RUNS[name]
    out = FUZZ / name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    flags = [arg for option in options for arg in ("--option", option)]
    env = engine_env(name)
    runs = {
        # identify's cases of the deviations that remain are not kept: they are written with the
        # options sent, not the house rules identified, so they do not replay on the reference
        "identify": [PY, "-m", "conformance.cli", "identify", "--engine", *engine, "--variant", variant, *flags,
                     "--hands", "120", "--check-hands", "300", "--shrink-time", "20", "--out", tempfile.mkdtemp(),
                     "--json", str(out / "identify.json")],
        "fuzz": [PY, "-m", "conformance.cli", "fuzz", "--engine", *engine, "--variant", variant, *flags, "--hands", "400",
                 "--divergences", "6", "--shrink-time", "20", "--seed", "1", "--out", str(out / "cases"),
                 "--json", str(out / "fuzz.json")],
    }
    for kind, argv in runs.items():
        result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env, timeout=1800)
        (out / f"{kind}.txt").write_text(result.stdout[-20000:], encoding="utf-8")
        print(f"{name} {kind}: exit {result.returncode}")


def views(name: str, engine: list[str]) -> None:
    """fuzz --views --flow-only: what the engine tells each seat, tested as information flow
    (its views carry its own information state, so they are not compared with the reference's)."""
    variant, options = VIEW_RUNS[name]
    out = FUZZ / name
    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(out / "views-cases", ignore_errors=True)
    flags = [arg for option in options for arg in ("--option", option)]
    argv = [PY, "-m", "conformance.cli", "fuzz", "--views", "--flow-only", "--engine", *engine, "--variant", variant,
            *flags, "--hands", "200", "--divergences", "3", "--seed", "1", "--out", str(out / "views-cases"),
            "--json", str(out / "views.json")]
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=engine_env(name), timeout=1800)
    (out / "views.txt").write_text(result.stdout[-20000:], encoding="utf-8")
    print(f"{name} views: exit {result.returncode}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="only these engines (repeatable)")
    parser.add_argument("--fuzz", action="store_true", help="also run identify and fuzz on the engines written elsewhere")
    args = parser.parse_args()
    REPORTS.mkdir(parents=True, exist_ok=True)
    for name, (engine, extra, need) in ENGINES.items():
        if args.only and name not in args.only:
            continue
        report = REPORTS / f"{name}.jsonl"
        if not available(need):
            print(f"{name}: skipped ({need[4:] + ' is not set' if need and need.startswith('env:') else str(need) + ' is not available'})")
            report.unlink(missing_ok=True)
            continue
        check(name, engine, extra)
        if args.fuzz and name in FUZZ_RUNS:
            fuzz(name, engine)
        if args.fuzz and name in VIEW_RUNS:
            views(name, engine)
    return 0


if __name__ == "__main__":
    sys.exit(main())
