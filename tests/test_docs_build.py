"""The site builds with `mkdocs build --strict` (no warnings) and loads nothing from the network."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mkdocs_build_strict(tmp_path):
    site = tmp_path / "site"
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=ROOT,
                            capture_output=True, text=True, timeout=300, env={"NO_MKDOCS_2_WARNING": "1", "PATH": ""})
    assert result.returncode == 0, result.stderr
    assert (site / "protocol" / "index.html").is_file()
    loaded = []
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        loaded += re.findall(r'<(?:script|img|link)[^>]+(?:src|href)="(https?://[^"]+)"', text)
    assert loaded == [], f"assets loaded from the network: {sorted(set(loaded))[:5]}"
