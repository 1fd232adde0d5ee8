"""``euchre-spec variants NAME [OPTION]``: a table's options, their values, meanings and sources.

An engine author declares option values in ``hello`` and reads failures that cite them; what
each option means is in the rule table itself (its title, summary, note, each value's
summary and the clauses it brings), shipped with the package. This prints it offline, so
nobody has to read the YAML inside site-packages or find the rules site.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table

from reference_impl.options import describe_values, yaml_text
from reference_impl.resolve import resolve

from conformance.common.console import console, escape, plain
from conformance.cli.listing import field, fits_table, print_lines, wrapped
from conformance.common.usage import EXIT_OK, UsageError


def source_text(table: dict[str, Any], key: str | None) -> str:
    """A source as a reader can find it: its title, and its address where it has one."""
    if not key:
        return ""
    source = (table.get("sources") or {}).get(key) or {}
    text = source.get("title") or key
    if source.get("url"):
        text += f" <{source['url']}>"
    return text


def option_rows(table: dict[str, Any]) -> list[dict[str, str]]:
    """One row per option: key, values, default, meaning, source (plain text)."""
    rows = []
    for key, option in (table.get("options") or {}).items():
        meaning = option.get("title", key)
        if option.get("summary"):
            meaning += f": {option['summary']}"
        if option.get("note"):
            meaning += f" ({option['note']})"
        rows.append({"key": key, "values": describe_values(option), "default": yaml_text(option.get("default")),
                     "meaning": meaning, "source": source_text(table, option.get("source")),
                     "egn": option.get("egn", "")})
    return rows


def explain_variant(name: str, option: str | None = None) -> int:
    """Print variant ``name``'s options (or one option in detail)."""
    table = resolve(name).table
    options = table.get("options") or {}
    if option is not None:
        if option not in options:
            raise UsageError(f"variant {name} has no option {option!r} (its options: {', '.join(options) or 'none'})")
        return _explain_option(table, option, options[option])
    if fits_table("options"):
        plain(f"{name}: {table['title']}")
        plain(table.get("summary", ""))
    if not options:
        plain("No options: this table is played as it is.")
        return EXIT_OK
    if not fits_table("options"):
        print_lines(wrapped(f"{name}: {table['title']}", "") + wrapped(table.get("summary", ""), ""))       # a list: each option's key whole on its line, its fields below
        lines = ["", *wrapped(f"Options of {name} (--option KEY=VALUE; declare the values an engine supports in hello):", "")]
        for row in option_rows(table):
            lines += ["", row["key"] + (f"  (EGN {row['egn']})" if row["egn"] else "")]
            lines += field("values", row["values"]) + field("default", row["default"]) + field("meaning", row["meaning"])
            if row["source"]:
                lines += field("source", row["source"])
        print_lines(lines + ["", f"Each value in detail: euchre-spec variants {name} OPTION"])
        return EXIT_OK
    grid = Table(title=f"Options of {name} (--option KEY=VALUE; declare the values an engine supports in hello)",
                 expand=False, show_lines=True)
    for column, style in (("option", "bold"), ("values", ""), ("default", ""), ("meaning", ""), ("source", "dim")):
        grid.add_column(column, style=style or None, no_wrap=column == "option")
    for row in option_rows(table):
        grid.add_row(escape(row["key"]) + (f"\n[dim]EGN {escape(row['egn'])}[/]" if row["egn"] else ""),
                     escape(row["values"]), escape(row["default"]), escape(row["meaning"]), escape(row["source"]))
    console.print(grid)
    plain(f"Each value in detail: euchre-spec variants {name} OPTION")
    return EXIT_OK


def _explain_option(table: dict[str, Any], key: str, option: dict[str, Any]) -> int:
    plain(f"{key} ({table['id']}): {option.get('title', key)}")
    if option.get("summary"):
        plain(option["summary"])
    if option.get("note"):
        plain(f"Note: {option['note']}")
    plain(f"Default: {yaml_text(option.get('default'))}. Source: {source_text(table, option.get('source'))}"
          + (f". EGN: {option['egn']}" if option.get("egn") else ""))
    for choice in option.get("choices", []):
        plain(f"- {yaml_text(choice['value'])}: {choice.get('summary', '')}")
        for clause in choice.get("clauses") or []:
            replaces = f", in place of {clause['replaces']}" if clause.get("replaces") else ""
            plain(f"    rule {clause['id']}{replaces}: {clause['text']}  [{source_text(table, clause.get('source'))}]")
    span = option.get("range")
    if span:
        examples = ", ".join(yaml_text(v) for v in span.get("examples", []))
        plain(f"- any whole number from {span['minimum']} to {span['maximum']}" + (f" (e.g. {examples})" if examples else "")
              + f"; in hello: {{\"minimum\": {span['minimum']}, \"maximum\": {span['maximum']}}}")
    return EXIT_OK
