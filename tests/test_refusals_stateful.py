"""Every token at every step: a Hypothesis state machine plays random games of every variant
under random options and, before each move, offers the seat to act every action token of
the variant's vocabulary and a set of malformed ones, through the Python API and through
the protocol (the reference engine's request handler).

What must hold at every step:
- an action is accepted exactly when it is in ``legal_actions()`` (the legal set is exactly
  the set of tokens accepted);
- a refusal is an :class:`ActionError` (a protocol error reply) of a documented category:
  ``wrong_phase`` when no one is to act, ``out_of_turn`` for another seat, else
  ``illegal_action``; never anything else (a ``KeyError`` from a token the phase does not
  expect was such a case);
- a refusal leaves the state exactly as it was;
- the protocol refuses with the same category as the Python API.
"""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from conformance.reference_engine import ReferenceEngine
from support import option_strategy
from reference_impl import ActionError, load_rules, new_game
from reference_impl.catalog import variant_ids
from reference_impl.selfplay import random_action

VARIANTS = variant_ids()
MALFORMED = ["", " ", "PASS", "pass ", "play:", "play:ZZ", "play:JH:x", "discard:", "bid:", "call:", "call:X",
             "name:NT", "give:", ":", "\u2663", "play:\u00a0JH", 5, None, True, 2.5, ["pass"], {"action": "pass"}]
CATEGORIES = {"wrong_phase", "out_of_turn", "illegal_action"}


def vocabulary(rules) -> list:
    """Every token the variant knows, and tokens it does not."""
    return sorted(rules.decode) + MALFORMED


class EveryTokenAtEveryStep(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.rules = None

    @initialize(variant=st.sampled_from(VARIANTS), data=st.data())
    def start(self, variant, data):
        chosen = data.draw(option_strategy(variant), label="options")
        self.rules = load_rules(variant, chosen)
        self.rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
        dealer = self.rng.randrange(self.rules.n)
        self.state = new_game(self.rules, dealer)
        self.engine = ReferenceEngine()
        table = self.rules.resolved
        for message in ({"type": "rules", "variant": variant, "options": table.selected, "sha256": table.sha256,
                         "table": table.table}, {"type": "new_game", "dealer": dealer}):
            assert self.engine.handle({"id": 1, **message})["ok"]
        self.tokens = vocabulary(self.rules)

    @precondition(lambda self: self.rules is not None and self.state.is_chance_node())
    @rule()
    def deal(self):
        deal = self.rules.random_deal(self.rng, self.state.dealer)
        self.state.deal(deal)
        reply = self.engine.handle({"id": 2, "type": "deal", **deal.to_json()})
        assert reply["ok"], reply

    @precondition(lambda self: self.rules is not None and not self.state.is_chance_node() and not self.state.is_terminal())
    @rule(data=st.data())
    def offer_every_token_then_move(self, data):
        state, seat = self.state, self.state.to_act
        before = state.observation()
        legal = set(state.legal_actions())
        accepted = set()
        for token in self.tokens:
            trial = state.clone()
            try:
                trial.apply(token, seat)
            except ActionError as refused:
                assert refused.category == "illegal_action", (token, refused.category)
                assert trial.observation() == before, f"refusing {token!r} changed the state"
                continue
            accepted.add(token)
        assert accepted == legal, (sorted(accepted ^ legal), state.phase)
        other = (seat + 1) % self.rules.n
        some = data.draw(st.sampled_from(self.tokens), label="offered by another seat")
        with_other = state.clone()
        try:
            with_other.apply(some, other)
        except ActionError as refused:
            assert refused.category == "out_of_turn"
        else:
            raise AssertionError(f"seat {other} acted out of turn with {some!r}")
        # The protocol: a sample of tokens, by the right seat and by another; refusals match.
        for token, by in ((data.draw(st.sampled_from(self.tokens), label="protocol token"), seat),
                          (data.draw(st.sampled_from(self.tokens), label="protocol token"), other)):
            saved = self.engine.state.clone()
            reply = self.engine.handle({"id": 3, "type": "act", "seat": by, "action": token})
            if not isinstance(token, str):
                assert reply["error"]["category"] == "bad_message", reply
            elif by == seat and token in legal:
                assert reply["ok"], reply
            else:
                expected = "out_of_turn" if by != seat else "illegal_action"
                assert reply["ok"] is False and reply["error"]["category"] == expected, (token, reply)
                assert self.engine.state.observation() == before
            self.engine.state = saved
        action = random_action(self.rng, state)
        state.apply(action)
        assert self.engine.handle({"id": 4, "type": "act", "seat": seat, "action": action})["ok"]

    @precondition(lambda self: self.rules is not None and (self.state.is_chance_node() or self.state.is_terminal()))
    @rule(data=st.data())
    def nobody_to_act_refuses_everything(self, data):
        token = data.draw(st.sampled_from(self.tokens))
        seat = data.draw(st.integers(0, self.rules.n - 1))
        before = copy.deepcopy(self.state.observation())
        try:
            self.state.apply(token, seat)
        except ActionError as refused:
            assert refused.category == "wrong_phase"
        else:
            raise AssertionError("an action was accepted while no one is to act")
        assert self.state.observation() == before
        reply = self.engine.handle({"id": 5, "type": "act", "seat": seat, "action": token})
        expected = "bad_message" if not isinstance(token, str) else "wrong_phase"
        assert reply["error"]["category"] == expected

    @invariant()
    def the_protocol_and_the_api_agree(self):
        if self.rules is not None:
            assert self.engine.state.observation() == self.state.observation()


EveryTokenAtEveryStep.TestCase.settings = settings(
    max_examples=25, stateful_step_count=60, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
TestEveryTokenAtEveryStep = EveryTokenAtEveryStep.TestCase
