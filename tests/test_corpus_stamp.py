"""The corpus named by what it holds (issue 33): the recorded stamp describes the corpus, a
changed case without a new stamp fails, `corpus stamp` moves the version by what changed, a
report names its corpus by version and digest, and a report of another corpus reads as stale
on the compliance page."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import CORPUS_DIR
from conformance.cli import main
from conformance.corpus_tools.stamp import (CorpusIdentity, case_digests, corpus_digest, current_identity,
                                            read_stamp, stamp_problem, staleness)
from rules_site.compliance import read_report, render_compliance
from rules_site.links import Links

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "docs" / "compliance" / "reports"
SOME = ["euchre/assist-made-four-tricks.yaml", "euchre/deal-by-packets-lone-march.yaml", "two-hand/two-hand-benny-25-card-pack.yaml"]


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "COLUMNS": "200"})


@pytest.fixture
def corpus(tmp_path) -> Path:
    """A small corpus folder of its own: corpus.yaml and a few case files, stamped."""
    root = tmp_path / "corpus"
    root.mkdir()
    shutil.copy(CORPUS_DIR / "corpus.yaml", root / "corpus.yaml")
    for rel in SOME:
        if (CORPUS_DIR / rel).is_file():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(CORPUS_DIR / rel, root / rel)
    assert len(case_digests(root)) >= 2
    # in-process (the command's entry point): the tests below run `corpus stamp` as a subprocess
    assert main(["corpus", "stamp", "--root", str(root), "--version", "3.4.5"]) == 0
    return root


def test_the_recorded_stamp_is_the_corpus():
    problem = stamp_problem()
    assert problem is None, f"{problem}\n(re-stamp after adding or changing cases: see docs/maintaining.md)"
    assert read_stamp().sums == case_digests()


def test_the_digest_is_canonical(tmp_path, corpus):
    digest = corpus_digest(case_digests(corpus))
    # elsewhere, copied in another order, with CRLF line endings: the same corpus
    other = tmp_path / "elsewhere" / "c"
    for rel in reversed(sorted(case_digests(corpus))):
        (other / rel).parent.mkdir(parents=True, exist_ok=True)
        (other / rel).write_bytes((corpus / rel).read_bytes().replace(b"\n", b"\r\n"))
    assert corpus_digest(case_digests(other)) == digest
    # one byte of one case, or a case moved to another folder: another corpus
    rel = sorted(case_digests(corpus))[0]
    (other / rel).write_bytes((other / rel).read_bytes() + b"# \r\n")
    assert corpus_digest(case_digests(other)) != digest
    (other / rel).write_bytes((corpus / rel).read_bytes())
    (other / "moved").mkdir()
    shutil.move(other / rel, other / "moved" / Path(rel).name)
    assert corpus_digest(case_digests(other)) != digest


def test_a_changed_case_without_a_new_stamp_fails(corpus):
    assert stamp_problem(corpus) is None
    case = corpus / SOME[0]
    case.write_text(case.read_text(encoding="utf-8").replace("expect:", "expect:  ", 1), encoding="utf-8")
    problem = stamp_problem(corpus)
    assert problem and "1 changed (euchre/assist-made-four-tricks.yaml)" in problem and "corpus stamp" in problem
    result = cli("corpus", "stamp", "--check", "--root", str(corpus))
    assert result.returncode == 1 and "has changed since version 3.4.5" in result.stderr


@pytest.mark.parametrize("change, version", [("add", "3.5.0"), ("edit", "4.0.0"), ("remove", "4.0.0"), ("none", "3.4.5")])
def test_stamp_moves_the_version_by_what_changed(corpus, change, version):
    first = sorted(case_digests(corpus))[0]
    if change == "add":
        shutil.copy(corpus / first, corpus / "euchre" / "a-new-case.yaml")
    elif change == "edit":
        (corpus / first).write_text((corpus / first).read_text(encoding="utf-8") + "# note\n", encoding="utf-8")
    elif change == "remove":
        (corpus / first).unlink()
    result = cli("corpus", "stamp", "--root", str(corpus))
    assert result.returncode == 0, result.stderr
    stamp = read_stamp(corpus)
    assert stamp.version == version and stamp.digest == corpus_digest(case_digests(corpus))
    assert stamp_problem(corpus) is None
    assert "#" in (corpus / "corpus.yaml").read_text(encoding="utf-8").splitlines()[0], "its comments kept"


def test_a_patch_is_only_for_a_change_that_adds_nothing(corpus):
    first = sorted(case_digests(corpus))[0]
    (corpus / first).write_text((corpus / first).read_text(encoding="utf-8") + "# typo\n", encoding="utf-8")
    assert cli("corpus", "stamp", "--patch", "--root", str(corpus)).returncode == 0
    assert read_stamp(corpus).version == "3.4.6"
    shutil.copy(corpus / first, corpus / "euchre" / "another.yaml")
    result = cli("corpus", "stamp", "--patch", "--root", str(corpus))
    assert result.returncode == 2 and "added" in result.stderr
    result = cli("corpus", "stamp", "--version", "3.4.6", "--root", str(corpus))
    assert result.returncode == 2 and "already names another corpus" in result.stderr


def test_a_report_names_its_corpus_and_no_machine_path(tmp_path, corpus):
    report = tmp_path / "r.jsonl"
    result = cli("check", "--engine", "reference", "--corpus", str(corpus), "--json", str(report), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    head = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
    assert head["suite"]["corpus_version"] == "3.4.5"
    assert head["suite"]["corpus_digest"] == corpus_digest(case_digests(corpus))
    assert head["suite"]["corpus_cases"] == len(case_digests(corpus))
    assert head["engine"]["command"] == ["python", "-m", "conformance.reference_engine"]
    assert not any(str(tmp_path) in arg or sys.executable in arg for arg in head["arguments"]), head["arguments"]


def compliance_page(report: Path, corpus: CorpusIdentity) -> str:
    return render_compliance([read_report(report)], [("euchre", "Euchre")], Links("compliance/index.md"), corpus)


def test_a_report_of_another_corpus_reads_as_stale(tmp_path, corpus):
    report = tmp_path / "r.jsonl"
    assert cli("check", "--engine", "reference", "--corpus", str(corpus), "--json", str(report), cwd=tmp_path).returncode == 0
    page = compliance_page(report, current_identity(corpus))
    assert "Stale" not in page and "stale:" not in page
    case = corpus / SOME[0]
    case.write_text(case.read_text(encoding="utf-8") + "# changed\n", encoding="utf-8")     # not re-stamped
    now = current_identity(corpus)
    head = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
    why = staleness(head, now)
    assert why and "other case files under the same version 3.4.5" in why
    page = compliance_page(report, now)
    assert "Stale: the corpus has changed since this report was run" in page
    assert f"run {head['started']} over {len(case_digests(corpus))} cases" in page
    assert "stale: corpus 3.4.5" in page and "1 of 1 reports are stale" in page
    assert "publish_reports.py --only r" in page


def test_a_report_without_a_digest_is_stale():
    head = {"suite": {"corpus_version": "1.1.0"}, "started": "2026-01-01T00:00:00Z"}
    now = CorpusIdentity("1.1.0", "sha256:" + "0" * 64, 10)
    assert "named by no digest" in staleness(head, now)
    assert staleness({"suite": {"corpus_version": "1.1.0", "corpus_digest": now.digest}}, now) is None


def test_the_published_reference_report_is_current():
    head = json.loads((REPORTS / "reference.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert staleness(head, current_identity()) is None, "re-run: python tools/publish_reports.py --only reference"


def test_published_reports_name_no_machine_path():
    corpus = current_identity()                 # (a digest of every case file: once, not once a report)
    for path in sorted(REPORTS.glob("*.jsonl")):
        head = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        if staleness(head, corpus) is not None:
            continue                    # stale: marked so on the page, and re-run by the lead
        text = json.dumps([head["engine"]["command"], head["arguments"]])
        assert "/work/" not in text and "/home/" not in text and not any(a.startswith("/") for a in head["engine"]["command"]), \
            f"{path.name}: {text}"
