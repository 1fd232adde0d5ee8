"""The site builds with `mkdocs build --strict` (no warnings), loads nothing from the network,
has a page for every variant whose headings carry every clause id the corpus cites, and
renders in a real browser (headless Chromium, where one is installed).

The site is built once per test run, whichever pytest-xdist worker gets there first; the
others wait for it and reuse it.
"""

from __future__ import annotations

import contextlib
import fcntl
import filecmp
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rules_site.corpus import load_site_cases
from reference_impl.catalog import schema_dir, variant_ids

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
REPORTS = ROOT / "docs" / "compliance" / "reports"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The built site (``mkdocs build --strict``), shared by every worker of this test run."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    out = shared / "euchre-site"
    with open(shared / "euchre-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        failure = shared / "euchre-site.failed"
        if not (out / "index.html").is_file() and not failure.exists():
            result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)], cwd=ROOT,
                                    capture_output=True, text=True, timeout=300,
                                    env={"NO_MKDOCS_2_WARNING": "1", "PATH": "", "HOME": str(shared)})
            if result.returncode != 0:
                failure.write_text(result.stderr or result.stdout or "mkdocs failed", encoding="utf-8")
        if failure.exists():
            pytest.fail("mkdocs build --strict failed:\n" + failure.read_text(encoding="utf-8"))
    return out


def html_ids(page: Path) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', page.read_text(encoding="utf-8")))


def test_mkdocs_build_strict(site):
    assert (site / "protocol" / "index.html").is_file()
    for page in ("index.html", "adapter-tutorial/index.html", "case-format/index.html", "cli/index.html",
                 "variants/index.html", "variants/compare/index.html", "compliance/index.html",
                 "corpus/index.html", "schema/index.html"):
        assert (site / page).is_file(), page


def test_nothing_loaded_from_the_network(site):
    loaded = []
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        loaded += re.findall(r'<(?:script|img|link|iframe|source|video|audio)[^>]+(?:src|href)="((?:https?:)?//[^"]+)"', text)
        loaded += re.findall(r'url\(\s*["\']?((?:https?:)?//[^"\')]+)', text)
    for sheet in site.rglob("*.css"):
        text = sheet.read_text(encoding="utf-8", errors="replace")
        loaded += re.findall(r'@import\s+(?:url\()?\s*["\']?((?:https?:)?//[^"\')\s]+)', text)
        loaded += re.findall(r'url\(\s*["\']?((?:https?:)?//[^"\')]+)', text)
    assert loaded == [], f"assets loaded from the network: {sorted(set(loaded))[:5]}"


def test_every_variant_has_a_page_with_a_worked_example(site):
    for variant in variant_ids():
        page = site / "variants" / variant / "index.html"
        assert page.is_file(), f"no page for variant {variant}"
        text = page.read_text(encoding="utf-8")
        assert 'id="worked-examples"' in text
        assert re.search(r'id="example-[a-z0-9-]+"', text), f"{variant}: no worked example"
        assert 'class="es-tricks"' in text, f"{variant}: the worked example has no trick"


def test_every_cited_clause_is_a_heading_on_its_variant_page(site):
    """Done when: every clause anchor cited by a case resolves to a heading on the site."""
    ids: dict[str, set[str]] = {}
    missing = []
    for case in load_site_cases():
        page = site / "variants" / case.variant / "index.html"
        if case.variant not in ids:
            ids[case.variant] = html_ids(page) if page.is_file() else set()
            headings = re.findall(r'<h[1-6][^>]*\sid="([^"]+)"', page.read_text(encoding="utf-8")) if page.is_file() else []
            ids[case.variant] &= set(headings)
        for clause in case.cited_clauses():
            if clause not in ids[case.variant]:
                missing.append(f"{case.id}: {case.variant}#{clause}")
    assert not missing, f"{len(missing)} cited clauses without a heading, e.g. {missing[:5]}"


def test_schemas_are_browsable_and_downloadable(site):
    for source in sorted(schema_dir().rglob("*.json")):
        rel = source.relative_to(schema_dir()).as_posix()
        copy = site / "schema" / rel
        assert copy.is_file() and filecmp.cmp(copy, source, shallow=False), rel
        page = site / "schema" / rel.removesuffix(".schema.json").removesuffix(".json") / "index.html"
        assert page.is_file(), rel
        title = json.loads(source.read_text(encoding="utf-8")).get("title", "")
        assert title.split(" (")[0].replace("&", "&amp;") in page.read_text(encoding="utf-8")


def test_compliance_page_links_failures_to_cases_and_rules(site):
    text = (site / "compliance" / "index.html").read_text(encoding="utf-8")
    for report in sorted(REPORTS.glob("*.jsonl")):
        assert f'href="reports/{report.name}"' in text, f"no link to {report.name}"
        head = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
        assert head["engine"]["name"] in text
    # every failure row links to its case and to a clause anchor that exists on the variant page
    rows = re.findall(r"<tr>(.*?)</tr>", text, re.S)
    failing = [row for row in rows if "<code>fail</code>" in row]
    assert failing, "the euchrelib report's failures are not listed"
    for row in failing:
        hrefs = re.findall(r'href="([^"]+)"', row)
        assert any("/corpus/" in h for h in hrefs), row
        rules = [h for h in hrefs if "/variants/" in h and "#" in h]
        assert rules, row
        for href in rules:
            path, anchor = href.split("#")
            target = (site / "compliance" / path / "index.html").resolve()
            assert anchor in html_ids(target), href


# -- in a real browser ---------------------------------------------------------------------

