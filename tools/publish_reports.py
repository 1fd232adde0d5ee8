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
seat's information state (views.json and views-cases/ there); ``--views`` runs only the latter.

An engine whose dependencies are not installed, or whose checkout's environment variable
is not set, is left out with a message; its previous report stays, and the page marks it
stale once the corpus has changed (each report names the corpus it ran by its digest).

``--only NAME`` (repeatable) re-runs some engines, ``--stale`` those whose report is stale or
missing; ``--status`` runs nothing and lists each published report as current or stale (exit
1 when one is stale). Engine commands name no path of this machine: they are run from the
checkout as ``python tools/adapters/...`` with this Python first on ``PATH``, and the
adapters find their engines' checkouts by environment variables (``$EUCHRE_APP_DIR``, ...).
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPLIANCE = ROOT / "docs" / "compliance"
REPORTS = COMPLIANCE / "reports"
HISTORY = COMPLIANCE / "history"
BASELINES = COMPLIANCE / "baselines"
FUZZ = COMPLIANCE / "fuzz"
ADAPTERS = ROOT / "tools" / "adapters"  # adapter_plays imports an adapter, which imports its neighbours
PY = sys.executable


def adapter(name: str, *args: str) -> list[str]:
    """An adapter's command, relative to the checkout (``python``: this Python, see engine_env)."""
    return [" ".join(["python", f"tools/adapters/{name}", *args])]


# name -> (engine command, extra check arguments, what it needs: a module, "node", or "env:VAR")
ENGINES = {
    "reference": (["reference"], [], None),
    "javascript": (["node tools/engines/js/engine.js"], ["--variant", "euchre"], "node"),
    "openspiel": (adapter("openspiel_engine.py"), ["--variant", "openspiel"], "pyspiel"),
    "openspiel-on-standard-euchre": (adapter("openspiel_engine.py"), ["--variant", "euchre"], "pyspiel"),
    "euchrelib": (adapter("euchrelib_engine.py"), ["--variant", "euchre"], "euchrelib"),
    "euchre-cli": (adapter("euchre_cli_engine.py"), ["--variant", "euchre"], "euchre.command.play"),
    "euchre-app": (adapter("euchre_app_engine.py"), ["--variant", "euchre"], "env:EUCHRE_APP_DIR"),
    "euchre-app-on-standard-euchre": (adapter("euchre_app_engine.py", "--standard"), ["--variant", "euchre"],
                                      "env:EUCHRE_APP_DIR"),
    "rlcard-euchre-w23": (adapter("rlcard_euchre_engine.py"), ["--variant", "euchre"], "env:RLCARD_EUCHRE_W23_DIR"),
    "rlcard-euchre-euchre-rl": (adapter("rlcard_euchre_engine.py"), ["--variant", "euchre"], "env:RLCARD_EUCHRE_RL_DIR"),
    "rlcard-500": (adapter("rlcard_500_engine.py"), ["--variant", "five-hundred-four"], "env:RLCARD_500_DIR"),
    "euchre-plt": (adapter("euchre_plt_engine.py"), ["--variant", "euchre"], "env:EUCHRE_PLT_DIR"),
    "cards-ts": (adapter("cards_ts_engine.py"), ["--variant", "euchre"], "env:CARDS_TS_DIR"),
    "cards-ts-on-standard-euchre": (adapter("cards_ts_engine.py", "--standard"), ["--variant", "euchre"],
                                    "env:CARDS_TS_DIR"),
    "buck-euchre": (adapter("buck_euchre_engine.py"), ["--variant", "buck-euchre-auction"], "env:BUCK_EUCHRE_DIR"),
    "euchre-webrtc": (adapter("euchre_webrtc_engine.py"), ["--variant", "euchre"], "env:EUCHRE_WEBRTC_DIR"),
    "euchre-arena": (adapter("euchre_arena_engine.py"), ["--variant", "euchre"], "env:EUCHRE_ARENA_DIR"),
    "fun-euchre": (adapter("fun_euchre_engine.py"), ["--variant", "euchre"], "env:FUN_EUCHRE_DIR"),
    "moltblox": (adapter("moltblox_euchre_engine.py"), ["--variant", "euchre"], "env:MOLTBLOX_DIR"),
}

