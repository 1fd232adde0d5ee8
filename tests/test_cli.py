"""The euchre-spec command line, run as a user runs it: as a subprocess (each command at
least once; a test repeated for every variant calls the same entry point in-process)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import main
from reference_impl.catalog import variant_ids, variants_dir

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_variants_lists_each_variant_with_its_summary():
    result = run("variants")
    assert result.returncode == 0
    for path in variants_dir().glob("*.yaml"):
        assert path.stem in result.stdout
    assert "partnership" in result.stdout


def test_validate_passes_the_shipped_tables():
    result = run("validate", "spec/variants")
    assert result.returncode == 0, result.stdout
    assert "file(s) valid" in result.stdout


def test_validate_reports_file_line_and_path(tmp_path):
    broken = tmp_path / "euchre.yaml"
    broken.write_text((variants_dir() / "euchre.yaml").read_text().replace("  count: 4\n", "  count: many\n"))
    result = run("validate", str(broken))
    assert result.returncode == 1
    line = next(i for i, text in enumerate(broken.read_text().splitlines(), 1) if "count: many" in text)
    assert f"{broken}:{line}: $.players.count:" in result.stdout


def test_play_one_game_prints_a_transcript():
    result = run("play", "euchre", "--seed", "3", "--option", "stick-the-dealer=true")
    assert result.returncode == 0, result.stderr
    assert "stick-the-dealer=True" in result.stdout
    assert re.search(r"Hand 1, dealer seat \d", result.stdout)
    assert "trick:" in result.stdout and "Game over:" in result.stdout


def test_play_is_reproducible_from_the_seed():
    assert run("play", "euchre", "--seed", "11").stdout == run("play", "euchre", "--seed", "11").stdout


def test_play_many_games_prints_a_summary():
    result = run("play", "euchre", "--games", "50", "--seed", "1", "--option", "benny=joker")
    assert result.returncode == 0, result.stderr
    assert re.search(r"games\s+│\s+50", result.stdout)
    assert "hands per second" in result.stdout


@pytest.mark.parametrize("variant", variant_ids())
def test_every_variant_plays_clean(variant, capsys):
    """``main``, the entry point the subprocesses above run, called in-process: a start of
    the interpreter and its imports for each of two dozen variants was most of this test."""
    status = main(["play", variant, "--games", "30", "--seed", "3"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert re.search(r"games\s+│\s+30", out)


def test_unknown_option_is_a_clear_error():
    result = run("play", "euchre", "--option", "no-such-option=1")
    assert result.returncode == 1      # an input refused, not a malformed command line
    assert "unknown option 'no-such-option'" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_option_value_is_a_clear_error():
    result = run("play", "euchre", "--option", "game-target=99999")
    assert result.returncode == 1 and "game-target" in result.stderr and "Traceback" not in result.stderr


def test_unknown_variant_is_a_clear_error():
    result = run("play", "nonesuch")
    assert result.returncode == 1 and "unknown variant 'nonesuch'" in result.stderr


def test_a_reader_that_stops_early_ends_the_command_cleanly():
    """`euchre-spec variants euchre | head -1` (or `| grep -q`) is no failure: the command ends
    with status 0 and says nothing when its reader closes the pipe, so a pipeline under
    `set -o pipefail` (as .ci/check-wheel runs) passes. The pipe is shrunk to one page so that
    the command is still writing when the reader closes it, whatever the machine's speed."""
    import fcntl
    import os
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, 1031, 4096)          # F_SETPIPE_SZ: the listing outgrows the pipe
    process = subprocess.Popen([sys.executable, "-m", "conformance", "variants", "euchre"], stdout=write_end,
                               stderr=subprocess.PIPE, text=True)
    os.close(write_end)
    with os.fdopen(read_end) as reader:
        assert reader.readline().strip()
    assert process.wait(timeout=120) == 0
    assert process.stderr.read() == ""
