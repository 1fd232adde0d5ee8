"""The site's replay of a case on the reference engine, and the warning a worked example
shows when the reference does not follow the script: a refusal the script asks for (a step's
``reject``, a hand's ``deal_reject``) is the script being followed; only a real divergence
(the reference accepting what the script has refused, refusing with another category, or
refusing what the script plays) is warned about.
"""

from __future__ import annotations

import copy
import dataclasses

import pytest

from conformance import CORPUS_DIR
from rules_site.corpus import load_site_cases, replay
from rules_site.examples import render_example
from rules_site.links import Links

WARNING = "The reference engine does not follow this script"

# the four player pages whose examples end with a deal the engine must refuse (issue 33)
DEAL_REFUSED = ["six-hand/six-hand-throw-in-then-march-to-ten.yaml", "call-ace/call-ace-level-at-target-plays-on.yaml",
                "buck-euchre/buck-euchre-level-at-zero-plays-on.yaml",
                "hasenpfeffer/hasenpfeffer-both-reach-ten-bidders-win.yaml"]


@pytest.fixture(scope="module")
def refusing_cases():
    """Every corpus case that asks the engine to refuse something (a deal or an action)."""
    return [case for case in load_site_cases()
            if any("deal_reject" in hand or any("reject" in step for step in hand.get("steps") or [])
                   for hand in case.hands)]


@pytest.fixture(scope="module")
def links():
    return Links("variants/euchre.md")


def one(rel: str):
    [case] = load_site_cases([CORPUS_DIR / rel])
    return case


def with_hands(case, hands):
    return dataclasses.replace(case, hands=hands)


@pytest.mark.parametrize("rel", DEAL_REFUSED)
def test_a_refused_deal_is_the_script_followed(rel, links):
    case = one(rel)
    rep = replay(case)
    assert rep.problem is None
    assert rep.hands[-1].refused == case.hands[-1]["deal_reject"]
    page = render_example(case, rep, links)
    assert WARNING not in page
    assert "The deal is refused" in page


def test_every_case_with_a_refusal_replays_without_a_warning(refusing_cases):
    assert len(refusing_cases) > 50
    diverging = {case.id: replay(case).problem for case in refusing_cases}
    assert {k: v for k, v in diverging.items() if v} == {}


def test_a_deal_the_reference_accepts_is_warned_about(links):
    case = one(DEAL_REFUSED[0])
    hands = copy.deepcopy(case.hands)
    del hands[-1]["deal_reject"]           # then planted on a hand that is a correct deal
    hands[0]["deal_reject"] = "wrong_phase"
    rep = replay(with_hands(case, hands[:1]))
    assert rep.problem and "accepted a deal it must refuse" in rep.problem
    assert WARNING in render_example(with_hands(case, hands[:1]), rep, links)


def test_a_deal_refused_with_another_category_is_warned_about(links):
    case = one(DEAL_REFUSED[1])
    hands = copy.deepcopy(case.hands)
    hands[-1]["deal_reject"] = "bad_deal"
    rep = replay(with_hands(case, hands))
    assert rep.problem and "not bad_deal" in rep.problem
    assert WARNING in render_example(with_hands(case, hands), rep, links)


def test_a_step_refused_with_another_category_or_accepted_is_warned_about(refusing_cases, links):
    case = next(c for c in refusing_cases if any(s.get("reject") == "illegal_action" for s in c.hands[0].get("steps") or []))
    index = next(i for i, s in enumerate(case.hands[0]["steps"]) if s.get("reject") == "illegal_action")
    hands = copy.deepcopy(case.hands)
    hands[0]["steps"][index]["reject"] = "out_of_turn"
    rep = replay(with_hands(case, hands))
    assert rep.problem and f"step {index + 1}" in rep.problem and "not out_of_turn" in rep.problem
    assert WARNING in render_example(with_hands(case, hands), rep, links)
    # a refusal planted on the step the script plays next: the reference accepts it
    hands = copy.deepcopy(case.hands)
    following = next(i for i, s in enumerate(hands[0]["steps"]) if i > index and "reject" not in s)
    hands[0]["steps"][following]["reject"] = "illegal_action"
    rep = replay(with_hands(case, hands))
    assert rep.problem and "accepted" in rep.problem
    assert WARNING in render_example(with_hands(case, hands), rep, links)
