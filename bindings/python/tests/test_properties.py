"""Property tests (hypothesis): generated envelopes of every message type round-trip through
create → serialize → parse, and arbitrary input never raises."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest
from hypothesis import given, settings, strategies as st

from wirecontract import graphmind as gm

SCHEMA = gm.export_json_schema()
DEFS = SCHEMA["$defs"]

json_scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
json_values = st.recursive(json_scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3), max_leaves=8)


def from_schema(schema, known_keys=()):
    """A strategy for values valid under one of our (simple, generated) schemas."""
    if schema is True or not (set(schema) - {"description", "title"}):
        return json_values
    if "$ref" in schema:
        return from_schema(DEFS[schema["$ref"].split("/")[-1]])
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    t = schema.get("type")
    if t == "string":
        return st.text(max_size=10)
    if t == "boolean":
        return st.booleans()
    if t == "integer":
        lo = schema.get("minimum", -(2**53 - 1))
        if "exclusiveMinimum" in schema:
            lo = schema["exclusiveMinimum"] + 1
        return st.integers(lo, schema.get("maximum", 2**53 - 1))
    if t == "number":
        return st.floats(min_value=schema.get("minimum"), allow_nan=False, allow_infinity=False)
    if t == "array":
        return st.lists(from_schema(schema.get("items", True)), max_size=3)
    if t == "object":
        props = schema.get("properties", {})
        if not props:  # records: string keys, opaque values
            return st.dictionaries(st.text(max_size=5), json_values, max_size=3)
        required = set(schema.get("required", []))
        fixed = {k: from_schema(v) for k, v in props.items() if k in required}
        optional = {k: from_schema(v) for k, v in props.items() if k not in required}
        extras = st.dictionaries(st.text(max_size=6).filter(lambda k: k not in props), json_values, max_size=2)
        return st.fixed_dictionaries(fixed, optional=optional).flatmap(lambda d: extras.map(lambda e: {**d, **e}))
    raise AssertionError(f"schema form not handled by the test generator: {schema}")


def payload_schema(message_type: str):
    return DEFS[f"envelope.{message_type}"]["properties"]["payload"]


envelopes = st.sampled_from(gm.MESSAGE_TYPES).flatmap(
    lambda t: st.tuples(st.just(t), from_schema(payload_schema(t)), st.integers(0, 2**53 - 1), st.text(max_size=5).filter(lambda s: "\0" not in s), st.integers(0, 2**53 - 1))
)


def js(x):
    """What a JSON.parse reader sees: integral floats are integers."""
    if isinstance(x, bool):
        return x
    if isinstance(x, (int, float)) and float(x).is_integer() and abs(x) > 2**53:
        return float(x)  # beyond 2**53 only the double's value is meaningful in JSON.parse
    if isinstance(x, float) and x.is_integer():
        return int(x)
    if isinstance(x, list):
        return [js(i) for i in x]
    if isinstance(x, dict):
        return {k: js(v) for k, v in x.items()}
    return x


@settings(max_examples=400, deadline=None)
@given(envelopes)
def test_generated_envelopes_of_every_type_round_trip(case) -> None:
    message_type, payload, seq, run_id, ts = case
    env = gm.create_envelope(message_type, payload, seq, run_id, ts)
    text = gm.serialize_envelope(env)
    r = gm.parse_envelope_json(text)
    assert r.kind == "ok", (r, text)
    assert r.envelope == env
    assert gm.serialize_envelope(r.envelope) == text
    assert js(r.envelope.payload.to_dict()) == js(payload)
    assert js(json.loads(text)["payload"]) == js(payload)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200))
def test_arbitrary_input_never_raises(data) -> None:
    r = gm.parse_envelope_json(data)
    assert r.kind in ("ok", "unknown-type", "version-mismatch", "invalid")


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["gm", "seq", "ts", "runId", "type", "payload", "x"]), json_values, max_size=7))
def test_arbitrary_decoded_values_get_a_verdict_and_ok_ones_round_trip(value) -> None:
    r = gm.parse_envelope(value)
    assert r.kind in ("ok", "unknown-type", "version-mismatch", "invalid")
    if r.kind in ("ok", "unknown-type"):
        again = gm.parse_envelope_json(gm.serialize_envelope(r.envelope))
        assert again.kind == r.kind and again.envelope == r.envelope


def payload_text(value):
    """The payload's text as building writes it (an unknown type keeps it byte for byte)."""
    frame = gm.serialize_envelope(gm.create_envelope("x.custom", value, 1, "r", 1))
    return frame[frame.index('"payload":') + len('"payload":') : -1]


@settings(max_examples=300)
@given(json_values | st.text(alphabet=st.sampled_from(["a", "\ud800", "\udfff", "é", '"', "\x01"]), max_size=6))
def test_the_recursive_and_the_iterative_walk_write_the_same_text(value):
    """Building dumps host values with a recursive pass over the plain built-in types, at most 24
    levels deep, and leaves anything else (big ints, lone surrogates, tuples, deeper values) to an
    iterative walk. Nested 30 lists deep, or in a tuple, the value goes to the walk: the text must
    be the same."""
    text = payload_text(value)
    deep = value
    for _ in range(30):
        deep = [deep]
    assert payload_text(deep) == "[" * 30 + text + "]" * 30
    assert payload_text((value,)) == "[" + text + "]"


def test_a_constructor_reads_a_host_value_once():
    """A value whose own code runs when it is read (a list subclass's __iter__, a mapping's
    items()) is read once: the quick route takes only the built-in types, so the route that
    reads it is the one that reports it."""
    calls = []

    class Once(list):
        def __iter__(self):
            calls.append(1)
            return super().__iter__() if len(calls) == 1 else iter(())

    with pytest.raises(gm.BuildError) as e:
        gm.NodeToken(node_id="n", deltas=Once([{"t": "text", "v": 5}]))
    assert [i.path for i in e.value.issues] == ["deltas.0.v"]
    assert len(calls) == 1

    class Items(Mapping):
        reads = 0

        def __init__(self, **kw):
            self._d = kw

        def __getitem__(self, k):
            return self._d[k]

        def __iter__(self):
            return iter(self._d)

        def __len__(self):
            return len(self._d)

        def items(self):
            Items.reads += 1
            return self._d.items()

    finished = gm.NodeFinished(node_id="n", duration_ms=1, status="ok", output=Items(a=1))
    assert finished.output == {"a": 1}
    assert Items.reads == 1
