"""The JUnit XML report of a run (``check --junit``): a test case per case, for CI."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path

from conformance import __version__

from conformance.common.clip import xml_safe
from conformance.common.usage import write_atomically
from conformance.reports.claim import claims_of_results
from conformance.runner.results import CaseResult


def _failure_text(result: CaseResult) -> str:
    if result.failure is not None:
        return result.failure.describe()
    return result.detail or result.outcome



def write_junit(path: str | Path, results: list[CaseResult], engine_name: str, interrupted: str | None = None) -> None:
    """JUnit XML: a test suite per variant, a test case per case; a run cut short
    (``interrupted``: why) adds a suite ``euchre-spec`` whose one test case is that error,
    so that no CI reads the cases that did run as the whole run. Written whole or not at all."""
    root = ET.Element("testsuites", name=xml_safe(f"euchre-spec {__version__} on {engine_name}"))
    by_variant: dict[str, list[CaseResult]] = defaultdict(list)
    for result in results:
        by_variant[result.case.variant].append(result)
    for variant, group in sorted(by_variant.items()):
        counts = Counter(r.outcome for r in group)
        suite = ET.SubElement(root, "testsuite", name=xml_safe(variant), tests=str(len(group)),
                              failures=str(counts["fail"] + counts["unexpected-pass"]),
                              errors=str(counts["error"] + counts["crash"] + counts["timeout"]),
                              skipped=str(counts["skipped"] + counts["unsupported"] + counts["expected-fail"]),
                              time=f"{sum(r.duration for r in group):.3f}")
        # how much of the variant ran: a CI's test view shows it beside the counts
        properties = ET.SubElement(suite, "properties")
        for claim in claims_of_results(group):
            for name, value in (("euchre-spec.cases", claim.cases), ("euchre-spec.ran", claim.ran),
                                ("euchre-spec.percent-run", claim.percent), ("euchre-spec.claim", claim.sentence())):
                ET.SubElement(properties, "property", name=name, value=xml_safe(str(value)))
        for result in sorted(group, key=lambda r: r.case.id):
            case = ET.SubElement(suite, "testcase", classname=xml_safe(f"euchre-spec.{variant}"),
                                 name=xml_safe(result.case.id), file=xml_safe(result.case.file),
                                 time=f"{result.duration:.3f}")
            if result.outcome in ("fail", "unexpected-pass"):
                ET.SubElement(case, "failure", message=result.outcome, type=result.outcome).text = xml_safe(_failure_text(result))
            elif result.outcome in ("error", "crash", "timeout"):
                ET.SubElement(case, "error", message=result.outcome, type=result.outcome).text = xml_safe(_failure_text(result))
            elif result.outcome in ("skipped", "unsupported", "expected-fail"):
                ET.SubElement(case, "skipped", message=xml_safe(f"{result.outcome}: {result.detail or ''}".strip()))
            if result.stderr:
                ET.SubElement(case, "system-err").text = xml_safe(result.stderr)
    if interrupted:
        suite = ET.SubElement(root, "testsuite", name="euchre-spec", tests="1", failures="0", errors="1", skipped="0",
                              time="0.000")
        case = ET.SubElement(suite, "testcase", classname="euchre-spec.run", name="the run ended", time="0.000")
        ET.SubElement(case, "error", message="interrupted", type="interrupted").text = xml_safe(interrupted)
    write_atomically(path, "<?xml version='1.0' encoding='utf-8'?>\n" + ET.tostring(root, encoding="unicode"))
