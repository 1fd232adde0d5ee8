"""The step-through viewer's figures, checked against the case's own expectations at every
step of every worked example of every variant page: the trick just won, the tricks each
side has taken, the scores; and the last frame against the hand's expected end. The
expected figures come from the case (its ``trick_winner``, ``tricks_won``, ``scores``,
``hand_points``), never from the engine's state the viewer is built from.

The frames the browser draws from these data are checked in tests/test_site_browser.py.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from reference_impl.catalog import variant_ids
from rules_site.corpus import load_site_cases, replay
from rules_site.notation import Notation
from rules_site.variant import pick_examples
from rules_site.viewer import viewer_data


@pytest.fixture(scope="module")
def examples():
    by_variant = defaultdict(list)
    for case in load_site_cases():
        by_variant[case.variant].append(case)
    return {v: pick_examples(by_variant[v]) for v in variant_ids()}


def by_unit(per_seat: list[int], words: Notation) -> list[int]:
    out = [0] * len(words.units)
    for seat, count in enumerate(per_seat):
        unit = words.unit_of(seat)
        if unit is not None:
            out[unit] += count
    return out


def expected_tally(hand_spec: dict, words: Notation, start_scores: list[int] | None,
                   tricks_in_hand: int) -> list[tuple[list[int] | None, list[int] | None]]:
    """What the case alone says each frame of a hand must show: (tricks taken by side, scores),
    None where it does not say. Tricks are known at every frame when the case names the
    winner of every trick; scores hold from the start of the hand until a step expects others."""
    accepted = [s for s in hand_spec["steps"] if not s.get("reject")]
    winners = [s["expect"]["trick_winner"] for s in accepted if "trick_winner" in (s.get("expect") or {})]
    every_trick = len(winners) == tricks_in_hand
    taken = [0] * len(words.units)
    scores = start_scores
    out = [(list(taken) if every_trick else None, scores)]
    for step in accepted:
        expect = step.get("expect") or {}
        if "trick_winner" in expect:
            taken[words.unit_of(expect["trick_winner"])] += 1
        won = list(taken) if every_trick else by_unit(expect["tricks_won"], words) if "tricks_won" in expect else None
        if "scores" in expect:
            scores = expect["scores"]
        elif "hand_points" in expect:
            scores = None
        out.append((won, scores))
    end = hand_spec.get("expect") or {}
    won, scores = out[-1]
    if "tricks_won" in end:
        won = by_unit(end["tricks_won"], words)
    out[-1] = (won, end.get("scores"))            # the last step scores the hand
    return out


def frame_faults(case, hand_spec, data, words: Notation, start_scores: list[int] | None) -> list[str]:
    """Every frame of one hand's viewer against what the case expects there."""
    faults: list[str] = []
    frames = data["frames"]
    accepted = [s for s in hand_spec["steps"] if not s.get("reject")]
    if len(frames) != len(accepted) + 1:
        return [f"{len(frames)} frames for {len(accepted)} accepted steps (one frame per step, plus the deal)"]
    if any(f["won"] != [0] * len(words.units) for f in frames[:1]):
        faults.append(f"the deal shows tricks taken: {frames[0]['won']}")
    winners = [s["expect"]["trick_winner"] for s in accepted if "trick_winner" in (s.get("expect") or {})]
    every_trick_expected = len(winners) == sum(frames[-1]["won"]) or (
        "tricks_won" in (hand_spec.get("expect") or {}) and len(winners) == sum(hand_spec["expect"]["tricks_won"]))
    taken = [0] * len(words.units)
    for number, (step, shown) in enumerate(zip(accepted, frames[1:]), 1):
        expect = step.get("expect") or {}
        where = f"{case.id} step {number} ({step['seat']} {step['action']})"
        if "trick_winner" in expect:
            taken[words.unit_of(expect["trick_winner"])] += 1
            if shown["winner"] != expect["trick_winner"] or not shown["trick"]:
                faults.append(f"{where}: the trick just won should show {expect['trick_winner']} as its winner, "
                              f"shows {shown['winner']}")
        if every_trick_expected and shown["won"] != taken:
            faults.append(f"{where}: tricks taken {shown['won']}, the case's trick winners give {taken}")
        if "tricks_won" in expect and shown["won"] != by_unit(expect["tricks_won"], words):
            faults.append(f"{where}: tricks taken {shown['won']}, the case expects {by_unit(expect['tricks_won'], words)}")
        if "scores" in expect and shown["scores"] != expect["scores"]:
            faults.append(f"{where}: scores {shown['scores']}, the case expects {expect['scores']}")
        if start_scores is not None and "scores" not in expect and not shown["done"] and shown["scores"] != start_scores:
            faults.append(f"{where}: the score moved during the hand to {shown['scores']}")
    end = hand_spec.get("expect") or {}
    last = frames[-1]
    for key in ("scores", "hand_points"):
        if key in end and last[key] != end[key]:
            faults.append(f"{case.id}, end of the hand: {key} {last[key]}, the case expects {end[key]}")
    if "tricks_won" in end and last["won"] != by_unit(end["tricks_won"], words):
        faults.append(f"{case.id}, end of the hand: tricks {last['won']}, the case expects {by_unit(end['tricks_won'], words)}")
    if "hand_points" in end and not last["done"]:
        faults.append(f"{case.id}: the last frame does not say the hand is over")
    return faults


