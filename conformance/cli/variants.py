"""``euchre-spec variants [NAME [OPTION]]``: the variants listed, or one variant's options explained."""

from __future__ import annotations

import argparse

from rich.table import Table

from reference_impl import SpecError
from reference_impl.cards import pack_cards
from reference_impl.catalog import variant_ids
from reference_impl.resolve import resolve

from conformance.common.console import console, escape, warn
from conformance.common.usage import EXIT_OK


# -- commands ------------------------------------------------------------------------------------
def cmd_variants(args: argparse.Namespace) -> int:
    if getattr(args, "name", None):
        from conformance.cli.explain import explain_variant
        return explain_variant(args.name, args.option_key)
    from conformance.cli.listing import field, fits_table, print_lines, wrapped
    wide = fits_table("variants")
    listed: list[str] = []
    table = Table(title="Variants", expand=False)
    table.add_column("id", no_wrap=True, style="bold")
    table.add_column("players", justify="right", no_wrap=True)
    table.add_column("cards", justify="right", no_wrap=True)
    table.add_column("options", justify="right", no_wrap=True)
    table.add_column("title and summary", ratio=1, min_width=24)
    broken: list[tuple[str, SpecError]] = []
    for variant in variant_ids():
        try:
            t = resolve(variant).table
        except SpecError as exc:        # one bad table of one's own hides none of the others
            broken.append((variant, exc))
            continue
        n_cards = len(pack_cards(t["deck"]))
        if not wide:        # a list: the id whole on its line, the rest indented and wrapped at spaces
            listed += ["", f"{variant}: {t['title']}",
                       *field("players, cards, options", f"{t['players']['count']}, {n_cards}, {len(t.get('options', {}))}"),
                       *wrapped(t["summary"])]
            continue
        table.add_row(escape(variant), str(t["players"]["count"]), str(n_cards), str(len(t.get("options", {}))),
                      f"{escape(t['title'])}\n[dim]{escape(t['summary'])}[/]")
    if wide:
        console.print(table)
    else:
        print_lines(["Variants (euchre-spec variants NAME explains one's options)"] + listed)
    for variant, exc in broken:     # listed on stderr, the exit status staying 0: the listing worked
        for problem in exc.problems:
            warn(f"{variant} is not listed, its table is refused: {problem}")
    return EXIT_OK


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``variants`` command's options, and the function it runs."""
    p.add_argument("name", nargs="?", metavar="NAME", help="a variant: its options, values, meanings and sources")
    p.add_argument("option_key", nargs="?", metavar="OPTION", help="one option of it, each value in detail")
    p.set_defaults(func=cmd_variants)
