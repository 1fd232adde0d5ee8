"""The protocol's messages as the runner checks them: which reply schema answers which request,
the observation's required, optional and traced fields, and the fields compared as sets."""

from __future__ import annotations

from reference_impl.catalog import load_schema

# Error categories about the rules: refusing a legal action for one of these is a rules failure.
RULE_CATEGORIES = frozenset({"illegal_action", "out_of_turn", "wrong_phase", "bad_deal"})

SET_FIELDS = frozenset({"legal", "sitting_out"})

# Per seat, a set of cards or null (hidden in a seat's view).
SEAT_SET_FIELDS = frozenset({"hands", "discards", "passed", "received"})

# Fields of the observation (and a step's trick winner) whose clause is traced in the reference.
TRACED_FIELDS = frozenset(load_schema("protocol/observation.schema.json")["properties"]) | {"trick_winner"}

REPLY_SCHEMAS = {"hello": "hello-reply", "rules": "ok-reply", "new_game": "state-reply", "deal": "state-reply",
                 "act": "state-reply", "state": "state-reply", "legal": "legal-reply", "bye": "ok-reply",
                 "perft": "perft-reply"}

OBSERVATION_REQUIRED = tuple(load_schema("protocol/observation.schema.json")["required"])

OBSERVATION_REQUIRED_SET = frozenset(OBSERVATION_REQUIRED)

OPTIONAL_FIELDS = frozenset(load_schema("protocol/observation.schema.json")["properties"]) - OBSERVATION_REQUIRED_SET