def test_every_frame_of_every_example_matches_the_case(examples):
    faults: list[str] = []
    checked = 0
    for variant, cases in examples.items():
        for case in cases:
            rep = replay(case)
            if rep.problem:           # the page says so in a warning; the hands before it are checked
                faults += [] if rep.hands and rep.hands[0].start else [f"{case.id} does not replay: {rep.problem}"]
            words = Notation(rep.table)
            scores = case.setup.get("scores")
            for hand_spec, hand in zip(case.hands, rep.hands):
                if hand.start is None or hand.end is None:
                    break
                data = viewer_data(case, hand, rep.table)
                faults += frame_faults(case, hand_spec, data, words, scores)
                checked += len(data["frames"])
                scores = (hand_spec.get("expect") or {}).get("scores")
    assert checked > 500
    assert not faults, f"{len(faults)} wrong frames, e.g.\n" + "\n".join(faults[:12])


def test_a_sit_out_hand_counts_its_last_trick(examples):
    """Euchre's lone march: the loner takes all five tricks with a partner sitting out; each
    trick has three cards, and the fifth is counted (the old viewer stopped at 4)."""
    case = next(c for c in load_site_cases() if c.id == "deal-by-packets-lone-march")
    rep = replay(case)
    data = viewer_data(case, rep.hands[0], rep.table)
    assert data["frames"][-1]["won"] == [0, 5]
    assert data["frames"][-1]["scores"] == [0, 4]
    assert len(data["frames"][-1]["trick"]) == 3


def test_the_viewer_shows_what_lies_on_the_table():
    """The upcard while it is there, the dummy (a widow by another name) and the kitty."""
    cases = {c.id: c for c in load_site_cases()}
    euchre = cases["made-three-tricks"]
    rep = replay(euchre)
    frames = viewer_data(euchre, rep.hands[0], rep.table)["frames"]
    assert frames[0]["table"][0]["name"] == "Upcard" and frames[0]["table"][0]["cards"] == [rep.hands[0].start["upcard"]]
    assert any(p["name"].startswith("Kitty") for p in frames[0]["table"])
    assert not any(p["name"] == "Upcard" for p in frames[-1]["table"])      # taken up, trumps made
    dummy = next(c for c in cases.values() if c.variant == "two-hand-dummy" and c.hand_written)
    rep = replay(dummy)
    frames = viewer_data(dummy, rep.hands[0], rep.table)["frames"]
    assert any(p["name"] == "Dummy" and len(p["cards"]) == 2 for p in frames[0]["table"])


def test_five_hundreds_bids_are_a_schedule():
    """The legal bids of Five Hundred laid out by tricks and suit, not in one row."""
    case = next(c for c in load_site_cases() if c.variant == "five-hundred" and c.hand_written
                and any(s["action"].startswith("bid:") for h in c.hands for s in h["steps"]))
    rep = replay(case)
    data = viewer_data(case, rep.hands[0], rep.table)
    grid = data["grids"][data["frames"][0]["grid"]]
    assert grid["tricks"] == [6, 7, 8, 9, 10] and len(grid["strain_codes"]) == 5
    assert sum(1 for row in grid["cells"] for t in row if t) == 25
