"""Everything an engine says is shown as text: no control character it sends reaches the
console, a Markdown summary, the pytest plugin's output or the site as a control.

``tests/faulty_engines/terminal_escapes.py`` puts escape sequences (a window title, a
hyperlink, an erased line and a forged green "PASSED"), a right-to-left override and line
breaks into its name, its error messages, its values and its stderr."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conformance.reports.runs import read_run
from conformance.reports.summary import summary_markdown
from conformance.common.shown import md_code, md_inline, one_line, visible, visible_data
from robustness_fixtures import ENGINES, FIXTURES, ROOT

pytest_plugins = ["pytester"]

PY = sys.executable
CONTROLS = ("\x1b", "\x07", "\r", "\u202e", "\u202c", "\x9b")


def hostile(mode: str) -> str:
    return f"{PY} {ENGINES / 'terminal_escapes.py'} {mode}"


def raw_controls(text: str) -> list[str]:
    return [repr(char) for char in CONTROLS if char in text]


@pytest.mark.parametrize("mode", ["message", "value"])
def test_check_shows_an_engines_escape_sequences_as_text(tmp_path, mode):
    report = tmp_path / "r.jsonl"
    result = subprocess.run([PY, "-m", "conformance.cli", "check", "--engine", hostile(mode), "--corpus", str(FIXTURES),
                             "--json", str(report)], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={"COLUMNS": "300", "PATH": "/usr/bin:/bin", "FORCE_COLOR": "1"})
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout + result.stderr
    # rich's own colours (FORCE_COLOR) are the only escapes: every ESC is followed by one of its SGR codes
    for index in [i for i, char in enumerate(out) if char == "\x1b"]:
        assert out[index + 1] == "[" and out[index + 2:index + 12].split("m")[0].replace(";", "").isdigit(), out[index:index + 20]
    assert "\\x1b]0;owned" in out and "\\u202e" in out
    assert raw_controls(out.replace("\x1b", "")) == [], "a control of the engine's reached the terminal"
    head = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
    assert "\x1b" in head["engine"]["name"], "the report keeps what the engine said (JSON escapes it)"
    summary = summary_markdown(read_run(report))
    assert raw_controls(summary) == [] and "<" not in summary.replace("\\<", ""), summary


def test_the_pytest_plugin_shows_an_engines_escape_sequences_as_text(pytester):
    result = pytester.runpytest_subprocess("--euchre-engine", hostile("message"), "--euchre-corpus", str(FIXTURES),
                                           "-p", "no:cacheprovider", "--color=no")
    result.assert_outcomes(failed=4)      # every case reaches a 2nd act
    text = "\n".join(result.outlines + result.errlines)
    assert raw_controls(text) == [], raw_controls(text)
    assert "\\x1b]0;owned" in text


def test_visible_escapes_controls_and_keeps_text():
    assert visible("a\x1b[2Kb\tc\nd\re\u202ef\x7f\x85é♠") == "a\\x1b[2Kb\tc\nd\\x0de\\u202ef\\x7f\\x85é♠"
    assert one_line("a\nb\tc") == "a\\nb\\tc"
    assert visible_data({"k\x1b": ["\x07", 5, None, {"x": "\r"}]}) == {"k\\x1b": ["\\x07", 5, None, {"x": "\\x0d"}]}


def test_markdown_helpers_make_no_link_tag_or_cell():
    assert md_inline("[x](http://e) <b>*y*</b> | \x1b") == "\\[x\\](http://e) \\<b\\>\\*y\\*\\</b\\> \\| \\\\x1b"
    assert md_code("a`b|c") == "``a`b\\|c``"
    assert md_code("`x`") == "`` `x` ``"
