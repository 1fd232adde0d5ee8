"""A value a preset makes impossible is left out wherever option values are swept.

The `openspiel` preset keeps `lone-lead` at `eldest`, and `maker-leads=true` requires
`lone-lead=maker-left`: that value cannot be chosen in the preset, so `corpus generate` (which
sweeps every option's values) must leave it out rather than fail on the whole variant.
"""

from __future__ import annotations

import yaml

from conformance.corpus_tools.generate import generate
from reference_impl.options import reachable
from reference_impl.resolve import resolve


def test_a_value_whose_requirement_a_preset_removed_is_unreachable():
    preset = resolve("openspiel").table["options"]
    base = resolve("euchre").table["options"]
    assert preset["lone-lead"].get("choices") and all(c["value"] == "eldest" for c in preset["lone-lead"]["choices"])
    assert not reachable(preset, "maker-leads", True)
    assert reachable(preset, "maker-leads", False)
    assert reachable(base, "maker-leads", True)


def test_generating_the_preset_skips_the_unreachable_value(tmp_path):
    written = generate("openspiel", tmp_path, hands_per_combination=1)
    assert written
    chosen = [yaml.safe_load(path.read_text(encoding="utf-8")).get("options", {}) for path in written]
    assert all(options.get("maker-leads") is not True for options in chosen)
