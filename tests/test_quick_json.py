"""orjson is only a shortcut for the protocol's and the cache's JSON: wherever it answers, it must answer
exactly what the standard library answers, so that no result depends on whether it is
installed."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl import quick_json
from conformance.cases import load_cases, load_corpus_meta
from conformance.runner.selection import table_groups
from conformance.runner.engine_process import InProcessEngine
from conformance.runner.session import Session
from reference_impl.quick_json import NOT_READ, quick_dumps, quick_loads

pytestmark = pytest.mark.skipif(quick_json.orjson is None, reason="orjson is not installed here")

integers = st.one_of(st.integers(-2**70, 2**70), st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1]))
text = st.text(st.characters(codec="utf-8"))      # surrogates excluded: see the next strategy
scalars = st.one_of(st.none(), st.booleans(), integers, text)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                        st.dictionaries(text, inner, max_size=5)), max_leaves=30)


@given(values)
@settings(max_examples=400, deadline=None)
def test_what_orjson_writes_is_what_json_writes(value):
    written = quick_dumps(value)
    standard = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    assert written is None or written == standard
    assert written is not None or any(abs(n) >= 2**63 for n in _integers(value))


@given(values, st.sampled_from(["", " ", "\n"]))
@settings(max_examples=400, deadline=None)
def test_what_orjson_reads_is_what_json_reads(value, space):
    data = (json.dumps(value, ensure_ascii=space == " ") + space).encode("utf-8")
    read = quick_loads(data)
    if read is not NOT_READ:
        assert repr(read) == repr(json.loads(data.decode("utf-8")))


@pytest.mark.parametrize("data", [
    b'{"id":99999999999999999999}',          # past 64 bits: orjson would read a float
    b'{"id":-9223372036854775809}',
    b'{"id":1234567890123456789}',           # 19 digits: left to json although orjson reads it right
    b'["\\ud800"]',                           # a lone surrogate, escaped
    b'[NaN]', b'[Infinity]', b'[1e400]',
    b'\xef\xbb\xbf{}',                        # a byte order mark
    b'"\xed\xa0\x80"',                        # a surrogate encoded as if it were a character
    b'[' * 2000 + b']' * 2000,
])
def test_what_orjson_would_read_otherwise_is_left_to_json(data):
    assert quick_loads(data) is NOT_READ


def test_a_lone_surrogate_and_a_huge_integer_are_left_to_the_callers_encoder():
    assert quick_dumps({"message": "bad \ud800"}) is None
    assert quick_dumps({"n": 2**64}) is None


def test_the_reference_engine_answers_the_same_bytes_without_orjson(monkeypatch):
    """Every reply of a whole case, and of requests orjson refuses, with and without it."""
    from conformance.reference_engine import ReferenceEngine, answer_line
    requests = [b'{"id":1,"type":"hello","protocol":1}', b'{"id":2,"type":"new_game","dealer":0}',
                b'{"id":3,"type":"act","seat":"\\ud800","action":"pass"}', b'{"id":99999999999999999999,"type":"bye"}',
                b'{"id":4,"type":"perft","depth":NaN}', b'[' * 3000, b'{"id":5,"type":"hello","protocol":1e400}']
    cases, _ = load_cases(None, load_corpus_meta().tags)
    sample = [case for group in table_groups(cases)[::10] for case in group[:3]]
    answers = []
    for module in (quick_json.orjson, None):
        monkeypatch.setattr(quick_json, "orjson", module)
        engine = ReferenceEngine()
        replies = [answer_line(engine, raw) for raw in requests]
        session = Session([], timeout=5.0)
        session.engine = InProcessEngine(timeout=5.0, transform=lambda _, line: replies.append(line) or line)
        assert all(session.run(case).outcome == "pass" for case in sample)
        answers.append(replies)
    assert len(answers[0]) > 20 * len(sample) and answers[0] == answers[1]


def _integers(value):
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _integers(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _integers(item)
