"""The CI recipe of docs/ci.md works as written: its shell script, taken from the page, runs
the corpus against the JavaScript example engine and passes; against an engine with a
known failure it passes only while that failure is in the baseline, and fails on a new one.
The installs the README and the page give (a checkout installed, a wheel built from one) work
as written, from a copy of the checkout, with no release on the package index."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support import shared_cache_env

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "ci.md"
FAULTY = ROOT / "tests" / "faulty_engines"


def script_from_page(name: str) -> str:
    found = re.search(rf'```\w+ title="{re.escape(name)}"\n(.*?)```', PAGE.read_text(encoding="utf-8"), re.S)
    assert found, f"no code block titled {name} on {PAGE.name}"
    return found.group(1)


def copy_of_the_checkout(folder: Path) -> Path:
    """The repository's files as a clone has them (tracked files only: no venv, no build)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name)
    return folder


def fresh_env(**extra: str) -> dict[str, str]:
    """No venv of ours on PATH: what a user's shell has (the corpus cache is each test's choice)."""
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if not p.startswith(sys.prefix))
    return {**{k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}, "PATH": path,
            "EUCHRE_SPEC_PROGRESS_EVERY": "0", **extra}


@pytest.mark.install
@pytest.mark.timeout(900)   # a hang guard with room for a loaded machine: its CPU times five exceeded the suite's 300 s
def test_the_readme_install_from_a_checkout_works_as_written(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Check your own engine", 1)[1].split("\n## ", 1)[0]
    commands = re.search(r"```sh\n(.*?)```", section, re.S).group(1).strip().splitlines()
    assert "pip install euchre-spec" not in section.replace("pip install euchre-spec[", "")   # not on the index yet
    assert commands[0] == "python3 -m venv .venv && .venv/bin/pip install ./euchre-spec", commands
    copy_of_the_checkout(tmp_path / "euchre-spec")
    # ./my-engine: the reference engine of the installed package, as an engine of one's own
    engine = tmp_path / "my-engine"
    engine.write_text('#!/bin/sh\nexec "$(dirname "$0")/.venv/bin/python" -m conformance.reference_engine\n')
    engine.chmod(0o755)
    # EUCHRE_SPEC_COMPILE=0 skips the mypyc build of the hot modules (minutes; .ci/check-wheel
    # checks the compiled wheel), the rest of the install is the README's. The corpus cache is
    # this run's (keyed by content, so the installed copy reads the same entries): a cold load
    # of the whole corpus cost this test 9 s of CPU, and an installed package's cold start is
    # run by the wheel's recipe below (its own empty cache)
    env = fresh_env(EUCHRE_SPEC_COMPILE="0", **shared_cache_env())
    for command in commands:
        done = subprocess.run(["sh", "-c", command], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=900)
        assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
    assert "PASSED" in done.stdout and (tmp_path / "junit.xml").is_file()
    assert re.search(r"^ran \d+ of \d+ euchre cases \(100%\)$", done.stdout, re.M), done.stdout[-2000:]


@pytest.mark.install
@pytest.mark.timeout(900)   # a hang guard with room for a loaded machine: its CPU times five exceeded the suite's 300 s
def test_the_wheel_of_the_ci_page_builds_and_the_recipe_installs_it(tmp_path):
    copy_of_the_checkout(tmp_path / "euchre-spec")
    # an empty corpus cache of its own: the one install test that starts cold, as a user's first run
    env = fresh_env(EUCHRE_SPEC_CACHE=str(tmp_path / "cache"))
    built = subprocess.run(["sh", "-c", script_from_page("build-wheel.sh")], cwd=tmp_path, capture_output=True,
                           text=True, env=env, timeout=900)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    script = script_from_page("check-engine.sh")
    default = re.search(r'SUITE=\$\{SUITE:-"?([^}"]+)"?\}', script).group(1)
    assert (tmp_path / default).is_file(), f"the recipe's default SUITE {default} is not what the page builds: " \
        + ", ".join(p.name for p in tmp_path.glob("*.whl"))
    (tmp_path / "check-engine.sh").write_text(script)
    done = subprocess.run(["sh", "check-engine.sh"], cwd=tmp_path, capture_output=True, text=True, timeout=900,
                          env={**env, "ENGINE": "reference", "CHECK_ARGS": "--variant two-hand"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (tmp_path / ".euchre-spec" / "bin" / "euchre-spec").exists()          # installed by the recipe itself
    assert "ran " in done.stdout and "two-hand cases (100%)" in done.stdout
    # the pytest extra brings pytest and pytest-xdist beside the suite
    extra = subprocess.run([str(tmp_path / ".euchre-spec" / "bin" / "pip"), "install", "-q", f"{tmp_path / default}[pytest]"],
                           capture_output=True, text=True, env=env, timeout=600)
    assert extra.returncode == 0, extra.stderr[-2000:]
    imported = subprocess.run([str(tmp_path / ".euchre-spec" / "bin" / "python"), "-c", "import pytest, xdist"],
                              capture_output=True, text=True, env=env)
    assert imported.returncode == 0, imported.stderr


def run_recipe(folder: Path, engine: str, check_args: str = "") -> subprocess.CompletedProcess:
    script = folder / "check-engine.sh"
    script.write_text(script_from_page("check-engine.sh"))
    env = {**os.environ, "ENGINE": engine, "VENV": sys.prefix, "SUITE": str(ROOT), "CHECK_ARGS": check_args,
           "EUCHRE_SPEC_PROGRESS_EVERY": "0"}
    return subprocess.run(["sh", str(script)], cwd=folder, capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js (`node`) is not installed")
def test_the_recipe_passes_the_javascript_engine(tmp_path):
    done = run_recipe(tmp_path, f"node {ROOT / 'tools' / 'engines' / 'js' / 'engine.js'}", "--variant euchre")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "euchre-spec " in done.stdout and "(corpus " in done.stdout
    assert (tmp_path / "euchre-baseline.txt").exists()
    junit = (tmp_path / "euchre-reports" / "junit.xml").read_text()
    assert "<testsuite" in junit and 'name="euchre"' in junit
    assert re.search(r"^progress: \d+/\d+ cases, 0 failing", done.stdout, re.M), "progress lines without a terminal"


def test_the_recipe_fails_only_on_new_failures(tmp_path):
    engine = f"{sys.executable} {FAULTY / 'refuse.py'} illegal_action"     # refuses every action
    (tmp_path / "euchre-baseline.txt").write_text("made-three-tricks  # refuses every action\n")
    done = run_recipe(tmp_path, engine, "--case made-three-tricks --case assist-made-four-tricks")
    assert done.returncode == 1, done.stdout[-2000:]
    report = [json.loads(line) for line in (tmp_path / "euchre-reports" / "report.jsonl").read_text().splitlines()]
    outcomes = {line["id"]: line["outcome"] for line in report if line["type"] == "case"}
    assert outcomes == {"made-three-tricks": "expected-fail", "assist-made-four-tricks": "fail"}
    (tmp_path / "euchre-baseline.txt").write_text("made-three-tricks\nassist-made-four-tricks\n")
    done = run_recipe(tmp_path, engine, "--case made-three-tricks --case assist-made-four-tricks")
    assert done.returncode == 0, done.stdout[-2000:]
    # a baselined case that now passes is a warning naming the line to delete
    done = run_recipe(tmp_path, "reference", "--case made-three-tricks")
    assert done.returncode == 0 and "delete these lines" in done.stderr and "made-three-tricks" in done.stderr


def test_ci_runs_the_install_tests_the_test_command_leaves_out():
    """The two installs above take about 50 s of CPU; the test command deselects them
    (pyproject.toml) and .ci/run runs them right after it, so CI still runs every test."""
    import tomllib

    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert options["addopts"].endswith('-m "not install"') and any(m.startswith("install:") for m in options["markers"])
    ci = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    tests = next(i for i, line in enumerate(ci) if line.startswith("timeout -k 30 1800 .venv/bin/python -m pytest -q ||"))
    assert ci[tests + 1].startswith("timeout -k 30 900 .venv/bin/python -m pytest -q -m install ||"), ci[tests:tests + 2]
    marked = [name for name, test in globals().items() if name.startswith("test_")
              and any(mark.name == "install" for mark in getattr(test, "pytestmark", []))]
    assert sorted(marked) == ["test_the_readme_install_from_a_checkout_works_as_written",
                              "test_the_wheel_of_the_ci_page_builds_and_the_recipe_installs_it"]


def test_the_release_workflow_publishes_a_tag_by_trusted_publishing():
    import yaml

    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8"))
    trigger = workflow.get("on", workflow.get(True))              # YAML 1.1 reads a bare `on` as true
    assert trigger["push"]["tags"] == ["v*"]
    jobs = workflow["jobs"]
    publish = jobs["publish"]
    assert publish["permissions"] == {"id-token": "write"} and publish["environment"]["name"] == "pypi"
    uses = [step.get("uses", "") for step in publish["steps"]]
    assert any(u.startswith("pypa/gh-action-pypi-publish@") for u in uses)
    assert not any("password" in (step.get("with") or {}) for step in publish["steps"]), "trusted publishing: no token"
    # publishing waits for the builds, and the builds for the wheel check of CI
    assert set(publish["needs"]) == {"sdist", "wheels"} and jobs["sdist"]["needs"] == "check"
    assert any(step.get("run") == "bash .ci/check-wheel" for step in jobs["check"]["steps"])
    # built as .ci/check-wheel builds: `-m build` with neither --sdist nor --wheel (the wheel from the sdist)
    wheel_check = (ROOT / ".ci" / "check-wheel").read_text(encoding="utf-8")
    built = [step["run"] for step in jobs["sdist"]["steps"] if "-m build" in step.get("run", "")]
    main_build = next(line for line in wheel_check.splitlines() if "-m build" in line and not line.startswith("CC="))
    assert built == ["python -m build --outdir dist ."] and "-m build -q --outdir" in main_build
    assert not any(flag in built[0] + main_build for flag in ("--sdist", "--wheel"))
    compiled = next(step for step in jobs["wheels"]["steps"] if "cibuildwheel" in step.get("run", "") and "sdist/" in step["run"])
    assert compiled["run"].endswith("sdist/*.tar.gz")                # the compiled wheels from that same sdist
