"""Each game's quick reference prints on one sheet, A4 and Letter alike: printed headless by
Debian's chromium from the built site, the pages of the PDF counted. Every page and paper is
printed in one start of the browser (tests/browser/print_pages.mjs: DevTools' printToPDF with
the parameters chromium's ``--print-to-pdf`` switch uses), where a start per PDF cost about a
second of CPU each. Skipped only where chromium (or node) is not installed (CI installs it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from site_support import BUILT_SITE, built_site  # noqa: F401 (fixture)
from test_site_browser import BROWSER, driver  # noqa: F401 (fixture: tests/browser with its npm packages)

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
pytestmark = [*BUILT_SITE,    # room to wait for the site's build (started at collection)
              pytest.mark.skipif(not CHROMIUM.exists(), reason="no browser: /usr/bin/chromium is not installed "
                                 "(CI installs it with `apt-get install -y chromium`)"),
              pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                                 reason="Node.js and npm are needed to drive the browser (playwright-core)")]
PAPERS = {"A4": "210mm 297mm", "Letter": "8.5in 11in"}


def pdf_pages(pdf: bytes) -> int:
    """The page objects of a PDF (``/Type /Page``, not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def sized_copy(html: Path, out: Path, paper: str) -> Path:
    """A copy of a built page that asks for one paper size, with the site as its base."""
    # The sized copy is written in this test's own folder, never in the built site (which other
    # tests read at the same time); <base> resolves its stylesheets and images in the site.
    sized = out / f"{html.stem}.print-{paper}.html"
    text = html.read_text(encoding="utf-8")
    assert "<head>" in text, f"{html} has no <head> to put the base in"
    text = text.replace("<head>", f'<head><base href="{html.parent.as_uri()}/">', 1)
    sized.write_text(text.replace("</head>", f"<style>@page {{ size: {PAPERS[paper]}; }}</style></head>", 1), encoding="utf-8")
    return sized


def print_pages(pages: list[Path], out: Path) -> dict[tuple[str, str], int]:
    """Print every page on every paper size, in one start of the browser, and count each PDF's
    pages: {(page, paper): pages}."""
    jobs = {(html.stem, paper): (sized_copy(html, out, paper), out / f"{html.stem}-{paper}.pdf")
            for html in pages for paper in PAPERS}
    result = subprocess.run(["node", str(BROWSER / "print_pages.mjs"),
                             json.dumps({"jobs": [[sized.as_uri(), str(pdf)] for sized, pdf in jobs.values()]})],
                            cwd=BROWSER, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "CHROMIUM": str(CHROMIUM), "HOME": os.environ.get("HOME", "/tmp")})
    assert result.returncode == 0, f"the browser run failed:\n{result.stderr[-3000:]}"
    printed = json.loads(result.stdout)["printed"]
    counts = {}
    for (stem, paper), (sized, pdf) in jobs.items():
        assert printed.get(str(pdf)) is True and pdf.is_file(), f"chromium printed no PDF of {stem} on {paper}: {printed.get(str(pdf))}"
        counts[stem, paper] = pdf_pages(pdf.read_bytes())
    return counts


def test_pages_are_counted():
    one = b"<< /Type /Pages /Count 1 >> << /Type /Page /Parent 2 0 R >>"
    assert pdf_pages(one) == 1 and pdf_pages(one + b"<< /Type /Page >>") == 2


def test_every_quick_reference_prints_on_one_sheet(built_site, driver, tmp_path):
    pages = sorted((built_site / "quickref").glob("*.html"))
    assert pages, "no quick reference was built"
    counts = print_pages(pages, tmp_path)
    assert len(counts) == len(pages) * len(PAPERS)
    over = [f"{stem} on {paper}: {n} pages" for (stem, paper), n in counts.items() if n != 1]
    assert not over, "quick references that do not fit one sheet: " + "; ".join(over)
