"""`euchre-spec variants NAME [OPTION]`: a table's options with their values, meanings and
sources, from the package alone (run from an empty folder, as an installed wheel is)."""

from __future__ import annotations

import subprocess
import sys

from conformance.cases import resolved_table
from reference_impl.options import yaml_text


def variants(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", "variants", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={"COLUMNS": "250", "PATH": ""})


def test_every_option_is_listed_with_its_default_meaning_and_source(tmp_path):
    done = variants("euchre", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    table = resolved_table("euchre", {}).table
    text = " ".join(done.stdout.split())
    rows = {line.split("│")[1].strip(): line for line in done.stdout.splitlines() if line.count("│") >= 5}
    for key, option in table["options"].items():
        assert key in rows, f"option {key} not listed"
        cells = [c.strip() for c in rows[key].split("│")[1:-1]]
        assert cells[2] == yaml_text(option["default"]), (key, cells)
        assert cells[3].startswith(option["title"][:20]), (key, cells)
    assert "Euchre (pagat.com) <https://www.pagat.com/" in text
    assert "any whole number from 1 to 1000" in text               # a range, as the range it is


def test_one_option_in_detail_with_each_value_and_its_rules(tmp_path):
    done = variants("euchre", "stick-the-dealer", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "- true: The dealer may not pass in the second round" in done.stdout
    assert "rule stick-the-dealer, in place of throw-in:" in done.stdout
    ranged = variants("euchre", "game-target", cwd=tmp_path)
    assert 'in hello: {"minimum": 1, "maximum": 1000}' in ranged.stdout


def test_a_wrong_name_is_one_line(tmp_path):
    unknown = variants("euchr", cwd=tmp_path)
    assert unknown.returncode == 1 and "unknown variant 'euchr'" in unknown.stderr and "Traceback" not in unknown.stderr
    no_option = variants("euchre", "stick-the-deal", cwd=tmp_path)
    assert no_option.returncode == 2 and "has no option 'stick-the-deal'" in no_option.stderr
