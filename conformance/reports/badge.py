"""An SVG badge of a run (``report badge``), drawn here, offline."""

from __future__ import annotations

from html import escape

from conformance.reports.runs import Run


def _text_width(text: str) -> int:
    """Width in pixels of text in 11 px Verdana, close enough for a badge (no font file needed)."""
    wide, narrow = set("mwMW@%"), set("il.,:;|!'() I1")
    return sum(9 if c in wide else 4 if c in narrow else 7 for c in text) + 10



def badge_svg(label: str, message: str, colour: str) -> str:
    """A flat badge in the common two-part shape, self-contained (no fonts or images fetched)."""
    left, right = _text_width(label), _text_width(message)
    total = left + right
    label_e, message_e = escape(label), escape(message)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" '
            f'aria-label="{label_e}: {message_e}"><title>{label_e}: {message_e}</title>'
            f'<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>'
            f'<stop offset="1" stop-opacity=".1"/></linearGradient>'
            f'<clipPath id="r"><rect width="{total}" height="20" rx="3" fill="#fff"/></clipPath>'
            f'<g clip-path="url(#r)"><rect width="{left}" height="20" fill="#555"/>'
            f'<rect x="{left}" width="{right}" height="20" fill="{colour}"/>'
            f'<rect width="{total}" height="20" fill="url(#s)"/></g>'
            f'<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">'
            f'<text x="{left / 2:.1f}" y="15" fill="#010101" fill-opacity=".3">{label_e}</text>'
            f'<text x="{left / 2:.1f}" y="14">{label_e}</text>'
            f'<text x="{left + right / 2:.1f}" y="15" fill="#010101" fill-opacity=".3">{message_e}</text>'
            f'<text x="{left + right / 2:.1f}" y="14">{message_e}</text></g></svg>\n')



def interruption(run: Run) -> str | None:
    """Why a report's run did not end as a whole run ends, or None: it has no footer (killed
    outright, or still running), or its footer says it was interrupted (exit 130)."""
    if run.footer is None:
        return "the report has no footer: the run was killed or has not ended"
    if run.footer.get("exit_code") == 130:
        stopped = [str(reason) for reason in run.footer.get("stopped") or [] if "interrupted" in str(reason)]
        return stopped[0] if stopped else "the run was interrupted"
    return None



def badge_for(run: Run, label: str = "euchre-spec") -> str:
    counts = run.counts()
    ran = run.ran()
    if interruption(run):
        return badge_svg(label, f"interrupted, {counts['pass']}/{ran} passed", "#9f9f9f")
    passed = counts["pass"] + counts["expected-fail"]
    if not ran:
        return badge_svg(label, "no case run", "#9f9f9f")
    share = passed / ran
    colour = "#2e7d32" if counts["pass"] == ran else "#97a00f" if share >= 0.9 else "#b45309" if share >= 0.5 else "#c62828"
    known = f", {counts['expected-fail']} known" if counts["expected-fail"] else ""
    return badge_svg(label, f"{counts['pass']}/{ran} passed{known}", colour)
