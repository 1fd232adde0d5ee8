"""The built site in a real browser: Debian's headless Chromium driven by playwright-core
(tests/browser/check_site.mjs; the npm packages are installed with `npm ci` from the
committed lock file, never a downloaded browser).

For the home page, Euchre, Five Hundred, the comparison, a case and the compliance page, at
1280 and 390 pixels: a screenshot of the first screen, no sideways scroll of the page, no
request leaving the site, no script error; and an axe-core audit with no serious or
critical violation. Opened from disk (file://): the search answers and the step-through
viewer replays a hand with the legal cards highlighted.

Set ``EUCHRE_SITE_SCREENSHOTS=DIR`` to keep the screenshots.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from site_support import ROOT, built_site, serve, shared_dir  # noqa: F401 (a fixture)

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
BROWSER = ROOT / "tests" / "browser"
PAGES = ["index.html", "variants/euchre.html", "variants/five-hundred.html", "variants/compare.html",
         "corpus/made-three-tricks.html", "compliance/index.html"]
WIDTHS = [1280, 390]

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no browser: /usr/bin/chromium is not installed "
                       "(CI installs it with `apt-get install -y chromium`)"),
    pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                       reason="Node.js and npm are needed to drive the browser (playwright-core, axe-core)"),
]


@pytest.fixture(scope="module")
def driver(tmp_path_factory) -> Path:
    """tests/browser with its npm packages installed (once per run, under a lock)."""
    shared = shared_dir(tmp_path_factory)
    with open(shared / "euchre-npm.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        installed = BROWSER / "node_modules" / ".package-lock.json"
        lock_file = BROWSER / "package-lock.json"
        if not installed.is_file() or installed.stat().st_mtime < lock_file.stat().st_mtime:
            result = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
                                    cwd=BROWSER, capture_output=True, text=True, timeout=300,
                                    env={**os.environ, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"})
            assert result.returncode == 0, "npm ci failed:\n" + result.stderr[-3000:]
    return BROWSER


def run_browser(config: dict) -> dict:
    result = subprocess.run(["node", str(BROWSER / "check_site.mjs"), json.dumps(config)], cwd=BROWSER,
                            capture_output=True, text=True, timeout=240,
                            env={**os.environ, "CHROMIUM": str(CHROMIUM), "HOME": os.environ.get("HOME", "/tmp")})
    assert result.returncode == 0, f"the browser run failed:\n{result.stderr[-3000:]}"
    return json.loads(result.stdout)["pages"]


def screenshots(tmp_path_factory) -> Path:
    chosen = os.environ.get("EUCHRE_SITE_SCREENSHOTS")
    return Path(chosen) if chosen else shared_dir(tmp_path_factory) / "site-screenshots"


@pytest.mark.parametrize("page", PAGES)
def test_page_in_headless_chromium(page, built_site, driver, tmp_path_factory):
    with serve(built_site) as url:
        seen = run_browser({"base": url, "pages": [page], "widths": WIDTHS, "out": str(screenshots(tmp_path_factory)),
                            "axe": True, "concurrency": 2})[page]
    for width in WIDTHS:
        found = seen[str(width)]
        assert "failed" not in found, found.get("failed")
        assert found["status"] == 200
        assert found["h1"], f"{page} at {width}px has no title"
        assert not found["page_scrolls_sideways"], (
            f"{page} scrolls sideways at {width}px ({found['scroll_width']}px wide): {found['wide']}")
        assert found["offsite"] == [], f"{page} asked the network for {found['offsite'][:3]}"
        assert found["errors"] == [], f"{page}: script errors {found['errors'][:3]}"
        assert Path(found["screenshot"]).stat().st_size > 1000
    serious = [v for v in seen[str(WIDTHS[0])]["axe"] if v["impact"] in ("serious", "critical")]
    assert not serious, f"{page}: axe-core finds " + "; ".join(
        f"{v['id']} ({v['impact']}, {v['count']}): {v['help']} e.g. {v['examples'][:1]}" for v in serious)
    if page.startswith("variants/") and page != "variants/compare.html":
        assert seen[str(WIDTHS[0])]["cards"] > 50


VIEWER = """(() => {
  const viewer = document.querySelector(".es-viewer.es-viewer-ready");
  if (!viewer) return {ready: false};
  const next = viewer.querySelector(".es-v-next");
  let legal = 0, steps = 0;
  while (!next.disabled && steps < 200) {
    next.click();
    steps++;
    legal = Math.max(legal, viewer.querySelectorAll(".es-card.es-legal").length);
  }
  return {ready: true, steps: steps, legal: legal, text: viewer.querySelector(".es-v-text").textContent};
})()"""


def test_search_and_viewer_work_from_disk(built_site, driver):
    """Opened as files, with no server: the search box answers from the prebuilt index, and
    the viewer steps through a hand to its end, highlighting the legal cards."""
    page = "variants/euchre.html"
    seen = run_browser({"base": built_site.as_uri() + "/", "pages": [page], "widths": [1280], "search": "bower",
                        "evaluate": {page: VIEWER}})[page]["1280"]
    assert "failed" not in seen, seen.get("failed")
    assert seen["offsite"] == [] and seen["errors"] == []
    assert seen["search"].get("results", 0) > 0, f"the search does not answer from disk: {seen['search']}"
    assert seen["search"]["href"].startswith("file://")
    viewer = seen["evaluated"]
    assert viewer["ready"], "the step-through viewer did not start"
    assert viewer["steps"] >= 20 and viewer["legal"] >= 1
    assert viewer["text"].startswith("The hand is over")
