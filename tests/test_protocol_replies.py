"""Every reply the reference engine sends is valid against the published protocol schemas
(spec/schema/protocol), in every table: random games of every variant under random option
selections, played over the protocol's messages (rules, new_game, deal, act, legal, state,
a seat's view), each reply validated against the schema of its kind.

Each reply is checked as the runner checks it under --strict-replies
(reference_impl.schemas.document_errors): first the compiled validator, which only ever
answers "surely valid"; any other answer goes to the Python validator, the authority, which words the error. The pure
Python validator on every reply was 97% of this file's time (a minute of CPU).

The runner checks only the first reply of each kind unless --strict-replies (or its
default, see conformance/runner/play.py); a phase a table names that the published schema did
not allow went unseen in 293 cases that way. Here nothing is sampled."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.reference_engine import ReferenceEngine
from conformance.runner.fields import REPLY_SCHEMAS
from reference_impl import load_rules
from reference_impl.catalog import load_schema, variant_ids
from reference_impl.resolve import resolve
from reference_impl.schemas import document_errors, surely_valid, validator
from reference_impl.selfplay import random_action
from support import option_strategy

HANDS_PER_GAME = 6          # enough to pass every phase of a hand several times, and game ends in short games


class CheckedEngine:
    """The reference engine, each reply validated against its kind's schema as it is sent."""

    def __init__(self) -> None:
        self.engine = ReferenceEngine()
        self.next_id = 1
        self.replies = 0

    def send(self, kind: str, **fields) -> dict:
        message = {"id": self.next_id, "type": kind, **fields}
        self.next_id += 1
        reply = json.loads(json.dumps(self.engine.handle(message)))       # what goes over the wire
        schema = f"protocol/{REPLY_SCHEMAS[kind] if reply.get('ok') else 'error-reply'}.schema.json"
        errors = document_errors(schema, reply)
        assert not errors, (f"{kind} reply invalid at ${''.join(f'[{p}]' for p in errors[0].absolute_path)}: "
                            f"{errors[0].message}\nreply: {json.dumps(reply)[:600]}")
        self.replies += 1
        return reply


def play_checked(variant: str, options: dict, seed: int) -> int:
    """One random game (at most HANDS_PER_GAME hands) over the protocol; the replies checked."""
    resolved = resolve(variant, options)
    rules = load_rules(variant, options)
    rng = random.Random(seed)
    engine = CheckedEngine()
    engine.send("hello", protocol=1)
    engine.send("rules", variant=variant, options=resolved.selected, sha256=resolved.sha256, table=resolved.table)
    state = engine.send("new_game", dealer=rng.randrange(rules.n))["state"]
    mirror = None
    hands = 0
    while not state["game_over"] and hands < HANDS_PER_GAME:
        if state["phase"] == "deal":
            deal = rules.random_deal(rng, state["dealer"])
            state = engine.send("deal", **deal.to_json())["state"]
            hands += 1
            mirror = engine.engine.state                    # the engine's own state, to draw an action from
            continue
        if rng.random() < 0.1:
            engine.send("legal")
            engine.send("state", seat=rng.randrange(rules.n))
        action = random_action(rng, mirror)
        state = engine.send("act", seat=state["to_act"], action=action)["state"]
        if rng.random() < 0.05:                             # a refusal is a reply too
            engine.send("act", seat=(state["to_act"] or 0) + 1, action="play:XX")
    engine.send("state")
    engine.send("bye")
    return engine.replies


@pytest.mark.parametrize("variant", variant_ids())
def test_every_reply_of_random_games_is_valid(variant):
    @settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(options=option_strategy(variant), seed=st.integers(0, 2**32 - 1))
    def check(options, seed):
        assert play_checked(variant, options, seed) > 10
    check()


def test_the_phase_rule_is_the_variant_schemas():
    """A state's phase is any name a table may give a step's phase (the variant schema's
    rule), not a list that the tables outgrow."""
    observation = load_schema("protocol/observation.schema.json")["properties"]["phase"]
    variant = load_schema("variant.schema.json")
    step_phase = next(d["properties"]["phase"] for d in _walk(variant)
                      if isinstance(d, dict) and isinstance(d.get("properties"), dict)
                      and "phase" in d["properties"] and "clause" in d["properties"])
    assert "enum" not in observation
    assert observation["pattern"] == step_phase["pattern"] == variant["$defs"]["slug"]["pattern"]


def test_a_phase_outside_the_rule_is_invalid():
    """The gate can fail: a phase no table could name is refused by the published schema."""
    engine = CheckedEngine()
    engine.send("hello", protocol=1)
    resolved = resolve("euchre", {})
    engine.send("rules", variant="euchre", options={}, sha256=resolved.sha256, table=resolved.table)
    reply = engine.send("new_game", dealer=0)
    validate = validator("protocol/state-reply.schema.json")
    assert validate.is_valid(reply)
    assert surely_valid("protocol/state-reply.schema.json", reply)
    for bad in ("Bid Round 1", "", "bid_round_1", "play-"):
        wrong = {**reply, "state": {**reply["state"], "phase": bad}}
        assert not validate.is_valid(wrong), bad
        assert not surely_valid("protocol/state-reply.schema.json", wrong), bad      # the quick path sends it on


def _walk(node):
    yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)
