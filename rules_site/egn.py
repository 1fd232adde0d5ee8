"""The EGN house rules page: each ruleset flag of Euchre Game Notation (EGN) and the option
of a rule table it maps to, with that option's values; and ``num_players``, which picks a
table by its number of players. Built from the tables' options' ``egn`` fields, so a flag
mapped by a new table appears with no code change."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .links import Links, md_cell, md_text, variant_page
from .tables import VariantView

EGN_PAGE = "egn.md"
EGN_URL = "https://github.com/NextSuit-Labs/euchre-game-notation/blob/main/docs/alternate-rules.md"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def render_egn(views: list[VariantView], links: Links) -> str:
    """The page: one row per EGN flag, naming the option of each table that reads it."""
    by_flag: dict[str, list[tuple[VariantView, str, dict[str, Any]]]] = defaultdict(list)
    for view in views:
        for key, option in view.options.items():
            if option.get("egn"):
                by_flag[str(option["egn"])].append((view, key, option))
    lines = ["# EGN house rules", "",
             f"[Euchre Game Notation]({EGN_URL}) (EGN) records a game's house rules as a ruleset of named flags. Each "
             "flag below is an option of a rule table here: an EGN record's ruleset is read by choosing the option's "
             "value, and `num_players` picks the table. The page is built from the tables' options (their `egn` "
             "field), so it lists exactly what the tables map.", ""]
    if not by_flag and not views:
        return "\n".join(lines + ["No table maps an EGN flag yet."]) + "\n"
    lines += ["| EGN flag | Option | Tables | Values |", "|---|---|---|---|"]
    counts: dict[int, list[VariantView]] = defaultdict(list)
    for view in views:           # EGN records games whose trumps are made on the upcard, in rounds
        if any(step.get("kind") == "make-trumps" for step in view.table.get("hand") or []):
            counts[int(view.table["players"]["count"])].append(view)
    player_values = "<br>".join(f"`{n}`: " + ", ".join(links.variant(v.id, md_text(v.title)) for v in members)
                                for n, members in sorted(counts.items()))
    lines.append(f"| `num_players` | the table to play | the tables that make trumps on the upcard, by their number of "
                 f"players | {md_cell(player_values)} |")
    for flag in sorted(by_flag):
        entries = by_flag[flag]
        groups: dict[tuple[str, str], list[VariantView]] = defaultdict(list)
        first: dict[tuple[str, str], tuple[VariantView, dict[str, Any]]] = {}
        for view, key, option in entries:
            signature = (key, repr(sorted((_value(c["value"]) for c in option.get("choices", []))))
                         + repr(option.get("range")) + _value(option.get("default")))
            groups[signature].append(view)
            first.setdefault(signature, (view, option))
        for (key, _), members in groups.items():
            view, option = first[(key, _)]
            tables = ", ".join(links.variant(v.id, md_text(v.title), f"option-{key}") for v in members)
            values = []
            for choice in option.get("choices", []):
                default = " (default)" if choice["value"] == option.get("default") else ""
                values.append(f"`{_value(choice['value'])}`{default}: {md_text(choice.get('summary', ''))}")
            span = option.get("range")
            if span:
                default = f" (default {option.get('default')})" if not any(c["value"] == option.get("default") for c in option.get("choices", [])) else ""
                values.append(f"any whole number from {span['minimum']} to {span['maximum']}{default}")
            option_link = f"[{md_text(option.get('title', key))}]({links.to(variant_page(view.id), 'option-' + key)}) `{key}`"
            lines.append(f"| `{flag}` | {option_link} | {tables} | {md_cell('<br>'.join(values))} |")
    return "\n".join(lines) + "\n"
