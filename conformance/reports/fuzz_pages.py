"""The fuzz and seat-view runs of a published engine, as Markdown for its compliance page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance.reports.runs import _cell, _value
from conformance.reports.runs import _short


def _chosen(variant: Any, options: Any) -> dict[str, Any]:
    """The options of a run that differ from the table's defaults."""
    from reference_impl.resolve import resolve
    try:
        table_options = resolve(str(variant)).table.get("options") or {}
    except Exception:          # noqa: BLE001 - a table this version no longer has: show every option
        return dict(options or {})
    return {k: v for k, v in (options or {}).items() if (table_options.get(k) or {}).get("default") != v}



def fuzz_markdown(report_path: str | Path) -> list[str]:
    """The compliance page's lines for an engine's identify and fuzz runs kept beside its
    report (``../fuzz/<report name>/identify.json`` and ``fuzz.json``, as tools/publish_reports.py
    --fuzz writes them): the house rules identified, and each divergence with its shrunk case."""
    import json
    report_path = Path(report_path)
    folder = report_path.parent.parent / "fuzz" / report_path.stem
    out: list[str] = []
    identify, fuzz = folder / "identify.json", folder / "fuzz.json"
    if identify.is_file():
        data = json.loads(identify.read_text(encoding="utf-8"))
        adapters = set(data.get("adapter_plays") or ())
        for result in data.get("results", []):
            rules = result.get("house_rules") or {}
            shown = ", ".join(f"`{k}={_value(v)}`" for k, v in rules.items() if k not in adapters) \
                or "none (it plays the options sent)"
            loop = {k: v for k, v in rules.items() if k in adapters}
            if loop:
                shown += ("; " + ", ".join(f"`{k}={_value(v)}`" for k, v in loop.items())
                          + " found too, but the game around the engine's hand is the adapter's loop: not credited to the engine")
            out += ["", f"**Identify** ({result.get('variant')}, {result.get('hands', '?')} hands, then "
                        f"{result.get('check_hands', '?')} checked): house rules {shown}; "
                        f"{len(result.get('deviations') or [])} kind(s) of deviation remain under them "
                        f"([identify.json](fuzz/{report_path.stem}/identify.json))."]
    if fuzz.is_file():
        data = json.loads(fuzz.read_text(encoding="utf-8"))
        divergences = data.get("divergences") or []
        options = ", ".join(f"{k}={_value(v)}" for k, v in sorted(_chosen(data.get("variant"), data.get("options")).items()))
        out += ["", f"**Fuzz** ({data.get('variant')}{', ' + options if options else ''}; seed {data.get('seed')}, "
                    f"{data.get('hands', '?')} hands played"
                    + (", every game diverging before its first hand ended" if data.get("hands") == 0 and divergences else "")
                    + f"): {len(divergences)} kind(s) of divergence, each shrunk to a case "
                    f"([fuzz.json](fuzz/{report_path.stem}/fuzz.json)).", ""]
        if divergences:
            out += ["| rule | where | first difference | met in | shrunk case |", "|---|---|---|---|---|"]
        for item in divergences:
            found = item.get("found") or {}
            diffs = found.get("differences") or []
            first = diffs[0] if diffs else {}
            words = (f"`{first.get('field')}`: reference `{_short(first.get('reference'), 40)}`, engine "
                     f"`{_short(first.get('engine'), 40)}`") if first else ""
            case = Path(str(item.get("case") or ""))
            link = (f"[`{case.stem}`](fuzz/{report_path.stem}/cases/{case.name}) ({item.get('hands')} hand, "
                    f"{item.get('steps')} steps)") if case.name else "not shrunk"
            out.append(f"| `{found.get('clause')}` | {found.get('where')} ({found.get('phase')}) | {_cell(words)} | "
                       f"{found.get('count', 1)} game(s) | {link} |")
    out += views_markdown(folder, report_path.stem)
    return out



def views_markdown(folder: Path, name: str) -> list[str]:
    """The lines for an engine's ``fuzz --views`` run (``views.json`` beside its fuzz runs):
    each seat view that leaked, forgot or hid something, with its case."""
    import json
    views = folder / "views.json"
    if not views.is_file():
        return []
    data = json.loads(views.read_text(encoding="utf-8"))
    findings = data.get("findings") or []
    out = ["", f"**Seat views** (fuzz --views, {data.get('variant')}; seed {data.get('seed')}, {data.get('hands', '?')} hands, "
               f"{data.get('leak_tests', '?')} worlds resampled, {data.get('forgotten_tests', '?')} changed): "
               + (f"{len(findings)} finding(s) ([views.json](fuzz/{name}/views.json))." if findings
                  else f"no leak, nothing forgotten ([views.json](fuzz/{name}/views.json))."), ""]
    if findings:
        out += ["| test | what | case |", "|---|---|---|"]
    for item in findings:
        case = Path(str(item.get("case") or ""))
        link = f"[`{case.stem}`](fuzz/{name}/views-cases/{case.name})" if case.name else ""
        out.append(f"| {item.get('kind')} | {_cell(str(item.get('message', '')))} (seat {item.get('seat')}, after "
                   f"{item.get('point')} actions) | {link} |")
    return out
