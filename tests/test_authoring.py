"""The variant author's path, as an author walks it.

`docs/authoring.md` is run as written: each YAML block whose first line is `# file: PATH` is
saved there, and each console block's `$ ` lines run in order in a fresh folder (an `export`
carries over to the later lines); the lines under a command are text its output must contain,
and `# exits N` says the status it must end with (0 otherwise); every problem a command prints
(an `error` or `warning` line) must be among them. Then a built-in table copied
under a new id goes the whole way with no Python: validated, played, given generated cases
that pass on the reference engine, and shown on a strictly built site. Last, no variant's id
or title is written in the interpreter: everything a game does comes from its table.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reference_impl.catalog import spec_root, variant_ids, variants_dir
from site_support import build_problems, strict_build
from support import shared_cache_env

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "authoring.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
BIN = str(Path(sys.executable).parent)


def blocks(page: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(page)]


def commands(console: str) -> list[tuple[str, int, list[str]]]:
    """Each `$ ` line of a console block: the command, its exit status, the output expected."""
    found: list[tuple[str, int, list[str]]] = []
    for line in console.splitlines():
        if line.startswith("$ "):
            command, _, comment = line[2:].partition("   # ")
            status = int(comment.split()[1]) if comment.startswith("exits ") else 0
            found.append((command.strip(), status, []))
        elif line.strip():
            found[-1][2].append(line.strip())
    return found


def environment(home: Path) -> dict[str, str]:
    return {"PATH": BIN + os.pathsep + os.environ.get("PATH", ""), "HOME": str(home), "CHECKOUT": str(ROOT),
            "NO_MKDOCS_2_WARNING": "1", "COLUMNS": "200", **shared_cache_env()}


@pytest.mark.timeout(900)   # a hang guard with room for a loaded machine: its CPU times five exceeded the suite's 300 s
def test_every_snippet_of_the_authoring_page_runs(tmp_path):
    page = PAGE.read_text(encoding="utf-8")
    found = blocks(page)
    assert any(kind == "yaml" for kind, _ in found) and any(kind == "console" for kind, _ in found)
    exports: list[str] = []
    ran = 0
    for kind, body in found:
        if kind == "yaml":
            first, _, rest = body.partition("\n")
            assert first.startswith("# file: "), f"a YAML block on the page is not a file to save:\n{body[:200]}"
            target = tmp_path / first.removeprefix("# file: ").strip()
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body, encoding="utf-8")
            continue
        assert kind == "console", f"a {kind} block on the authoring page is not run by this test"
        for command, status, expected in commands(body):
            script = "\n".join(exports + [command])
            result = subprocess.run(["bash", "-c", "set -e\n" + script], cwd=tmp_path, env=environment(tmp_path),
                                    capture_output=True, text=True, timeout=600)
            output = result.stdout + result.stderr
            assert result.returncode == status, f"$ {command}\nexited {result.returncode}, not {status}:\n{output[-3000:]}"
            flat = " ".join(output.split())
            for line in expected:
                assert " ".join(line.split()) in flat, f"$ {command}\nprinted no line with {line!r}:\n{output[-3000:]}"
            # every problem printed is on the page (the page may shorten it): one that a command
            # adds (a run reports them all) fails here
            documented = [" ".join(line.split()) for line in expected]
            for line in output.splitlines():
                if line.startswith(("error ", "warning ")):
                    printed = " ".join(line.split())
                    assert any(shown in printed for shown in documented), (
                        f"$ {command}\nprinted a problem the page does not show: {line!r}:\n{output[-3000:]}")
            if command.startswith("export "):
                exports.append(command)
            ran += 1
    assert ran >= 10


@pytest.mark.timeout(900)   # a hang guard with room for a loaded machine: its CPU times five exceeded the suite's 300 s
def test_a_copied_table_goes_the_whole_way_without_python(tmp_path):
    """A built-in table under a new id, in a copy of the specification: validated, 100 games,
    generated cases passing on the reference, and a strict site build listing it (the
    built-in tables stay, since the hand-written pages link to them)."""
    spec = tmp_path / "spec"
    shutil.copytree(spec_root() / "schema", spec / "schema")
    shutil.copy(spec_root() / "protocol.md", spec / "protocol.md")
    shutil.copytree(variants_dir(), spec / "variants")
    tables = len(list((spec / "variants").glob("*.yaml"))) + 1
    source = (variants_dir() / "three-hand-dummy.yaml").read_text(encoding="utf-8")
    assert "\nid: three-hand-dummy\n" in source
    (spec / "variants" / "kitchen-three.yaml").write_text(source.replace("\nid: three-hand-dummy\n", "\nid: kitchen-three\n"),
                                                          encoding="utf-8")
    env = {**environment(tmp_path), "EUCHRE_SPEC_ROOT": str(spec), "EUCHRE_SITE_CORPUS": str(tmp_path / "cases")}
    tool = [sys.executable, "-m", "conformance"]

    def run(*args: str, cwd: Path = tmp_path) -> str:
        result = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, f"{shlex.join(args)}:\n{(result.stdout + result.stderr)[-3000:]}"
        return result.stdout

    assert f"{tables} of {tables} file(s) valid" in run(*tool, "validate", str(spec / "variants"))
    assert "kitchen-three" in run(*tool, "variants")
    summary = run(*tool, "play", "kitchen-three", "--games", "100", "--seed", "5")
    assert "hands per second" in summary
    run(*tool, "corpus", "generate", "--variant", "kitchen-three", "--hands", "2", "--out", str(tmp_path / "cases"))
    cases = sorted((tmp_path / "cases").glob("*.yaml"))
    assert len(cases) >= 4
    checked = run(*tool, "check", "--engine", "reference", "--corpus", str(tmp_path / "cases"),
                  "--json", str(tmp_path / "report.jsonl"))
    assert f"PASSED {len(cases)} case(s)" in " ".join(checked.split())
    # the strict-site gate (no -q, which hides warnings), here on the author's own corpus
    status, log = strict_build(tmp_path / "site", tmp_path, env=env)
    assert build_problems(status, log) == []
    page = (tmp_path / "site" / "variants" / "kitchen-three.html").read_text(encoding="utf-8")
    listed = (tmp_path / "site" / "corpus" / "by-variant" / "kitchen-three.html").read_text(encoding="utf-8")
    assert "Three-handed Euchre with a dummy" in page and all(case.stem in listed for case in cases)


def _string_constants(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.lineno, node.value) for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def test_no_variant_is_named_in_the_interpreter():
    """Docstrings and messages included: a game's behaviour comes from its table alone."""
    import yaml
    names: set[str] = set()
    for variant in variant_ids():
        data = yaml.safe_load((variants_dir() / f"{variant}.yaml").read_text(encoding="utf-8"))
        names |= {variant, data["title"]}
    # "Euchre" alone is the family's name (and the package's): only the exact id is banned.
    words = sorted(name for name in names if name.lower() != "euchre")
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(name)}(?![\w-])" for name in words), re.I)
    found = []
    for path in sorted((ROOT / "reference_impl").rglob("*.py")):
        for line, text in _string_constants(path):
            if text == "euchre" or pattern.search(text):
                found.append(f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}")
    assert not found, "variant names in reference_impl/:\n" + "\n".join(found)


@pytest.mark.parametrize("variant", variant_ids())
def test_every_table_names_its_schema_for_editors(variant):
    first = (variants_dir() / f"{variant}.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schema/variant.schema.json"
