"""The pytest plugin: `pytest --euchre-engine CMD` runs every case as a test item."""

from pathlib import Path

import pytest

from conformance.cases import load_cases, load_corpus_meta
from reference_impl import cache

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def shared_cache(monkeypatch):
    """pytester gives its runs a HOME of their own, and so an empty cache: every run would
    parse and validate the whole corpus again (half a minute each). They share ours."""
    root = cache.cache_root()
    if root is not None:
        monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent))

# The runs below leave out Hypothesis's pytest plugin, which the plugin under test has nothing
# to do with: importing it was half of each inner pytest's start (0.5 s of CPU, in every xdist
# worker too). test_every_case_is_an_item runs among every installed plugin.
NO_HYPOTHESIS = ("-p", "no:hypothesispytest")

CASE = Path(__file__).resolve().parent.parent / "conformance" / "corpus" / "euchre" / "made-three-tricks.yaml"


def corpus_size(variant: str | None = None) -> int:
    cases, problems = load_cases(tags=load_corpus_meta().tags)
    assert not problems
    return sum(1 for case in cases if variant in (None, case.variant))


def test_every_case_is_an_item(pytester):
    """Collected, not run: the corpus gate runs every case already."""
    result = pytester.runpytest_subprocess("--euchre-engine", "reference", "-p", "no:cacheprovider", "--collect-only", "-q")
    assert result.ret == 0
    items = [line for line in result.stdout.lines if "euchre-spec/" in line]
    assert len(items) == corpus_size()


def test_the_cases_of_one_variant_pass_under_xdist(pytester):
    result = pytester.runpytest_subprocess("--euchre-engine", "reference", "--euchre-variant", "two-hand",
                                           "-p", "no:cacheprovider", *NO_HYPOTHESIS, "-n", "2")
    result.assert_outcomes(passed=corpus_size("two-hand"))


def test_serial_run_of_selected_cases(pytester):
    result = pytester.runpytest_subprocess("--euchre-engine", "reference", "--euchre-case", "made-*",
                                           "--euchre-case", "two-hand-dummy-*", "-p", "no:cacheprovider", *NO_HYPOTHESIS)
    cases, _ = load_cases(tags=load_corpus_meta().tags)
    expected = sum(1 for c in cases if c.id.startswith(("made-", "two-hand-dummy-")))
    assert expected >= 5
    result.assert_outcomes(passed=expected)


def test_a_failing_case_fails_with_its_step_and_rule(pytester):
    wrong = pytester.path / "wrong.yaml"
    wrong.write_text(CASE.read_text().replace("id: made-three-tricks", "id: wrong-points")
                     .replace("hand_points: [0, 1]", "hand_points: [0, 2]"))
    result = pytester.runpytest_subprocess("--euchre-engine", "reference", "--euchre-corpus", str(wrong), "-p", "no:cacheprovider", *NO_HYPOTHESIS)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*wrong hand_points*", "*expected [[]0, 2[]], engine said [[]0, 1[]]*", "*rule made*"])


def test_a_skip_file_turns_a_known_failure_into_xfail(pytester):
    wrong = pytester.path / "wrong.yaml"
    wrong.write_text(CASE.read_text().replace("id: made-three-tricks", "id: wrong-points")
                     .replace("hand_points: [0, 1]", "hand_points: [0, 2]"))
    skip = pytester.path / "skip.txt"
    skip.write_text("wrong-*  # known\nmade-three-tricks\n")
    result = pytester.runpytest_subprocess("--euchre-engine", "reference", "--euchre-corpus", str(wrong),
                                           "--euchre-corpus", str(CASE), "--euchre-skip", str(skip), "-p", "no:cacheprovider", *NO_HYPOTHESIS)
    result.assert_outcomes(xfailed=1, failed=1)           # the listed case that passes fails the run
    result.stdout.fnmatch_lines(["*unexpected-pass*"])


def test_without_the_option_the_plugin_adds_nothing(pytester):
    pytester.makepyfile("def test_one():\n    assert True\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *NO_HYPOTHESIS)
    result.assert_outcomes(passed=1)


DECLARED = Path(__file__).resolve().parent / "claim_engines" / "declared_engine.py"
EUCHRE = CASE.parent


def test_the_header_counts_the_cases_and_collected_counts_them_too(pytester):
    cases, _ = load_cases([EUCHRE], load_corpus_meta().tags)
    result = pytester.runpytest_subprocess("--euchre-engine", "reference", "--euchre-corpus", str(EUCHRE),
                                           "-p", "no:cacheprovider", *NO_HYPOTHESIS, "--collect-only", "-n", "0")
    result.stdout.fnmatch_lines([f"collected {len(cases)} items",
                                 f"euchre-spec: {len(cases)} case(s) of corpus {load_corpus_meta().version} on reference"])


def test_the_summary_says_how_much_ran_and_require_fails_a_partial_claim(pytester):
    engine = f"{__import__('sys').executable} {DECLARED}"
    args = ("--euchre-engine", engine, "--euchre-corpus", str(EUCHRE), "-p", "no:cacheprovider", *NO_HYPOTHESIS)
    result = pytester.runpytest_subprocess(*args, "-n", "2")
    assert result.ret == 0
    result.stdout.re_match_lines([r"ran \d+ of \d+ euchre cases \(\d+%\); declare .+ to run \d+ more"])
    required = pytester.runpytest_subprocess(*args, "-n", "2", "--euchre-require")
    assert required.ret == 1
    required.stdout.fnmatch_lines(["*euchre-spec: --require: *"])
    assert pytester.runpytest_subprocess(*args, "--euchre-fail-under", "1").ret == 0


def test_an_expected_failure_is_reported_by_its_reason_not_a_traceback(pytester):
    """Formatting the traceback of every xfail() cost ten times the case itself: a skip file
    of 180 known failures made the run a minute longer (see tools/bench_plugin_skip.py)."""
    wrong = pytester.path / "wrong.yaml"
    wrong.write_text(CASE.read_text().replace("id: made-three-tricks", "id: wrong-points")
                     .replace("hand_points: [0, 1]", "hand_points: [0, 2]"))
    skip = pytester.path / "skip.txt"
    skip.write_text("wrong-*  # known\n")
    pytester.makeconftest("""
import json
def pytest_runtest_logreport(report):
    if getattr(report, "wasxfail", None) is not None:
        with open("xfail-reprs.json", "a") as out:
            out.write(json.dumps(str(report.longrepr)) + "\\n")
""")
    result = pytester.runpytest_subprocess("--euchre-engine", "reference", "--euchre-corpus", str(wrong),
                                           "--euchre-skip", str(skip), "-p", "no:cacheprovider", *NO_HYPOTHESIS, "-n", "0")
    result.assert_outcomes(xfailed=1)
    import json
    reprs = [json.loads(line) for line in (pytester.path / "xfail-reprs.json").read_text().splitlines()]
    assert reprs and all("Traceback" not in r and "def runtest" not in r and len(r.splitlines()) <= 2 for r in reprs), reprs