# The two RLCard copies share one adapter and its variable; these name each copy's checkout.
ENGINE_ENV = {"rlcard-euchre-w23": {"RLCARD_EUCHRE_DIR": "RLCARD_EUCHRE_W23_DIR"},
              "rlcard-euchre-euchre-rl": {"RLCARD_EUCHRE_DIR": "RLCARD_EUCHRE_RL_DIR"}}

# identify and fuzz on the engines written elsewhere: the options they declare (fuzz plays
# one table) and a fixed seed, so that a re-run finds the same divergences
FUZZ_RUNS = {
    "euchre-app": ("euchre", ["defending-alone=false", "first-dealer=random", "lone-lead=eldest"]),
    "rlcard-euchre-w23": ("euchre", ["stick-the-dealer=true", "going-alone=false", "first-dealer=random"]),
    "rlcard-euchre-euchre-rl": ("euchre", ["stick-the-dealer=true", "going-alone=false", "first-dealer=random"]),
    "rlcard-500": ("five-hundred-four", ["misere=misere-and-open"]),
    "euchre-plt": ("euchre", ["first-dealer=random", "lone-lead=eldest", "lone-defender-scoring=four-for-euchre"]),
    "cards-ts": ("euchre", ["defending-alone=false", "first-dealer=random", "lone-lead=eldest", "dealer-discard=not-upcard"]),
    "buck-euchre": ("buck-euchre-auction", ["euchred-maker=five-only"]),
    "euchre-webrtc": ("euchre", ["defending-alone=false", "first-dealer=random", "lone-lead=eldest"]),
    "euchre-arena": ("euchre", ["stick-the-dealer=true", "defending-alone=false", "first-dealer=random",
                                "lone-lead=eldest"]),
    "fun-euchre": ("euchre", ["defending-alone=false", "first-dealer=random", "lone-lead=eldest",
                              "dealer-discard=not-upcard"]),
    "moltblox": ("euchre", ["defending-alone=false", "first-dealer=random", "lone-lead=eldest"]),
}

