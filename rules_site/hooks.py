"""mkdocs hook: adds the generated pages and files to the build (nothing is written to docs/).

Named in ``mkdocs.yml`` as ``hooks: [rules_site/hooks.py]``. ``on_config`` generates the
site and lists the variant pages in the nav right after ``variants/index.md``; ``on_files``
adds every generated page and copied file as a virtual file; ``on_post_build`` writes the
search index as a script too (``search/search_index.js``, after adding an entry per rule and option), which the offline search of
``docs/javascripts/offline-search.js`` loads when the site is opened from disk.

``EUCHRE_SITE_CORPUS`` builds the site from another corpus folder.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:          # the hook is loaded by path; make the project importable
    sys.path.insert(0, str(ROOT))

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.structure.files import File, Files  # noqa: E402

from rules_site.build import Site, build_site  # noqa: E402
from rules_site.links import VARIANTS_INDEX, variant_page  # noqa: E402
from rules_site.search_index import improve  # noqa: E402
from rules_site.tables import SiteError, all_views  # noqa: E402
from rules_site.links import Links  # noqa: E402
from rules_site.trickster import TRICKSTER_PAGE, render_trickster  # noqa: E402

log = logging.getLogger("mkdocs.hooks.euchre_site")
_site: Site | None = None
SEARCH_SCRIPT = "search/search_index.js"


def _insert_variants(nav: list, entries: list[dict[str, str]]) -> bool:
    """Put the variant pages right after the nav entry for ``variants/index.md``."""
    for index, item in enumerate(nav):
        value = next(iter(item.values())) if isinstance(item, dict) and len(item) == 1 else item
        if value == VARIANTS_INDEX:
            nav[index + 1:index + 1] = entries
            return True
        if isinstance(value, list) and _insert_variants(value, entries):
            return True
    return False


def on_config(config):
    global _site
    try:
        kwargs = {"corpus_dir": Path(os.environ["EUCHRE_SITE_CORPUS"])} if os.environ.get("EUCHRE_SITE_CORPUS") else {}
        _site = build_site(Path(config.docs_dir), directory_urls=config.use_directory_urls, **kwargs)
    except SiteError as exc:
        raise PluginError(f"euchre-spec site: {exc}") from None
    # The Trickster Cards page, beside the EGN page: built from the tables' `trickster` fields.
    _site.pages[TRICKSTER_PAGE] = render_trickster(
        all_views(), Links(TRICKSTER_PAGE, _site.anchors, directory_urls=config.use_directory_urls))
    timings = ", ".join(f"{k} {v:.1f}s" for k, v in _site.timings.items())
    log.debug("generated %d pages (%s)", len(_site.pages), timings)
    if config.nav is not None:
        entries = [{title: variant_page(variant)} for variant, title in _site.variants]
        if not _insert_variants(config.nav, entries):
            log.warning("the nav has no entry for %s: the variant pages are not listed in it", VARIANTS_INDEX)
    return config


def on_files(files: Files, config):
    assert _site is not None
    for path, content in _site.pages.items():
        if files.get_file_from_path(path) is not None:
            raise PluginError(f"euchre-spec site: docs/{path} exists, but this page is generated; remove the file")
        files.append(File.generated(config, path, content=content))
    for path, source in _site.copies.items():
        if files.get_file_from_path(path) is None:
            files.append(File.generated(config, path, abs_src_path=str(source)))
    return files


# Pygments wraps every run of blanks in a code block in a span of its own (class "w") that no
# style sheet of the theme colours: a seventh of the authoring guide's weight. The blanks stay.
_BLANK_SPAN = re.compile(r'<span class="w">([ \t\n]*)</span>')


def on_page_content(html: str, page, config, files) -> str:
    """The page's HTML without the highlighter's empty-handed spans (see ``_BLANK_SPAN``)."""
    return _BLANK_SPAN.sub(r"\1", html)


def on_post_build(config):
    """The search index with an entry per rule and option, weighed and accent-free
    (rules_site/search_index.py), and the same as a script, for the offline search (file://
    cannot fetch JSON)."""
    index = Path(config.site_dir) / "search" / "search_index.json"
    if not index.is_file():
        return
    data = improve(json.loads(index.read_text(encoding="utf-8")), _site.search_entries if _site else [])
    index.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    # Material's own bundle reads `__index` from this script on file:// (its offline plugin's
    # convention); its worker cannot start from disk, so offline-search.js answers instead.
    script = "var __index = " + json.dumps(data, ensure_ascii=False, separators=(",", ":")) + ";\n"
    (Path(config.site_dir) / SEARCH_SCRIPT).write_text(script.replace("</", "<\\/"), encoding="utf-8")
