"""Run-wide settings and reporting for the project's own tests.

What the whole run shares: the bytecode of every process kept outside the checkout, the rules
site's builds started in the background as soon as a worker has collected a test that reads
them (and those tests run last), the generated pages built once, and xdist's groups repaired.

One line at the end of every run, even with ``-q``, when the EGN schema tests were skipped:
they compare our EGN checks with EGN's own JSON Schema, which the project does not ship, so a
fresh clone without the workspace's shared/ folder beside it skips about a hundred of them.
The short summary alone buried that reason among the others.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

# -- bytecode, kept outside the checkout -----------------------------------------------------------
#
# Where PYTHONDONTWRITEBYTECODE is set (it is, on this project's CI machines), no process of the run
# keeps the bytecode it compiles: every test worker, and every engine, command and pytest started
# as a subprocess (several hundred), compiled the package from source again, and pytest rewrote
# the asserts of every module of ``conformance`` (its plugin's package) again in each. Measured:
# tests/test_pytest_plugin.py took 24 s of CPU, 12 s with the bytecode kept. The variable's aim,
# no ``__pycache__`` written into the source tree, is kept: the bytecode goes to a folder of the
# temporary directory (Python's PYTHONPYCACHEPREFIX), which this process and every process it
# starts (the workers included: they are started after this file is read) read and write.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) or sys.dont_write_bytecode:
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / f"euchre-spec-pycache-{os.getuid()}"))
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False

EGN_SCHEMA_SKIP = "EGN's JSON Schema is not at"   # the start of test_egn_record.egn_validator's skip reason


def _reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr or "")


def pytest_terminal_summary(terminalreporter) -> None:
    skipped = [report for report in terminalreporter.stats.get("skipped", []) if EGN_SCHEMA_SKIP in _reason(report)]
    if skipped:
        where = _reason(skipped[0]).split(EGN_SCHEMA_SKIP, 1)[1].split(":")[0].strip()
        terminalreporter.write_line(
            f"EGN schema tests: {len(skipped)} skipped, because EGN's JSON Schema is not at {where}; "
            "set EGN_SCHEMA=/path/to/egn-schema-v1.json to run them (README: The EGN schema tests)", yellow=True)


# -- expensive fixtures shared by several modules -------------------------------------------------
#
# The rules site's generated pages (``rules_site.build.build_site``) cost about 50 s of CPU
# to generate. Three modules read them (test_site_generate, test_site_teaching,
# test_site_compare); each used to generate them in a module fixture of its own, once per
# module and per xdist worker. They share this session fixture instead, and are put in one
# xdist group (``--dist loadgroup`` in pyproject.toml) so that one worker generates them once.


@pytest.fixture(scope="session")
def generated_site():
    """The site's generated Markdown pages from docs/ and the built-in corpus, read-only."""
    from rules_site.build import build_site
    return build_site(Path(__file__).resolve().parent.parent / "docs")


# The built site (``mkdocs build --strict``, tests/site_support.py) and the second strict
# build start in the background as soon as this process has collected a test that reads them,
# and those tests run after all others: the builds (about 35 s of CPU) are done by then, and
# no worker waits for them. The tests need no xdist group: both workers run them.


def pytest_collection_finish(session) -> None:
    if session.config.option.collectonly:
        return
    from site_support import shared_dir, start_builds
    start_builds(session.items, shared_dir(session.config._tmp_path_factory))


def pytest_sessionfinish(session) -> None:
    from site_support import wait_for_builds
    wait_for_builds()


# -- xdist groups under pytest 9.2 -----------------------------------------------------------------
#
# ``--dist loadgroup`` (pyproject.toml) sends the tests of one ``xdist_group`` to one worker:
# each worker appends "@<group>" to an item's node id, and the controller schedules by that
# suffix. pytest-xdist 3.8 writes the suffix into ``item._nodeid``, where pytest kept the id
# before 9.2; pytest 9.2 keeps it as a structured ``NodeId`` in ``item._id``, so the suffix is
# lost and every group is silently spread over the workers (pytest-dev/pytest-xdist#1386, fix
# not released). Measured on this suite: the generated site was built on both workers, and
# tests waiting on another worker's site build spent their own timeout waiting. This hook
# appends the suffix where xdist's did not take, and does nothing once xdist's does.


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items) -> None:
    from site_support import site_last
    site_last(items)            # the tests that read a built site last (see pytest_collection_finish)
    if not getattr(config.option, "loadgroup", False):      # set on xdist's workers under --dist loadgroup
        return
    for item in items:
        groups = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                         for mark in item.iter_markers("xdist_group")})
        if not groups:
            continue
        suffix = "@" + "_".join(groups)
        if item.nodeid.endswith(suffix) or not hasattr(item, "_id"):
            continue
        from _pytest.nodeid import NodeId
        item._id = NodeId.parse(item.nodeid + suffix)        # parse keeps the string exactly as given
