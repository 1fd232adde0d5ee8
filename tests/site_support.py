"""The rules site built once per test run (``mkdocs build --strict``), for every test that
reads it, and the second strict build of a site whose other variants have no case.

Both builds start in the background as soon as a process has collected a test that needs
them (:func:`start_builds`, from ``pytest_collection_finish`` in conftest.py), and the tests
that read them are ordered after every other test (:func:`site_last`): the builds are done
by the time those tests start, and no worker sits waiting for them. So the tests need no
xdist group of their own: both workers run them. Each build is under a file lock (whichever
process gets there first builds it, the others wait for it and reuse it); a test's own
fixture still builds the site if nothing has started it (a run without the hook).

The build is the project's strict-site gate, so it is run without ``-q``: with ``-q``
mkdocs silences its warnings before strict mode counts them, and a site with 104 dead
anchors built with exit status 0. The gate fails on a non-zero exit *and* on any WARNING
or ERROR line in the log, whatever mkdocs' exit status says; a build started in the
background fails the tests that read it with the same message.

Import the fixture into a test module with ``from site_support import built_site`` and mark
the module ``pytestmark = BUILT_SITE``.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import html.parser
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from support import shared_cache_env

ROOT = Path(__file__).resolve().parent.parent


# The marks of every module that reads the built site: the test that waits for the build (or
# happens to run it) has room for it on a loaded machine (about 40 s of CPU; five times that
# in wall time with the two cores shared, which the suite's 300 s hang guard did not leave).
BUILD_TIMEOUT = 900
BUILT_SITE = [pytest.mark.timeout(BUILD_TIMEOUT + 60)]

# A line of mkdocs' log that makes the gate fail: its WARNING and ERROR lines (its own and
# its plugins' and hooks', which log through it).
PROBLEM_LINE = re.compile(r"^\s*(?:WARNING|ERROR)\b")


def strict_build(out: Path, home: Path, config: Path | None = None, env: dict[str, str] | None = None,
                 timeout: int = 300) -> tuple[int, str]:
    """Run ``mkdocs build --strict`` (never ``-q``) and return its exit status and whole log."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)]
    if config is not None:
        command += ["-f", str(config)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                            env={"NO_MKDOCS_2_WARNING": "1", "PATH": "", "HOME": str(home), "NO_COLOR": "1",
                                 **shared_cache_env(), **(env or {})})
    return result.returncode, (result.stdout or "") + (result.stderr or "")


def build_problems(status: int, log: str) -> list[str]:
    """What makes a strict build fail the gate: every WARNING or ERROR line of its log, or its
    exit status when it printed none."""
    problems: list[str] = []
    in_problem = False
    for line in log.splitlines():
        if PROBLEM_LINE.search(line):
            problems.append(line.strip())
            in_problem = True
        elif in_problem and line.startswith("  ") and line.strip():
            problems[-1] += " " + line.strip()      # the list a warning goes on with (pages left out of the nav)
        else:
            in_problem = False
    if status != 0 and not problems:
        problems = [f"mkdocs exited with status {status}:", *log.strip().splitlines()[-20:]]
    return problems


def _build_once(out: Path, failure: Path, env: dict[str, str] | None, timeout: int, home: Path) -> None:
    """With the build's lock held: build unless built (or failed) already; a failed build
    leaves its problem lines in ``failure`` for every test that reads the site."""
    if (out / "index.html").is_file() or failure.exists():
        return
    try:
        problems = build_problems(*strict_build(out, home, env=env, timeout=timeout))
    except subprocess.TimeoutExpired:
        problems = [f"ERROR the build did not end in {timeout} s"]
    if problems:
        shutil.rmtree(out, ignore_errors=True)
        failure.write_text("\n".join(problems), encoding="utf-8")


def build(out: Path, lock_dir: Path, name: str, env: dict[str, str] | None = None, timeout: int = 300) -> Path:
    """Build the site into ``out`` unless it is built (or failed) already, waiting for a build
    under way; fail the test on a build error or on any warning in the build's log."""
    failure = lock_dir / f"{name}.failed"
    with open(lock_dir / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _build_once(out, failure, env, timeout, lock_dir)
    if failure.exists():
        lines = failure.read_text(encoding="utf-8").splitlines()
        pytest.fail(f"mkdocs build --strict: {len(lines)} problem line(s):\n" + "\n".join(lines[:60]))
    return out


def shared_dir(tmp_path_factory) -> Path:
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


# The two builds, by name: the fixture that reads each, and its build's environment (a
# function of the shared folder, so the corpus of the second is made only when it is built).
SITE = "euchre-site"
UNTESTED_SITE = "euchre-site-untested"


@pytest.fixture(scope="module")
def built_site(tmp_path_factory) -> Path:
    """The built site, shared by every worker of this test run."""
    shared = shared_dir(tmp_path_factory)
    return build(shared / SITE, shared, SITE, timeout=BUILD_TIMEOUT)


def euchre_only_corpus(shared: Path) -> Path:
    """A corpus of six Euchre cases and those the hand-written pages link to (their pages
    must exist): every other variant has no case."""
    corpus = shared / "euchre-only-corpus"
    if corpus.exists():
        return corpus
    tmp = shared / f"euchre-only-corpus.{os.getpid()}.{threading.get_ident()}"
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "euchre").mkdir(parents=True)
    source = ROOT / "conformance" / "corpus"
    shutil.copy(source / "corpus.yaml", tmp / "corpus.yaml")
    linked = {name for page in (ROOT / "docs").glob("*.md")
              for name in re.findall(r"\(corpus/([a-z0-9-]+)\.md", page.read_text(encoding="utf-8"))}
    chosen = sorted((source / "euchre").glob("*.yaml"))[:6]
    chosen += [path for path in sorted((source / "euchre").glob("*.yaml")) if path.stem in linked and path not in chosen]
    for case in chosen:
        shutil.copy(case, tmp / "euchre" / case.name)
    try:
        tmp.rename(corpus)
    except OSError:                     # another process made it first
        shutil.rmtree(tmp, ignore_errors=True)
    return corpus


