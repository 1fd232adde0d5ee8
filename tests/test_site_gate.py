"""The strict-site gate can fail: a page with a dead anchor, a link to a page that does not
exist, or a missing nav entry must turn it red, built by the very command the site tests use
(tests/site_support.py) under the project's own ``validation`` settings from mkdocs.yml.

This guards against the false green found on a fresh machine: the gate ran ``mkdocs build
--strict -q``, and ``-q`` silences the warnings before strict mode counts them, so a site
with 104 dead anchors passed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from site_support import ROOT, build_problems, strict_build

GOOD_PAGE = "# Home\n\n## Rules {: #rules }\n\nSee [the rules](#rules) and [the other page](other.md#scoring).\n"
OTHER_PAGE = "# Other\n\n## Scoring\n\nNothing here.\n"


def project(tmp_path: Path, pages: dict[str, str], nav: list[str] | None = None) -> Path:
    """A small mkdocs project with this project's validation settings and Markdown extensions."""
    ours = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    docs = tmp_path / "docs"
    docs.mkdir(parents=True)
    for name, text in pages.items():
        (docs / name).write_text(text, encoding="utf-8")
    config = {"site_name": "gate", "docs_dir": str(docs), "strict": True, "use_directory_urls": False,
              "validation": ours["validation"], "markdown_extensions": ["attr_list", "toc"],
              "nav": nav if nav is not None else sorted(pages)}
    path = tmp_path / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def gate(tmp_path: Path, config: Path) -> list[str]:
    return build_problems(*strict_build(tmp_path / "site", tmp_path, config=config))


def test_a_clean_project_passes_the_gate(tmp_path):
    config = project(tmp_path, {"index.md": GOOD_PAGE, "other.md": OTHER_PAGE})
    assert gate(tmp_path, config) == []


@pytest.mark.parametrize("broken, expected", [
    ("See [nothing](#no-such-anchor).", "no-such-anchor"),
    ("See [scoring elsewhere](other.md#no-such-section).", "no-such-section"),
    ("See [a lost page](missing.md).", "missing.md"),
])
def test_a_broken_link_makes_the_gate_fail(tmp_path, broken, expected):
    config = project(tmp_path, {"index.md": GOOD_PAGE + "\n" + broken + "\n", "other.md": OTHER_PAGE})
    problems = gate(tmp_path, config)
    assert problems, "the gate passed a page with a broken link"
    assert any(line.startswith("WARNING") and expected in line for line in problems), problems


def test_a_page_left_out_of_the_nav_makes_the_gate_fail(tmp_path):
    config = project(tmp_path, {"index.md": GOOD_PAGE, "other.md": OTHER_PAGE}, nav=["index.md"])
    assert any("other.md" in line for line in gate(tmp_path, config))


def test_an_id_at_the_end_of_a_one_line_list_item_is_no_anchor(tmp_path):
    """The very defect the gate missed: Python-Markdown's attr_list gives no id to a one-line
    list item ending in ``{: #id }``, so a link to it is dead; the site now writes the id on
    an element of its own (rules_site/variant.py, the Sources list)."""
    listed = "# Home\n\n- A source {: #source-a }\n- <span id=\"source-b\"></span>Another source\n\n"
    config = project(tmp_path, {"index.md": listed + "[one](#source-b)\n", "other.md": OTHER_PAGE})
    assert gate(tmp_path, config) == []
    config_dead = project(tmp_path / "dead", {"index.md": listed + "[one](#source-a)\n", "other.md": OTHER_PAGE})
    assert any("source-a" in line for line in gate(tmp_path / "dead", config_dead))


def test_a_failing_exit_status_with_no_warning_line_still_fails():
    assert build_problems(1, "INFO - Building\nTraceback (most recent call last):\nKeyError: 'x'\n")
    assert build_problems(0, "INFO - Building documentation\nINFO - Documentation built in 1 s\n") == []
    assert build_problems(0, "WARNING -  Doc file 'a.md' contains a link '#x', but there is no such anchor") != []
