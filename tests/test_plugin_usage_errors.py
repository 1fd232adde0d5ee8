"""The pytest plugin's usage errors are one line each, said once before anything runs (as
``check`` says them), never a traceback per case nor a silent session of no test."""

from __future__ import annotations

import pytest

from robustness_fixtures import FIXTURES

pytest_plugins = ["pytester"]


@pytest.mark.parametrize("args, words", [
    (["--euchre-skip", "/nonexistent/skip.txt"], "--euchre-skip: /nonexistent/skip.txt: $: cannot read the skip file"),
    (["--euchre-timeout", "nan"], "--euchre-timeout: expected a positive, finite number of seconds, got 'nan'"),
    (["--euchre-timeout", "-1"], "--euchre-timeout: expected a positive, finite number of seconds, got '-1'"),
    (["--euchre-variant", "no-such-variant"], "--euchre-variant: unknown variant 'no-such-variant' (known: "),
    (["--euchre-case", "no-such-case-*"], "euchre-spec: no case matches the selection"),
    (["--euchre-engine", ""], "--euchre-engine: the engine command is empty"),
])
def test_a_usage_error_is_one_line(pytester, args, words):
    engine = [] if "--euchre-engine" in args else ["--euchre-engine", "reference"]
    result = pytester.runpytest_subprocess(*engine, "--euchre-corpus", str(FIXTURES), "-p", "no:cacheprovider", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.errlines if line.strip()]
    assert len(errors) == 1 and words in errors[0], result.errlines
    assert "Traceback" not in "\n".join(result.outlines + result.errlines)


def test_a_hostile_skip_line_is_refused_at_once(pytester, tmp_path):
    skip = tmp_path / "skip.txt"
    skip.write_text("[" * 100_000 + "\n")
    result = pytester.runpytest_subprocess("--euchre-engine", "reference", "--euchre-corpus", str(FIXTURES),
                                           "--euchre-skip", str(skip), "-p", "no:cacheprovider", timeout=60)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "line 1: a case id or glob of 100000 characters" in "\n".join(result.errlines)
