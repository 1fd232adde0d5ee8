"""The adapter in the tutorial (docs/adapter-tutorial.md) is real: run as the page gives it,
it passes the hand-written Euchre cases it claims, and reports the others unsupported."""

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "adapter-tutorial.md"


def test_tutorial_adapter_passes_the_cases_it_claims(tmp_path):
    code = re.search(r"```python\n(.*?)```", TUTORIAL.read_text(encoding="utf-8"), re.S).group(1)
    adapter = tmp_path / "my_adapter.py"
    adapter.write_text(code, encoding="utf-8")
    report = tmp_path / "report.jsonl"
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "check", "--engine", f"{sys.executable} {adapter}",
                             "--corpus", str(ROOT / "conformance" / "corpus" / "euchre"), "--json", str(report)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    outcomes = [json.loads(line)["outcome"] for line in report.read_text().splitlines() if '"type": "case"' in line]
    assert set(outcomes) <= {"pass", "unsupported"}
    assert outcomes.count("pass") >= 10


def test_every_command_of_the_tutorial_runs_as_written_without_an_activated_venv(tmp_path):
    """From a folder with the adapter and a venv (.venv), with no venv on PATH: the bare
    `python3 my_adapter.py` of old crashed there with ModuleNotFoundError."""
    import os
    import shlex

    text = TUTORIAL.read_text(encoding="utf-8")
    (tmp_path / "my_adapter.py").write_text(re.search(r"```python\n(.*?)```", text, re.S).group(1), encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    commands = [line for block in blocks for line in block.strip().splitlines() if line and not line.startswith("#")]
    install = [c for c in commands if c.startswith("python3 -m venv") or "/pip install" in c]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    # the install is the README's, run as written by tests/test_ci_recipe.py; here the venv is ours
    assert install[:2] == ["python3 -m venv .venv", ".venv/bin/pip install ./euchre-spec"]
    assert "python3 -m venv .venv && .venv/bin/pip install ./euchre-spec" in readme
    (tmp_path / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    (tmp_path / "docs" / "compliance" / "reports").mkdir(parents=True)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if not p.startswith(sys.prefix))
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(PATH=path, EUCHRE_SPEC_PROGRESS_EVERY="0", COLUMNS="200")
    ran = [c for c in commands if c not in install]
    assert len(ran) >= 7 and all(shlex.split(c)[0].startswith(".venv/bin/") for c in ran), ran
    for command in ran:
        # pytest as the page gives it, in one process (no -n: xdist under the plugin is
        # tests/test_pytest_plugin.py's; two workers here cost twice the CPU for the same items)
        done = subprocess.run(shlex.split(command) + (["-p", "no:cacheprovider"] if "pytest" in command else []),
                              cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        assert "CRASH" not in done.stdout and "ModuleNotFoundError" not in done.stdout + done.stderr, command
        if " check " in command and "--case" not in command:
            assert re.search(r"^ran \d+ of \d+ euchre cases \(\d+%\)", done.stdout, re.M), done.stdout[-2000:]
    assert (tmp_path / "docs" / "compliance" / "reports" / "my-euchre.jsonl").is_file()