# fuzz --views (the seat views as information flow) on the engines whose adapters expose a
# seat's information state: the table, and a fixed seed; kept as views.json and views-cases/
VIEW_RUNS = {
    "openspiel": ("openspiel", []),
    "rlcard-euchre-w23": FUZZ_RUNS["rlcard-euchre-w23"],
    "rlcard-euchre-euchre-rl": FUZZ_RUNS["rlcard-euchre-euchre-rl"],
    "rlcard-500": FUZZ_RUNS["rlcard-500"],
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
    """The environment of a run: this Python first on PATH (the commands say ``python``), and
    the checkout variables an adapter shared by two engines reads."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(PY).parent), env.get("PATH", "")])
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
    skip = ["--skip", baseline.relative_to(ROOT).as_posix(), "--allow-fixed"] if baseline.exists() else []
    result = subprocess.run([PY, "-m", "conformance.cli", "check", "--engine", *engine, "-j", "2",
                             "--json", report.relative_to(ROOT).as_posix(), *skip, *extra], cwd=ROOT, capture_output=True,
                            text=True, env=engine_env(name))
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
        # identify's cases of the deviations that remain name the house rules identified, pass on
        # the reference and fail on the engine (identify keeps no other)
        "identify": [PY, "-m", "conformance.cli", "identify", "--engine", *engine, "--variant", variant, *flags,
                     "--hands", "120", "--check-hands", "300", "--shrink-time", "20",
                     "--out", (out / "identify-cases").relative_to(ROOT).as_posix(),
                     "--json", (out / "identify.json").relative_to(ROOT).as_posix()],
        "fuzz": [PY, "-m", "conformance.cli", "fuzz", "--engine", *engine, "--variant", variant, *flags, "--hands", "400",
                 "--divergences", "12", "--shrink-time", "20", "--seed", "1", "--out", (out / "cases").relative_to(ROOT).as_posix(),
                 "--json", (out / "fuzz.json").relative_to(ROOT).as_posix()],
    }
    for kind, argv in runs.items():
        result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env, timeout=1800)
        (out / f"{kind}.txt").write_text(result.stdout[-20000:], encoding="utf-8")
        print(f"{name} {kind}: exit {result.returncode}")
    mark_adapter_options(out / "identify.json", engine)


def adapter_plays(engine: list[str]) -> list[str]:
    """The options an adapter's own game loop plays (its class's ``ADAPTER_PLAYS``), read from
    the adapter named in the engine's command: identify's verdicts on them are the adapter's."""
    words = engine[0].split()
    script = next((ROOT / w for w in words if w.endswith("_engine.py")), None)
    if script is None or not script.is_file():
        return []
    sys.path.insert(0, str(ADAPTERS))
    spec = importlib.util.spec_from_file_location(f"adapter_{script.stem}", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return sorted(getattr(getattr(module, "Adapter", None), "ADAPTER_PLAYS", ()) or ())


def mark_adapter_options(path: Path, engine: list[str]) -> None:
    """Write into identify's JSON which options are the adapter's (so the page credits none of
    them to the engine)."""
    if not path.is_file():
        return
    data = json.loads(path.read_text(encoding="utf-8"))
    data["adapter_plays"] = adapter_plays(engine)
    path.write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")


def stale_reports() -> dict[str, str | None]:
    """Each published report (by engine name) and why it is stale, or None when it is current."""
    sys.path.insert(0, str(ROOT))
    from conformance.corpus_tools.stamp import current_identity, staleness
    current = current_identity()
    found: dict[str, str | None] = {}
    for path in sorted(REPORTS.glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        try:
            head, foot = json.loads(lines[0]), json.loads(lines[-1])
        except (ValueError, IndexError):
            found[path.stem] = "unreadable"
            continue
        why = staleness(head, current)
        found[path.stem] = None if why is None else f"run {head.get('started', '?')} over {foot.get('cases', '?')} cases: {why}"
    return found


def status() -> int:
    found = stale_reports()
    for name, why in found.items():
        print(f"{name}: {'current' if why is None else 'stale, ' + why}")
    for name in ENGINES:
        if name not in found:
            print(f"{name}: no report")
    stale = [name for name, why in found.items() if why is not None]
    print(f"{len(found) - len(stale)} of {len(found)} published report(s) current"
          + (f"; re-run the stale ones: python tools/publish_reports.py --stale" if stale else ""))
    return 1 if stale else 0


def views(name: str, engine: list[str]) -> None:
    """fuzz --views --flow-only: what the engine tells each seat, tested as information flow
    (its views carry its own information state, so they are not compared with the reference's)."""
    variant, options = VIEW_RUNS[name]
    out = FUZZ / name
    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(out / "views-cases", ignore_errors=True)
    flags = [arg for option in options for arg in ("--option", option)]
    argv = [PY, "-m", "conformance.cli", "fuzz", "--views", "--flow-only", "--engine", *engine, "--variant", variant,
            *flags, "--hands", "200", "--divergences", "3", "--seed", "1",
            "--out", (out / "views-cases").relative_to(ROOT).as_posix(), "--json", (out / "views.json").relative_to(ROOT).as_posix()]
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=engine_env(name), timeout=1800)
    (out / "views.txt").write_text(result.stdout[-20000:], encoding="utf-8")
    print(f"{name} views: exit {result.returncode}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", metavar="NAME", choices=sorted(ENGINES),
                        help="only these engines (repeatable)")
    parser.add_argument("--stale", action="store_true", help="only the engines whose report is stale or missing")
    parser.add_argument("--status", action="store_true", help="run nothing: say which published reports are stale (exit 1 if any)")
    parser.add_argument("--fuzz", action="store_true", help="also run identify and fuzz on the engines written elsewhere")
    parser.add_argument("--views", action="store_true",
                        help="also run fuzz --views on the engines whose adapters expose a seat's information state "
                             "(--fuzz does too)")
    args = parser.parse_args()
    if args.status:
        return status()
    REPORTS.mkdir(parents=True, exist_ok=True)
    stale = stale_reports() if args.stale else {}
    for name, (engine, extra, need) in ENGINES.items():
        if args.only and name not in args.only:
            continue
        if args.stale and stale.get(name, "missing") is None:
            continue
        if not available(need):
            print(f"{name}: skipped ({need[4:] + ' is not set' if need and need.startswith('env:') else str(need) + ' is not available'})"
                  + ("; its published report is kept (the page says whether it is stale)" if (REPORTS / f"{name}.jsonl").exists() else ""))
            continue
        check(name, engine, extra)
        if args.fuzz and name in FUZZ_RUNS:
            fuzz(name, engine)
        if (args.fuzz or args.views) and name in VIEW_RUNS:
            views(name, engine)
    return 0


if __name__ == "__main__":
    sys.exit(main())
