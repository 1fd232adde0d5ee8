#!/usr/bin/env python3
"""Write the perft cases: tools/perft_positions.yaml -> conformance/corpus/perft/<id>.yaml.

Each count is the reference interpreter's; tests/test_perft.py confirms every one with an
independent enumerator (and OpenSpiel where the options are the ones it implements). A
position of another table than ``euchre`` (``variant``) starts at the first lead: its case
states the phase, the seat to lead and trumps (``play_start``, written by hand in the
positions file), and the brute-force counter of the play alone starts from that statement.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reference_impl import Deal, State, load_rules  # noqa: E402
from reference_impl.perft import divide, perft  # noqa: E402

OPENSPIEL_OPTIONS = {"stick-the-dealer": True, "alone-declared": "after-exchange", "dealer-discard": "not-upcard",
                     "defending-alone": False, "lone-lead": "eldest"}


def main() -> int:
    spec = yaml.safe_load((ROOT / "tools" / "perft_positions.yaml").read_text(encoding="utf-8"))
    out = ROOT / "conformance" / "corpus" / "perft"
    out.mkdir(parents=True, exist_ok=True)
    for position in spec["positions"]:
        variant = position.get("variant", "euchre")
        rules = load_rules(variant, position["options"])
        deal = position["deal"]
        state = State(rules, position["dealer"])
        state.deal(Deal(tuple(tuple(h.split()) for h in deal["hands"]), deal.get("upcard"), (),
                        tuple(deal.get("kitty", "").split())))
        steps = []
        for action in position["steps"]:
            steps.append({"seat": state.to_act, "action": action})
            state.apply(action)
        stated = position.get("play_start")
        if stated is not None:
            stated = {"phase": "play", **stated}
            if steps:
                steps[-1]["expect"] = stated
        confirmed = ["tests/perft_oracle.py (brute force)" if variant == "euchre" else "tests/perft_oracle.py (brute force, the play)"]
        if position["options"] == OPENSPIEL_OPTIONS:
            confirmed.append("OpenSpiel euchre (tests/openspiel_perft.py)")
        counts = []
        for depth in position["depths"]:
            count = {"depth": depth, "nodes": perft(state, depth), "confirmed_by": confirmed}
            if position.get("divide") == depth:
                count["divide"] = divide(state, depth)
            counts.append(count)
        hand = {"deal": deal, **({"after_deal": stated} if stated is not None and not steps else {}),
                "steps": steps, "perft": counts}
        case = {
            "id": position["id"], "title": position["title"], "variant": variant, "options": position["options"],
            "clauses": position.get("clauses", ["round-1", "follow-suit"]), "tags": ["perft"],
            "setup": {"dealer": position["dealer"]},
            "hands": [hand],
        }
        text = ("# Perft case written by tools/make_perft_cases.py from tools/perft_positions.yaml.\n"
                "# Counts: the reference interpreter's, confirmed by the enumerators named in confirmed_by.\n")
        (out / f"{position['id']}.yaml").write_text(text + yaml.safe_dump(case, sort_keys=False, width=140), encoding="utf-8")
        print(position["id"], [c["nodes"] for c in counts])
    return 0


if __name__ == "__main__":
    sys.exit(main())
