"""Each game's quick reference prints on one sheet, A4 and Letter alike: printed headless by
Debian's chromium (``--print-to-pdf``) from the built site, the pages of the PDF counted.
Skipped only where chromium is not installed (CI installs it)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from site_support import BUILT_SITE, built_site  # noqa: F401 (fixture)

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
pytestmark = [*BUILT_SITE,    # one worker builds the site once for every test that reads it
              pytest.mark.skipif(not CHROMIUM.exists(), reason="no browser: /usr/bin/chromium is not installed "
                                 "(CI installs it with `apt-get install -y chromium`)")]
PAPERS = {"A4": "210mm 297mm", "Letter": "8.5in 11in"}


def pdf_pages(pdf: bytes) -> int:
    """The page objects of a PDF (``/Type /Page``, not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def print_pages(html: Path, out: Path, paper: str) -> int:
    """Print a page on one paper size and count the PDF's pages."""
    # The sized copy is written in this test's own folder, never in the built site (which other
    # tests read at the same time); <base> resolves its stylesheets and images in the site.
    sized = out / f"{html.stem}.print-{paper}.html"
    text = html.read_text(encoding="utf-8")
    assert "<head>" in text, f"{html} has no <head> to put the base in"
    text = text.replace("<head>", f'<head><base href="{html.parent.as_uri()}/">', 1)
    sized.write_text(text.replace("</head>", f"<style>@page {{ size: {PAPERS[paper]}; }}</style></head>", 1), encoding="utf-8")
    pdf = out / f"{html.stem}-{paper}.pdf"
    try:
        subprocess.run([str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                        f"--user-data-dir={out / 'profile'}", f"--print-to-pdf={pdf}", sized.as_uri()],
                       capture_output=True, timeout=120, check=False)
    finally:
        sized.unlink()
    assert pdf.is_file(), f"chromium printed no PDF of {html}"
    return pdf_pages(pdf.read_bytes())


def test_pages_are_counted():
    one = b"<< /Type /Pages /Count 1 >> << /Type /Page /Parent 2 0 R >>"
    assert pdf_pages(one) == 1 and pdf_pages(one + b"<< /Type /Page >>") == 2


def test_every_quick_reference_prints_on_one_sheet(built_site, tmp_path):
    pages = sorted((built_site / "quickref").glob("*.html"))
    assert pages, "no quick reference was built"
    over = [f"{page.stem} on {paper}: {n} pages" for page in pages for paper in PAPERS
            if (n := print_pages(page, tmp_path, paper)) != 1]
    assert not over, "quick references that do not fit one sheet: " + "; ".join(over)
