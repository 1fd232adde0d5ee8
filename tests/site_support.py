"""The rules site built once per test run (``mkdocs build --strict``), for every test that
reads it. The modules that read it are in one xdist group ("built-site", with ``--dist
loadgroup``), so one worker builds it and runs them all: a test on another worker waiting
for the build used to spend its own timeout waiting, and timed out on a loaded machine. The
build is still under a file lock (whichever worker gets there first builds it, the others
reuse it), for runs without the groups. Import the fixture into a test module with ``from
site_support import built_site`` and mark the module ``pytestmark = BUILT_SITE``.

The build is the project's strict-site gate, so it is run without ``-q``: with ``-q``
mkdocs silences its warnings before strict mode counts them, and a site with 104 dead
anchors built with exit status 0. The gate fails on a non-zero exit *and* on any WARNING
or ERROR line in the log, whatever mkdocs' exit status says.
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


# The marks of every module that reads the built site: one worker runs them all (the site is
# built once, and no test waits on another worker for it), and the test that happens to build
# it has room for the build on a loaded machine (about 40 s of CPU; five times that in wall
# time with the two cores shared, which the suite's 300 s hang guard did not leave).
BUILD_TIMEOUT = 900
BUILT_SITE = [pytest.mark.xdist_group("built-site"), pytest.mark.timeout(BUILD_TIMEOUT + 60)]

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


def build(out: Path, lock_dir: Path, name: str, env: dict[str, str] | None = None, timeout: int = 300) -> Path:
    """Build the site into ``out`` unless it is built (or failed) already; fail the test on a
    build error or on any warning in the build's log."""
    with open(lock_dir / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        failure = lock_dir / f"{name}.failed"
        if not (out / "index.html").is_file() and not failure.exists():
            problems = build_problems(*strict_build(out, lock_dir, env=env, timeout=timeout))
            if problems:
                shutil.rmtree(out, ignore_errors=True)
                failure.write_text("\n".join(problems), encoding="utf-8")
        if failure.exists():
            lines = failure.read_text(encoding="utf-8").splitlines()
            pytest.fail(f"mkdocs build --strict: {len(lines)} problem line(s):\n" + "\n".join(lines[:60]))
    return out


def shared_dir(tmp_path_factory) -> Path:
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="module")
def built_site(tmp_path_factory) -> Path:
    """The built site, shared by every worker of this test run."""
    shared = shared_dir(tmp_path_factory)
    return build(shared / "euchre-site", shared, "euchre-site", timeout=BUILD_TIMEOUT)


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
