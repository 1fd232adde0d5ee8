"""EGN's ruleset flags and the options of the ``euchre`` table, both ways.

Each option of ``euchre`` that reads an EGN flag says so in the table (``egn: <flag>``);
the option for a flag is looked up there, never named here. What is written here is only
how a flag's *value* becomes the option's value (EGN's ``LEFT_OF_DEALER`` is the option
value ``eldest``), and EGN's defaults, which differ from the table's: an imported case
names every flag's option explicitly, so its options say exactly what the record's rules
are, whatever either side's defaults.

``defend_alone`` is two options: EGN's lone defender who succeeds scores 4, which is
``lone-defender-scoring: four-for-euchre`` besides ``defending-alone: true``.

``num_players`` other than 4 is refused: EGN gives no rules for other numbers of players
beyond "adjust lead determination, team assignment, and scoring", its flags are options of
``euchre`` only, and the tables for other numbers (``two-hand``, ``three-hand-dummy``,
``call-ace``, ``six-hand``) deal a dummy or a widow, call a partner, or play teams of three, none
of which an EGN record can say; no sound mapping exists.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from reference_impl import SpecError, load_rules
from reference_impl.options import coerce, yaml_text
from reference_impl.resolve import resolve
from reference_impl.rules import Rules

from .record import FLAGS, Record

VARIANT = "euchre"
LONE_LEAD = {"LEFT_OF_DEALER": "eldest", "LEFT_OF_LONER": "maker-left"}
BENNY = {True: "joker", False: "none"}
# What EGN's defend_alone also means: a lone defender who succeeds scores 4.
DEFEND_ALONE_SCORING = ("lone-defender-scoring", "four-for-euchre")
OTHER_TABLES = {2: "two-hand", 3: "three-hand-dummy", 5: "call-ace", 6: "six-hand"}


class Unmappable(ValueError):
    """Rules that one side cannot say: names the flag (import) or the option (export)."""


@lru_cache(maxsize=1)
def flag_options() -> dict[str, str]:
    """EGN flag -> the option of ``euchre`` that reads it (from the table's ``egn:`` keys)."""
    options = resolve(VARIANT).table.get("options", {})
    return {option["egn"]: key for key, option in options.items() if option.get("egn")}


def _option_value(flag: str, value: Any) -> Any:
    if flag == "loner_lead":
        return LONE_LEAD[value]
    if flag == "joker":
        return BENNY[value]
    return value


def _flag_value(flag: str, key: str, value: Any) -> Any:
    table = LONE_LEAD if flag == "loner_lead" else BENNY if flag == "joker" else None
    if table is None:
        return value
    for egn_value, ours in table.items():
        if ours == value:
            return egn_value
    raise Unmappable(f"EGN cannot say {key}={yaml_text(value)} (its {flag} has no such value)")


def options_for_flags(flags: Mapping[str, Any]) -> dict[str, Any]:
    """The options of ``euchre`` for a complete set of flag values (every flag given).

    Raises :class:`Unmappable` naming the flag whose value no option has."""
    declared = resolve(VARIANT).table["options"]
    mapping = flag_options()
    players = flags["num_players"]
    if players != 4:
        other = OTHER_TABLES.get(players)
        table = f"the {other} table" if other else "no table for that many players"
        raise Unmappable(f"ruleset num_players {players}: only four-player records can be imported (EGN gives no rules "
                         f"for other numbers beyond adjusting lead, teams and scoring, and its flags are options of "
                         f"{VARIANT} only; {table} would need records of its own shape)")
    options: dict[str, Any] = {}
    for flag in FLAGS:
        if flag == "num_players":
            continue
        key = mapping.get(flag)
        if key is None:
            raise Unmappable(f"ruleset {flag}: no option of {VARIANT} reads this flag yet")
        try:
            options[key] = coerce(declared[key], _option_value(flag, flags[flag]))
        except (ValueError, KeyError):
            raise Unmappable(f"ruleset {flag} {flags[flag]!r}: option {key} has no such value "
                             f"({', '.join(yaml_text(v) for v in _values(declared[key]))})") from None
    if flags["defend_alone"]:
        options[DEFEND_ALONE_SCORING[0]] = DEFEND_ALONE_SCORING[1]
    return options


def _values(option: Mapping[str, Any]) -> list[Any]:
    values = [c["value"] for c in option.get("choices", [])]
    if "range" in option:
        values.append(f"{option['range']['minimum']}..{option['range']['maximum']}")
    return values


def record_options(record: Record) -> dict[str, Any]:
    """The options a record's ruleset maps to (EGN's defaults for the flags it omits)."""
    return options_for_flags({flag: record.flag(flag) for flag in FLAGS})


def rules_for(options: Mapping[str, Any]) -> Rules:
    """The rules of those options; a combination the table refuses is :class:`Unmappable`."""
    try:
        return _rules(tuple(sorted(options.items())))
    except SpecError as exc:
        raise Unmappable("; ".join(p.message for p in exc.problems)) from None


@lru_cache(maxsize=32)
def _rules(items: tuple[tuple[str, Any], ...]) -> Rules:
    return load_rules(VARIANT, dict(items))


@dataclass
class Ruleset:
    """What EGN can say of a game's rules: the flags, the options they map back to, and the
    options EGN has no flag for at other values (``extras``), which an exported record notes
    in its description for our importer (and which must not change the game, see export)."""

    flags: dict[str, Any]
    options: dict[str, Any]
    extras: dict[str, Any]


def flags_for_rules(rules: Rules) -> Ruleset:
    """The EGN ruleset of a game's rules, every flag written.

    Raises :class:`Unmappable` where no flag value says an option's value (a Benny that is
    not the joker, a target score together with a number of deals, which EGN forbids)."""
    if rules.id != VARIANT:
        raise Unmappable(f"variant {rules.id}: EGN records four-handed Euchre (variant {VARIANT}) only")
    selected = rules.selected
    flags: dict[str, Any] = {}
    for flag, key in flag_options().items():
        flags[flag] = _flag_value(flag, key, selected[key])
    flags["num_players"] = 4
    target, deals = flags.get("winning_score"), flags.get("num_deals")
    if target and deals:
        raise Unmappable(f"EGN cannot say game-target={target} with fixed-deals={deals}: an EGN game has a target "
                         "score or a number of deals, never both")
    if deals:
        del flags["winning_score"]
    else:
        del flags["num_deals"]
    complete = dict(flags)
    complete.setdefault("winning_score", 0 if deals else target)
    complete.setdefault("num_deals", deals or 0)
    back = options_for_flags(complete)
    declared = rules.table["options"]
    extras = {key: value for key, value in selected.items() if value != back.get(key, declared[key]["default"])}
    ordered = {flag: flags[flag] for flag in FLAGS if flag in flags}
    return Ruleset(ordered, back, extras)


OPTIONS_NOTE = re.compile(r"euchre-spec options: ((?:[a-z0-9-]+=[A-Za-z0-9-]+)(?:, [a-z0-9-]+=[A-Za-z0-9-]+)*)")


def options_note(extras: Mapping[str, Any]) -> str:
    """The sentence an exported record's description carries for options EGN has no flag for."""
    return "euchre-spec options: " + ", ".join(f"{k}={yaml_text(v)}" for k, v in extras.items()) + "."


def noted_options(description: str | None) -> tuple[dict[str, Any], list[str]]:
    """The options our exporter noted in a record's description (options without an EGN flag
    only), and what in the note could not be used."""
    match = OPTIONS_NOTE.search(description or "")
    if not match:
        return {}, []
    declared = resolve(VARIANT).table["options"]
    backed = set(flag_options().values())
    out: dict[str, Any] = {}
    ignored: list[str] = []
    for pair in match.group(1).split(", "):
        key, _, raw = pair.partition("=")
        if key not in declared or key in backed:
            ignored.append(pair)
            continue
        try:
            out[key] = coerce(declared[key], raw)
        except ValueError:
            ignored.append(pair)
    return out, ignored