PROBE = """<!doctype html><html><head><meta charset="utf-8"><title>probe</title></head><body>
<pre id="result">pending</pre>
<script>
const targets = location.hash.slice(1).split(",");
const results = {};
function probe(i) {
  if (i >= targets.length) { document.getElementById("result").textContent = JSON.stringify(results); return; }
  const frame = document.createElement("iframe");
  frame.style.width = "1280px"; frame.style.height = "1000px";
  frame.onload = () => {
    const d = frame.contentDocument, w = frame.contentWindow;
    const css = (el) => el ? w.getComputedStyle(el) : null;
    const cards = [...d.querySelectorAll(".es-card")];
    const red = d.querySelector(".es-card.es-red"), black = d.querySelector(".es-card.es-black");
    const box = red ? red.getBoundingClientRect() : null;
    results[targets[i]] = {
      title: d.title,
      h1: (d.querySelector("h1") || {}).textContent || null,
      cards: cards.length,
      suits: [...new Set(cards.map(c => c.textContent.trim().slice(-1)))].sort().join(""),
      red: red ? css(red).color : null,
      black: black ? css(black).color : null,
      card_box: box ? [box.width, box.height, css(red).borderTopStyle] : null,
      ids: [...d.querySelectorAll("h1[id],h2[id],h3[id],h4[id]")].map(e => e.id),
      tables: [...d.querySelectorAll("table")].map(t => ({
        head: [...t.querySelectorAll("th")].map(th => th.textContent.trim()),
        rows: t.querySelectorAll("tbody tr").length,
        height: t.getBoundingClientRect().height,
        links: [...t.querySelectorAll("a[href]")].map(a => a.getAttribute("href"))})),
      code_blocks: d.querySelectorAll("pre code").length,
      resources: w.performance.getEntriesByType("resource").map(r => r.name),
    };
    frame.remove();
    probe(i + 1);
  };
  frame.src = targets[i];
  document.body.appendChild(frame);
}
probe(0);
</script></body></html>
"""


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site, plus the probe page (kept in memory: the shared site is not touched)."""

    def do_GET(self):
        if self.path.split("#")[0].split("?")[0] == "/_probe.html":
            body = PROBE.encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(directory: Path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def open_page(url: str, page: str, attempts: int = 2) -> dict:
    """Open one page in headless Chromium and return what the probe saw in it.

    Chromium prints the DOM once the probe page has loaded, which is after the page under
    test (in an iframe) has loaded and been measured. Every host but 127.0.0.1 fails to
    resolve, so a page that needed the network would show it."""
    profile = Path(tempfile.mkdtemp(prefix="euchre-chromium-"))
    command = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--disable-dev-shm-usage", f"--user-data-dir={profile}",
               "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
               "--dump-dom", f"{url}/_probe.html#{page}"]
    try:
        for attempt in range(attempts):
            try:
                result = subprocess.run(command, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                                        env={"HOME": str(profile), "PATH": "/usr/bin:/bin"})
                break
            except subprocess.TimeoutExpired:
                if attempt == attempts - 1:
                    raise
        match = re.search(r'<pre id="result">(.*?)</pre>', result.stdout, re.S)
        assert match, f"chromium printed no result for {page} (exit {result.returncode}): {result.stderr[-2000:]}"
        text = match.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
        assert text != "pending", f"{page} did not finish loading in the browser"
        return json.loads(text)[page]
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def browse(site: Path, pages: list[str]) -> dict:
    """Open each page in its own headless Chromium, all at once."""
    with serve(site) as url, ThreadPoolExecutor(len(pages)) as pool:
        return dict(zip(pages, pool.map(lambda page: open_page(url, page), pages)))


@pytest.mark.skipif(not CHROMIUM.exists(), reason="no browser: /usr/bin/chromium is not installed "
                    "(CI installs it with `apt-get install -y chromium`)")
def test_pages_render_in_headless_chromium(site):
    variant = "euchre" if "euchre" in variant_ids() else variant_ids()[0]
    home, rules, compliance = "/", f"/variants/{variant}/", "/compliance/"
    seen = browse(site, [home, rules, compliance])

    for page, found in seen.items():
        offsite = [r for r in found["resources"] if not r.startswith("http://127.0.0.1:")]
        assert offsite == [], f"{page} loaded {offsite[:3]}"

    assert seen[home]["h1"].startswith("Euchre Spec")
    assert seen[home]["code_blocks"] >= 2                       # the two commands

    page = seen[rules]
    assert page["cards"] > 50
    assert page["suits"] == "♠♣♥♦"                              # every suit symbol drawn
    assert page["red"] == "rgb(198, 40, 40)" and page["black"] == "rgb(26, 26, 26)"   # in their colours
    assert page["card_box"][0] > 10 and page["card_box"][1] > 10 and page["card_box"][2] == "solid"
    scoring = [t for t in page["tables"] if t["head"][:3] == ["Row", "When", "Points"]]
    assert scoring and scoring[0]["rows"] >= 3 and scoring[0]["height"] > 0, "no scoring table"
    tricks = [t for t in page["tables"] if t["head"][:2] == ["Trick", "Led by"]]
    assert tricks and tricks[0]["rows"] >= 1 and tricks[0]["height"] > 0, "no trick in the worked examples"
    assert {"topic-scoring", "options", "worked-examples"} <= set(page["ids"])

    table = [t for t in seen[compliance]["tables"] if t["head"] and t["head"][0] == "Engine"]
    assert table and table[0]["rows"] >= len(list(REPORTS.glob("*.jsonl"))) and table[0]["height"] > 0
    assert any("/variants/" in link for link in table[0]["links"])
    failures = [t for t in seen[compliance]["tables"] if t["head"][:2] == ["Case", "Variant"]]
    assert failures and any("/corpus/" in link for t in failures for link in t["links"])
