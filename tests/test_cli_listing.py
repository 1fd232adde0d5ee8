"""``euchre-spec variants`` and ``variants NAME`` read at 80 columns and in a pipe: a list
where the table would not fit, every line within the width (but for an address that cannot
be broken), every variant id and option key whole at the start of its own line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from reference_impl.catalog import variant_ids
from reference_impl.resolve import resolve

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, columns: int = 80) -> str:
    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1"}
    env.pop("FORCE_COLOR", None)
    result = subprocess.run([sys.executable, "-m", "conformance", *args], cwd=ROOT, capture_output=True, text=True,
                            env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def too_wide(text: str, width: int) -> list[str]:
    """Lines over ``width`` that are not one unbreakable word (an address)."""
    return [line for line in text.splitlines() if len(line) > width and len(line.split()) > 1]


@pytest.mark.parametrize("columns", [80, 60])
def test_the_list_of_variants_fits_and_keeps_names_whole(columns):
    out = run("variants", columns=columns)
    assert not too_wide(out, columns), too_wide(out, columns)[:3]
    starts = {line.split(":")[0] for line in out.splitlines() if line and not line[0].isspace()}
    missing = [v for v in variant_ids() if v not in starts]
    assert not missing, f"variant ids not whole at the start of a line: {missing}"
    assert "│" not in out, "a table drawn where it does not fit"


def test_the_options_of_euchre_fit_and_keep_keys_whole():
    out = run("variants", "euchre")
    assert not too_wide(out, 80), too_wide(out, 80)[:3]
    starts = {re.split(r"\s", line)[0] for line in out.splitlines() if line and not line[0].isspace()}
    keys = list(resolve("euchre").table["options"])
    missing = [k for k in keys if k not in starts]
    assert not missing, f"option keys not whole at the start of a line: {missing}"
    assert "│" not in out


def test_a_wide_terminal_still_gets_the_table():
    assert "│" in run("variants", columns=200)
