"""The Trickster Cards options page: each yes/no setting of Trickster's Euchre (as its bots
read them) and the option of a rule table it stands for, with that option's value when the
setting is on and when it is off. Built from the tables' options' ``trickster`` fields, as
the EGN page is built from their ``egn`` fields, so a setting mapped by a new table appears
with no code change; :func:`selection` reads a game's settings into option values."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Mapping

from .links import Links, md_cell, md_text, variant_page
from .tables import VariantView

TRICKSTER_PAGE = "trickster.md"
TRICKSTER_URL = "https://github.com/TricksterCards/TricksterBots"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _summary(option: Mapping[str, Any], value: Any) -> str:
    for choice in option.get("choices", []):
        if choice["value"] == value and type(choice["value"]) is type(value):
            return str(choice.get("summary", ""))
    return ""


def selection(options: Mapping[str, Mapping[str, Any]], settings: Mapping[str, bool]) -> dict[str, Any]:
    """The option values a table's ``options`` take for Trickster ``settings`` (setting name ->
    on or off). A setting no option maps is an error: it would be played silently otherwise."""
    by_name = {option["trickster"]["name"]: (key, option["trickster"]) for key, option in options.items()
               if option.get("trickster")}
    unknown = sorted(set(settings) - set(by_name))
    if unknown:
        raise KeyError(f"no option of this table stands for the Trickster setting(s) {', '.join(unknown)}")
    return {by_name[name][0]: by_name[name][1]["value-on" if on else "value-off"] for name, on in settings.items()}


def render_trickster(views: list[VariantView], links: Links) -> str:
    """The page: one row per Trickster setting and option, naming the tables that have it."""
    rows: dict[tuple[str, str, str, str], list[VariantView]] = defaultdict(list)
    first: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for view in views:
        for key, option in view.options.items():
            mapping = option.get("trickster")
            if not mapping:
                continue
            signature = (mapping["name"], key, _value(mapping["value-on"]), _value(mapping["value-off"]))
            rows[signature].append(view)
            first.setdefault(signature, {**option, "_view": view})
    lines = ["# Trickster Cards options", "",
             f"[Trickster Cards]({TRICKSTER_URL}) offers its Euchre with yes/no settings, named here as its bots read "
             "them. Each setting below is an option of a rule table: a game played with the setting on is the table "
             "with the option at the first value, off at the second. The page is built from the tables' options (their "
             "`trickster` field), so it lists exactly what the tables map; where a setting's meaning is a reading of "
             "ours, the option's note (on the table's page) says so.", ""]
    if not rows:
        return "\n".join(lines + ["No table maps a Trickster setting yet."]) + "\n"
    lines += ["| Trickster setting | Option | Tables | On | Off |", "|---|---|---|---|---|"]
    for signature in sorted(rows):
        name, key, on, off = signature
        option = first[signature]
        view = option["_view"]
        tables = ", ".join(links.variant(v.id, md_text(v.title), f"option-{key}") for v in rows[signature])
        option_link = f"[{md_text(option.get('title', key))}]({links.to(variant_page(view.id), 'option-' + key)}) `{key}`"
        on_text = f"`{on}`: {md_text(_summary(option, option['trickster']['value-on']))}"
        off_text = f"`{off}`: {md_text(_summary(option, option['trickster']['value-off']))}"
        lines.append(f"| `{name}` | {option_link} | {tables} | {md_cell(on_text)} | {md_cell(off_text)} |")
    return "\n".join(lines) + "\n"
