"""The Trickster Cards options page and the reading of a Trickster game's settings, both from
the tables' `trickster` fields."""

from __future__ import annotations

import pytest

from reference_impl import load_rules
from reference_impl.resolve import resolve
from rules_site.links import Links
from rules_site.tables import all_views
from rules_site.trickster import TRICKSTER_PAGE, render_trickster, selection


@pytest.fixture(scope="module")
def views():
    return all_views()


def test_every_mapped_setting_has_a_row_naming_its_option(views):
    page = render_trickster(views, Links(TRICKSTER_PAGE, {v.id: set() for v in views}))
    euchre = next(v for v in views if v.id == "euchre")
    mapped = {o["trickster"]["name"]: key for key, o in euchre.options.items() if o.get("trickster")}
    assert {"aloneTake5", "take4for1", "callForBest", "makerLeadsFirst", "allowMisdeal", "allowLowNotrump"} <= set(mapped)
    for name, key in mapped.items():
        row = next(line for line in page.splitlines() if line.startswith(f"| `{name}` |"))
        assert f"`{key}`" in row and "variants/euchre.md#option-" + key in row


def test_settings_read_as_option_values_that_play(views):
    euchre = next(v for v in views if v.id == "euchre")
    chosen = selection(euchre.options, {"aloneTake5": True, "take4for1": False, "withJoker": True, "defendAlone": False})
    assert chosen == {"alone-take-five": True, "makers-need-four": False, "benny": "joker", "defending-alone": False}
    rules = load_rules("euchre", chosen)            # the selection is one the table accepts
    assert "JK" in rules.card_index and "lone-short" in {row.id for row in rules.scoring_rows}


def test_an_unmapped_setting_is_refused_not_ignored(views):
    euchre = next(v for v in views if v.id == "euchre")
    with pytest.raises(KeyError, match="farmersHand"):
        selection(euchre.options, {"farmersHand": True})


def test_a_child_that_cannot_play_both_values_drops_the_mapping():
    # british keeps only the Benny values: it can no longer stand for withJoker off
    benny = resolve("british", {}).table["options"]["benny"]
    assert "trickster" not in benny
    assert "trickster" in resolve("euchre", {}).table["options"]["benny"]