def _untested_env(shared: Path) -> dict[str, str]:
    return {"EUCHRE_SITE_CORPUS": str(euchre_only_corpus(shared))}


@pytest.fixture(scope="module")
def untested_site(tmp_path_factory) -> tuple[Path, Path]:
    """The site built strict from :func:`euchre_only_corpus`, and that corpus."""
    shared = shared_dir(tmp_path_factory)
    env = _untested_env(shared)
    return build(shared / UNTESTED_SITE, shared, UNTESTED_SITE, env, timeout=BUILD_TIMEOUT), Path(env["EUCHRE_SITE_CORPUS"])


BUILDS = {"built_site": (SITE, lambda shared: None), "untested_site": (UNTESTED_SITE, _untested_env)}


def needed_builds(items) -> list[str]:
    """The fixtures of :data:`BUILDS` that the collected tests use, the site's first."""
    used = {name for item in items for name in getattr(item, "fixturenames", ())}
    return [fixture for fixture in BUILDS if fixture in used]


def site_last(items: list) -> None:
    """Order the tests that read a built site after all others (stable, in place): by then the
    builds started at collection are done. Every worker collects the same order."""
    items.sort(key=lambda item: any(name in BUILDS for name in getattr(item, "fixturenames", ())))


_starter: threading.Thread | None = None


def start_builds(items, shared: Path) -> None:
    """Start the builds the collected tests need, in one background thread of this process.
    Each build whose lock another process holds is left to it (the fixture waits for it): with
    two workers, one builds the site and the other the second site, at the same time."""
    global _starter
    wanted = needed_builds(items)
    if not wanted or _starter is not None:
        return

    def run() -> None:
        for fixture in wanted:
            name, env_of = BUILDS[fixture]
            with open(shared / f"{name}.lock", "w") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue                # another process is building it
                try:
                    _build_once(shared / name, shared / f"{name}.failed", env_of(shared), BUILD_TIMEOUT, shared)
                except Exception as exc:    # the fixture reports it: it builds again, or reads the failure
                    print(f"site_support: background build of {name} failed: {exc!r}", file=sys.stderr)

    _starter = threading.Thread(target=run, name="site-builds", daemon=True)
    _starter.start()


def wait_for_builds() -> None:
    """At the end of the session: leave no mkdocs build running behind this process."""
    if _starter is not None:
        _starter.join()


def html_ids(page: Path) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', page.read_text(encoding="utf-8")))


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(directory: Path):
    """The built site over http on 127.0.0.1 (a random port)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class PageText(html.parser.HTMLParser):
    """A built page's article: its headings in order, and its prose (text outside code,
    scripts, card faces and the protocol's token tables), element by element."""

    SKIP = {"code", "pre", "script", "style", "kbd", "samp"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0                  # inside <article>
        self.skip = 0
        self.stack: list[tuple[str, bool]] = []
        self.headings: list[tuple[int, str, str]] = []
        self.heading: list[str] | None = None
        self.heading_meta: tuple[int, str] | None = None
        self.prose: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article":
            self.depth += 1
        if tag in ("br", "img", "input", "hr", "meta", "link"):
            return
        classes = (attrs.get("class") or "").split()
        skipping = tag in self.SKIP or "es-script" in classes
        self.stack.append((tag, skipping))
        if skipping:
            self.skip += 1
        if self.depth and re.fullmatch(r"h[1-6]", tag):
            self.heading = []
            self.heading_meta = (int(tag[1]), attrs.get("id") or "")

    def handle_endtag(self, tag):
        if tag == "article":
            self.depth -= 1
        while self.stack:
            open_tag, skipping = self.stack.pop()
            if skipping:
                self.skip -= 1
            if open_tag == tag:
                break
        if self.heading is not None and re.fullmatch(r"h[1-6]", tag):
            level, anchor = self.heading_meta
            self.headings.append((level, " ".join("".join(self.heading).split()).rstrip("¶ "), anchor))
            self.heading = None

    def handle_data(self, data):
        if not self.depth:
            return
        if self.heading is not None:
            self.heading.append(data)
        if not self.skip:
            self.prose.append(data)


def page_text(page: Path) -> PageText:
    parser = PageText()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser
